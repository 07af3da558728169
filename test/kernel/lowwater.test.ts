import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  batchWorthRewrite,
  clearsNow,
  lowWaterRun,
  runContinues,
  summarizesAfterClearing,
} from "../../src/kernel/lowwater.ts";
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
  it("batchWorthRewrite agrees with the reference and its ensures", () => {
    const args = fc
      .tuple(
        fc.nat(500),
        fc.nat(500),
        fc.nat(500),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 20 }),
      )
      .map(
        ([trigger, a, b, free, since, every]) => [trigger, Math.max(a, b), Math.min(a, b), free, since, every] as const,
      );
    fc.assert(
      fc.property(args, ([trigger, judged, freed, free, since, every]) => {
        const got = batchWorthRewrite(trigger, judged, freed, free, since, every);
        const want = judged - freed < trigger || (freed >= free && since >= every);
        const progress = !(got && judged - freed >= trigger) || (freed >= 1 && since >= every);
        return got === ref.batchWorthRewrite(trigger, judged, freed, free, since, every) && got === want && progress;
      }),
      { numRuns: RUNS },
    );
    // 15k trigger, 15.7k judged: a batch freeing 47 tokens waits; one reaching under the trigger goes at once
    expect(batchWorthRewrite(15_000, 15_700, 47, 500, 1, 10)).toBe(false);
    expect(batchWorthRewrite(15_000, 15_700, 701, 500, 1, 10)).toBe(true);
    expect(batchWorthRewrite(15_000, 17_000, 1_000, 500, 9, 10)).toBe(false);
    expect(batchWorthRewrite(15_000, 17_000, 1_000, 500, 10, 10)).toBe(true);
  });
  it("clearsNow agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(fc.boolean(), int, int, (summarizes, judged, hard) => {
        const got = clearsNow(summarizes, judged, hard);
        const want = summarizes || hard <= 0 || judged >= hard;
        return (
          got === ref.clearsNow(summarizes, judged, hard) && got === want && (!(hard > 0 && judged >= hard) || got)
        );
      }),
      { numRuns: RUNS },
    );
    // a background run at 11k of a 15k trigger that would only clear waits; at 15k it clears
    expect(clearsNow(false, 11_000, 15_000)).toBe(false);
    expect(clearsNow(true, 11_000, 15_000)).toBe(true);
    expect(clearsNow(false, 15_000, 15_000)).toBe(true);
    expect(clearsNow(false, 11_000, 0)).toBe(true);
  });
});
