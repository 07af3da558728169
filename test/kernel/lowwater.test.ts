import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowWaterRun, runContinues, summarizesAfterClearing } from "../../src/kernel/lowwater.ts";
import * as ref from "../../src/reference/lowwater.ts";
import { int, nat, RUNS } from "./gen.ts";

const savings = fc.array(
  fc.oneof(
    fc.integer({ min: 1, max: 50 }),
    nat.map((x) => Math.max(1, x)),
  ),
  {
    maxLength: 40,
  },
);

describe("low-water stop rule", () => {
  it("runContinues agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(fc.boolean(), int, int, (d, t, g) => {
        const got = runContinues(d, t, g);
        return got === ref.runContinues(d, t, g) && got === (d && t > g);
      }),
      { numRuns: RUNS },
    );
  });
  it("summarizesAfterClearing agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), int, int, (d, after, t, g) => {
        const got = summarizesAfterClearing(d, after, t, g);
        return got === ref.summarizesAfterClearing(d, after, t, g) && got === (d && (after || t > g)) && (!got || d);
      }),
      { numRuns: RUNS },
    );
  });
  it("after clearing: a run due at its start summarizes while still due or above the target, never one that was not due", () => {
    // trigger 30k, target 10.5k: clearing left 14k (under the trigger, above the target)
    expect(summarizesAfterClearing(true, false, 14_000, 10_500)).toBe(true);
    expect(summarizesAfterClearing(true, false, 10_500, 10_500)).toBe(false);
    expect(summarizesAfterClearing(true, true, 31_000, 10_500)).toBe(true);
    expect(summarizesAfterClearing(false, false, 14_000, 10_500)).toBe(false);
  });
  it("lowWaterRun agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(int, fc.boolean(), int, savings, (total, due, target, s) => {
        const got = lowWaterRun(total, due, target, s);
        const want = ref.lowWaterRun(total, due, target, s);
        return (
          got.total === want.total &&
          got.steps === want.steps &&
          (due || (got.steps === 0 && got.total === total)) &&
          got.steps >= 0 &&
          got.steps <= s.length &&
          got.total <= total - got.steps &&
          (!(due && got.steps < s.length) || got.total <= target) &&
          (got.steps === 0 || got.steps <= total - target)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("frees down to the target in one run, where stopping under the trigger would stop early", () => {
    // 20k tokens, trigger 15k, target 9k, steps of 2k: under the trigger after 3 steps, at the target after 6
    const steps = Array.from({ length: 10 }, () => 2_000);
    expect(lowWaterRun(20_000, true, 9_000, steps)).toEqual({ total: 8_000, steps: 6 });
    expect(lowWaterRun(20_000, true, 15_000 - 1, steps)).toEqual({ total: 14_000, steps: 3 });
    expect(lowWaterRun(20_000, false, 9_000, steps)).toEqual({ total: 20_000, steps: 0 });
  });
});
