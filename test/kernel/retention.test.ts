import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { retentionCutoff } from "../../src/kernel/retention.ts";
import { retentionCutoff as ref } from "../../src/reference/retention.ts";
import { nat, RUNS } from "./gen.ts";

const win = nat.map((w) => Math.max(1, w));

describe("retention (L3)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(nat, win, (n, w) => retentionCutoff(n, w) === ref(n, w)),
      { numRuns: RUNS },
    );
  });
  it("ensures hold", () => {
    fc.assert(
      fc.property(nat, win, (n, w) => {
        const c = retentionCutoff(n, w);
        return (
          Number.isInteger(c) &&
          c >= 0 &&
          c <= n &&
          n - c <= w &&
          (n >= w ? n - c === w : true) &&
          (n <= w ? c === 0 : true)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("keeps the default window of 6", () => {
    expect(retentionCutoff(10, 6)).toBe(4);
    expect(retentionCutoff(3, 6)).toBe(0);
  });
});
