import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardSummaryBudget } from "../../src/engine/boundary/kernel-requires.ts";
import { summaryBudget } from "../../src/kernel/budget.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import * as ref from "../../src/reference/budget.ts";
import { RUNS } from "./gen.ts";

const size = fc.oneof(fc.nat(100_000), fc.nat(90071992547409));
const half = Math.floor(Number.MAX_SAFE_INTEGER / 2);
const factTokens = fc.oneof(fc.nat(500), fc.nat(half));
const percent = fc.integer({ min: 0, max: 100 });
const floorTokens = fc.oneof(fc.nat(1000), fc.nat(half));
const maxTokens = fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));

describe("a stretch's summary budget", () => {
  it("summaryBudget agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(size, factTokens, percent, floorTokens, maxTokens, (s, t, p, f, m) => {
        const got = summaryBudget(s, t, p, f, m);
        return (
          got === ref.summaryBudget(s, t, p, f, m) &&
          got <= m &&
          got >= Math.min(t + f, m) &&
          (p !== 0 || got === m) &&
          Number.isSafeInteger(got)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("a share of the stretch, the facts plus the floor for a short one, max_tokens for a long one, max_tokens when off", () => {
    expect(summaryBudget(10_000, 0, 5, 200, 2000)).toBe(500);
    expect(summaryBudget(1_000, 0, 5, 200, 2000)).toBe(200);
    expect(summaryBudget(100_000, 0, 5, 200, 2000)).toBe(2000);
    expect(summaryBudget(10_000, 0, 0, 200, 2000)).toBe(2000);
    // the facts come on top of the floor when the share is smaller, and not when it is larger
    expect(summaryBudget(1_000, 13, 3, 40, 2000)).toBe(53);
    expect(summaryBudget(1_000, 59, 3, 40, 2000)).toBe(99);
    expect(summaryBudget(10_000, 59, 3, 40, 2000)).toBe(300);
    // a floor (or facts) above max_tokens: max_tokens caps it still
    expect(summaryBudget(10, 0, 5, 3000, 2000)).toBe(2000);
    expect(summaryBudget(10, 2500, 5, 40, 2000)).toBe(2000);
  });
  it("the guard refuses what the proofs do not cover", () => {
    expect(() => guardSummaryBudget(-1, 0, 5, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 0, 101, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 0, 5, -1, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, -1, 5, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, half + 1, 5, half + 1, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 0, 5, 0, 0)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(90071992547410, 0, 5, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 0, 5, 0.5, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 0.5, 5, 0, 1)).toThrow(KernelBoundaryError);
  });
});
