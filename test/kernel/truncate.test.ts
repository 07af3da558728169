import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinedBytes, keepHeadLines, keepTailLines } from "../../src/kernel/truncate.ts";
import * as ref from "../../src/reference/truncate.ts";
import { nat, RUNS } from "./gen.ts";

const lines = fc.array(fc.oneof(fc.nat(20), nat), { maxLength: 40 });
const budget = fc.oneof(fc.nat(60), nat);
const lineBudget = fc.oneof(fc.nat(45), nat);

/** The bytes of the actual text, for a plain cross-check of the byte model. */
function textBytes(lens: readonly number[]): number {
  return Buffer.byteLength(lens.map((n) => "x".repeat(n)).join("\n"));
}

describe("truncate (L11)", () => {
  it("joinedBytes agrees with the reference and with real joined text", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { maxLength: 20 }), fc.nat(20), fc.nat(20), (xs, a0, b0) => {
        const a = Math.min(a0, xs.length);
        const b = Math.min(Math.max(a, b0), xs.length);
        const got = joinedBytes(xs, a, b);
        return got === ref.joinedBytes(xs, a, b) && got === textBytes(xs.slice(a, b));
      }),
      { numRuns: RUNS },
    );
  });
  for (const [name, kernel, reference, slice] of [
    ["keepHeadLines", keepHeadLines, ref.keepHeadLines, (xs: number[], k: number) => xs.slice(0, k)],
    ["keepTailLines", keepTailLines, ref.keepTailLines, (xs: number[], k: number) => xs.slice(xs.length - k)],
  ] as const) {
    it(`${name} agrees with the reference`, () => {
      fc.assert(
        fc.property(lines, lineBudget, budget, (xs, l, b) => kernel(xs, l, b) === reference(xs, l, b)),
        { numRuns: RUNS },
      );
    });
    it(`${name} ensures: within both budgets, and one more line would break one`, () => {
      fc.assert(
        fc.property(lines, lineBudget, budget, (xs, l, b) => {
          const k = kernel(xs, l, b);
          if (!(k >= 0 && k <= xs.length && k <= l)) return false;
          if (ref.joinedBytes(slice(xs, k), 0, k) > b) return false;
          for (let m = k + 1; m <= xs.length && m <= l; m++) {
            if (ref.joinedBytes(slice(xs, m), 0, m) <= b) return false;
          }
          return true;
        }),
        { numRuns: RUNS },
      );
    });
  }
  it("whichever limit hits first", () => {
    expect(keepHeadLines([3, 3, 3], 2, 100)).toBe(2); // lines limit
    expect(keepHeadLines([3, 3, 3], 10, 7)).toBe(2); // "xxx\nxxx" = 7 bytes
    expect(keepHeadLines([3, 3, 3], 10, 6)).toBe(1);
    expect(keepTailLines([1, 50, 3, 3], 10, 7)).toBe(2);
    expect(keepHeadLines([10], 5, 9)).toBe(0);
  });
});
