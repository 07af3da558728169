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

/** Plain reference of batchWorthRewrite: under the trigger after the batch, or enough freed and enough calls since. */
export function batchWorthRewrite(
  trigger: number,
  judged: number,
  freed: number,
  freeAtLeast: number,
  callsSince: number,
  every: number,
): boolean {
  return judged - freed < trigger || (freed >= freeAtLeast && callsSince >= every);
}

/** Plain reference of clearsNow: the run summarizes, there is no separate trigger, or the request is at or over it. */
export function clearsNow(summarizes: boolean, judged: number, hardTrigger: number): boolean {
  return summarizes || hardTrigger <= 0 || judged >= hardTrigger;
}
