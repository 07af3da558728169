import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardSummaryBudget } from "../../src/engine/boundary/kernel-requires.ts";
import { summaryBudget } from "../../src/kernel/budget.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import * as ref from "../../src/reference/budget.ts";
import { RUNS } from "./gen.ts";

const size = fc.oneof(fc.nat(100_000), fc.nat(90071992547409));
const percent = fc.integer({ min: 0, max: 100 });
const floorTokens = fc.oneof(fc.nat(1000), fc.nat(Number.MAX_SAFE_INTEGER));
const maxTokens = fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));

describe("a stretch's summary budget", () => {
  it("summaryBudget agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(size, percent, floorTokens, maxTokens, (s, p, f, m) => {
        const got = summaryBudget(s, p, f, m);
        return (
          got === ref.summaryBudget(s, p, f, m) &&
          got <= m &&
          got >= Math.min(f, m) &&
          (p !== 0 || got === m) &&
          Number.isSafeInteger(got)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("a share of the stretch, the floor for a short one, max_tokens for a long one, max_tokens when off", () => {
    expect(summaryBudget(10_000, 5, 200, 2000)).toBe(500);
    expect(summaryBudget(1_000, 5, 200, 2000)).toBe(200);
    expect(summaryBudget(100_000, 5, 200, 2000)).toBe(2000);
    expect(summaryBudget(10_000, 0, 200, 2000)).toBe(2000);
    // a floor above max_tokens: max_tokens caps it still
    expect(summaryBudget(10, 5, 3000, 2000)).toBe(2000);
  });
  it("the guard refuses what the proofs do not cover", () => {
    expect(() => guardSummaryBudget(-1, 5, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 101, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 5, -1, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 5, 0, 0)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(90071992547410, 5, 0, 1)).toThrow(KernelBoundaryError);
    expect(() => guardSummaryBudget(10, 5, 0.5, 1)).toThrow(KernelBoundaryError);
  });
});
