// Reference for src/kernel/budget.ts.

/** Plain reference of summaryBudget: off (percent 0) asks for maxTokens; else percent of the size, clamped to [facts + floor, max]. */
export function summaryBudget(
  size: number,
  factTokens: number,
  percent: number,
  floorTokens: number,
  maxTokens: number,
): number {
  if (percent === 0) return maxTokens;
  return Math.min(maxTokens, Math.max(factTokens + floorTokens, Math.floor((size * percent) / 100)));
}
