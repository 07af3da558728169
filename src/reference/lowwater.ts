// Reference for src/kernel/lowwater.ts.

/** Plain reference of runContinues. */
export function runContinues(dueAtStart: boolean, total: number, target: number): boolean {
  return dueAtStart && total > target;
}

/** Plain reference of summarizesAfterClearing: due before clearing, and still due after it or above the target. */
export function summarizesAfterClearing(
  dueAtStart: boolean,
  dueAfterClearing: boolean,
  total: number,
  target: number,
): boolean {
  return dueAtStart && (dueAfterClearing || total > target);
}

/** Plain reference of lowWaterRun: subtract savings in order while due and above the target. */
export function lowWaterRun(
  total: number,
  due: boolean,
  target: number,
  savings: readonly number[],
): { total: number; steps: number } {
  if (!due) return { total, steps: 0 };
  let steps = 0;
  for (const s of savings) {
    if (total <= target) break;
    total -= s;
    steps++;
  }
  return { total, steps };
}
