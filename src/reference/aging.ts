// Reference for src/kernel/aging.ts.
import type { Role } from "../kernel/roles.ts";

/**
 * Plain reference of agingDue: the work falls short of the need and summaries hold the share of
 * the context the work leaves (its summaries kept, the rest freed; counts up to 2^53 / 300).
 */
export function agingDue(
  summaryTokens: number,
  totalTokens: number,
  sharePercent: number,
  freed: number,
  need: number,
  planned: number,
): boolean {
  const inRange = totalTokens <= Math.floor(Number.MAX_SAFE_INTEGER / 300);
  const summariesAfter = BigInt(summaryTokens) + BigInt(planned) - BigInt(freed);
  return (
    inRange && freed < need && summariesAfter * 100n >= BigInt(sharePercent) * (BigInt(totalTokens) - BigInt(freed))
  );
}

/** Plain reference of agedBudget: percent of the size, rounded down. */
export function agedBudget(size: number, percent: number): number {
  return Math.floor((size * percent) / 100);
}

/** Plain reference of inPlan: some pair of the flat plan holds j. */
export function inPlan(plan: readonly number[], j: number): boolean {
  for (let k = 0; k + 1 < plan.length; k += 2) if (plan[k] <= j && j < plan[k + 1]) return true;
  return false;
}

/**
 * Plain reference of planAging: every agable summary (its facts strictly under its aged budget)
 * in order, until what they free reaches the need.
 */
export function planAging(
  roles: readonly Role[],
  tokens: readonly number[],
  facts: readonly number[],
  window: number,
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
  plan: readonly number[],
  need: number,
  percent: number,
): number[] {
  const cutoff = Math.max(0, roles.length - window);
  const agable = roles
    .map((_, j) => j)
    .filter(
      (j) =>
        j < cutoff &&
        roles[j] === "summary" &&
        tokens[j] > floorTokens &&
        !shunStarts.some((s, k) => s === j && shunEnds[k] === j + 1) &&
        !inPlan(plan, j) &&
        facts[j] < agedBudget(tokens[j], percent),
    );
  const out: number[] = [];
  let freed = 0;
  for (const j of agable) {
    if (freed >= need) break;
    out.push(j);
    freed += tokens[j] - agedBudget(tokens[j], percent);
  }
  return out;
}
