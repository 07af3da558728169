// Differential and ensures-as-predicates tests for planCalls (how a batch is cut into calls that
// fit the summarizer's model): the kernel against its plain reference, and each ensures checked
// on the result.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardPlanCalls } from "../../src/engine/boundary/kernel-requires.ts";
import { callFits, planCalls } from "../../src/kernel/callplan.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import * as ref from "../../src/reference/callplan.ts";
import { RUNS } from "./gen.ts";

/** A batch: parts' input and output tokens (same length), the overhead, the window and the cap. */
const batch = fc.integer({ min: 0, max: 25 }).chain((n) =>
  fc.record({
    input: fc.array(fc.oneof(fc.nat(40), fc.nat(400)), { minLength: n, maxLength: n }),
    output: fc.array(fc.oneof(fc.nat(20), fc.nat(200)), { minLength: n, maxLength: n }),
    overhead: fc.nat(60),
    window: fc.integer({ min: -5, max: 1500 }),
    cap: fc.integer({ min: -5, max: 600 }),
  }),
);

/** Each ensures of planCalls, as a predicate on its result. */
function meetsEnsures(
  r: readonly number[],
  input: readonly number[],
  output: readonly number[],
  overhead: number,
  window: number,
  cap: number,
): boolean {
  const n = input.length;
  const fits = (a: number, b: number) => callFits(input, output, overhead, window, cap, a, b);
  if (r.length % 2 !== 0) return false;
  if ((n === 0) !== (r.length === 0)) return false;
  if (r.length > 0 && (r[0] !== 0 || r[r.length - 1] !== n)) return false;
  for (let k = 0; 2 * k + 1 < r.length; k++) {
    const [a, b] = [r[2 * k], r[2 * k + 1]];
    if (!(0 <= a && a < b && b <= n)) return false;
    if (2 * k + 3 < r.length && r[2 * k + 1] !== r[2 * k + 2]) return false;
    if (!fits(a, b) && b !== a + 1) return false;
    if (b < n && fits(a, b + 1)) return false;
  }
  return true;
}

describe("planCalls: a batch cut into calls that fit the summarizer's model", () => {
  it("agrees with the reference and meets its ensures", () => {
    let split = 0;
    let alone = 0;
    fc.assert(
      fc.property(batch, ({ input, output, overhead, window, cap }) => {
        const got = planCalls(input, output, overhead, window, cap);
        if (got.length > 2) split++;
        for (let k = 0; 2 * k + 1 < got.length; k++)
          if (!callFits(input, output, overhead, window, cap, got[2 * k], got[2 * k + 1])) alone++;
        return (
          JSON.stringify(got) === JSON.stringify(ref.planCalls(input, output, overhead, window, cap)) &&
          meetsEnsures(got, input, output, overhead, window, cap)
        );
      }),
      { numRuns: RUNS },
    );
    // the generator reaches both shapes the ensures speak of: batches cut in several calls, and
    // single parts that fit not even alone
    expect(split).toBeGreaterThan(RUNS / 10);
    expect(alone).toBeGreaterThan(RUNS / 10);
  });

  it("callFits agrees with the reference", () => {
    fc.assert(
      fc.property(batch, fc.nat(25), fc.nat(25), ({ input, output, overhead, window, cap }, x, y) => {
        const a = Math.min(x, y, input.length);
        const b = Math.min(Math.max(x, y), input.length);
        return (
          callFits(input, output, overhead, window, cap, a, b) ===
          ref.callFits(input, output, overhead, window, cap, a, b)
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("cuts where the window or the output cap is reached, and gives an oversized part a call of its own", () => {
    // window 100, overhead 10: parts of 20 in + 10 out fit three to a call (10 + 90 = 100)
    expect(planCalls([20, 20, 20, 20, 20], [10, 10, 10, 10, 10], 10, 100, 1000)).toEqual([0, 3, 3, 5]);
    // an output cap of 25: two parts' answers (20) fit, three (30) do not
    expect(planCalls([1, 1, 1, 1], [10, 10, 10, 10], 0, 1000, 25)).toEqual([0, 2, 2, 4]);
    // the middle part fits not even alone: a call of its own, its neighbours in theirs
    expect(planCalls([5, 500, 5], [5, 5, 5], 0, 100, 100)).toEqual([0, 1, 1, 2, 2, 3]);
    // everything fits: one call
    expect(planCalls([5, 5, 5], [5, 5, 5], 0, 100, 100)).toEqual([0, 3]);
    expect(planCalls([], [], 0, 100, 100)).toEqual([]);
  });

  it("the guard refuses what the proofs do not cover", () => {
    expect(() => guardPlanCalls([1], [1, 2], 0, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([-1], [1], 0, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([1], [-1], 0, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([1], [1], -1, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([Number.MAX_SAFE_INTEGER], [1], 0, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([1], [1], Number.MAX_SAFE_INTEGER, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([0.5], [1], 0, 10, 10)).toThrow(KernelBoundaryError);
    expect(() => guardPlanCalls([1], [1], 0, 10, 10)).not.toThrow();
  });
});
