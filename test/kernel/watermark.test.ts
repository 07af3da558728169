import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { advanceWatermark } from "../../src/kernel/watermark.ts";
import { advanceWatermark as ref } from "../../src/reference/watermark.ts";
import { int, RUNS } from "./gen.ts";

describe("watermark (L10)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(int, int, int, (c, p, u) => advanceWatermark(c, p, u) === ref(c, p, u)),
      { numRuns: RUNS },
    );
  });
  it("ensures hold", () => {
    fc.assert(
      fc.property(int, int, int, (c, p, u) => {
        const w = advanceWatermark(c, p, u);
        return (
          w >= c &&
          (c <= u ? w <= u : true) &&
          (w === c || w === p || w === u) &&
          (p <= c ? w === c : true) &&
          (c <= p && p <= u ? w === p : true) &&
          (c <= u && u <= p ? w === u : true)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("only grows over a sequence of proposals", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(int, int), { maxLength: 30 }), (steps) => {
        let w = -1;
        for (const [p, u] of steps) {
          const next = advanceWatermark(w, p, u);
          if (next < w) return false;
          w = next;
        }
        return true;
      }),
      { numRuns: RUNS },
    );
  });
  it("clamps at the newest user message", () => {
    expect(advanceWatermark(2, 10, 7)).toBe(7);
    expect(advanceWatermark(9, 10, 7)).toBe(9);
  });
});
