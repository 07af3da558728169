// Reference for src/kernel/batch.ts, over the reference stretch selection.
import type { Role } from "../kernel/roles.ts";
import { worthACall } from "./floor.ts";
import { selectStretchFrom } from "./stretch.ts";

const sum = (xs: readonly number[], a: number, b: number) => xs.slice(a, b).reduce((x, y) => x + y, 0);

/** Plain reference of batchFreed: the first k pairs' tokens, each less the allowance and keepPercent percent of it (rounded down). */
export function batchFreed(
  tokens: readonly number[],
  plan: readonly number[],
  allowance: number,
  keepPercent: number,
  k: number,
): number {
  let freed = 0;
  for (let j = 0; j < k; j++) {
    const size = sum(tokens, plan[2 * j], plan[2 * j + 1]);
    freed += size - allowance - Math.floor((size * keepPercent) / 100);
  }
  return freed;
}

/** Plain reference of planBatch: take each earliest eligible stretch worth a call until the freed tokens reach `need`. */
export function planBatch(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  tokens: readonly number[],
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
  need: number,
  allowance: number,
  keepPercent: number,
): number[] {
  const plan: number[] = [];
  let from = 0;
  while (batchFreed(tokens, plan, allowance, keepPercent, plan.length / 2) < need) {
    const st = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, from);
    if (!st.found) break;
    if (worthACall(tokens, st.start, st.end, floorTokens, shunStarts, shunEnds)) {
      plan.push(st.start, st.end);
    }
    // a stretch not worth a call is passed over whole, as a planned one is
    from = st.end;
  }
  return plan;
}

/** Plain reference of planFreed: batchFreed over every pair of the plan. */
export function planFreed(
  tokens: readonly number[],
  plan: readonly number[],
  allowance: number,
  keepPercent: number,
): number {
  return batchFreed(tokens, plan, allowance, keepPercent, Math.floor(plan.length / 2));
}
