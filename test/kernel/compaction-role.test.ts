// The kernel's own role for a provider's server-side compaction item (`compaction`): the ensures
// that name it, held on generated conversations that hold such items among the work (gen.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectClearing } from "../../src/kernel/clearing.ts";
import { isCompressible } from "../../src/kernel/compressible.ts";
import type { Role } from "../../src/kernel/roles.ts";
import { spliceRoles } from "../../src/kernel/splice.ts";
import { selectStretch } from "../../src/kernel/stretch.ts";
import { conversation, RUNS } from "./gen.ts";

const withCompaction = conversation(30).filter((c) => c.roles.includes("compaction"));

describe("a server-side compaction item in the kernel (role compaction)", () => {
  it("is never compressible", () => {
    expect(isCompressible("compaction")).toBe(false);
  });

  it("is never inside a stretch, and stays where it stands through the splice", () => {
    fc.assert(
      fc.property(withCompaction, fc.integer({ min: 1, max: 6 }), (c, window) => {
        const st = selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, window);
        if (!st.found) return true;
        if (c.roles.slice(st.start, st.end).includes("compaction")) return false;
        const out = spliceRoles(c.roles, st.start, st.end, window);
        const shift = st.end - st.start - 1;
        return c.roles.every((r, k) => r !== "compaction" || (k < st.start ? out[k] : out[k - shift]) === "compaction");
      }),
      { numRuns: RUNS },
    );
  });

  it("bounds the stretches around it like a user message", () => {
    const roles: Role[] = ["assistant", "assistant", "compaction", "assistant", "assistant", "user", "assistant"];
    const none = roles.map(() => -1);
    const st = selectStretch(
      roles,
      none,
      none,
      roles.map(() => false),
      1,
    );
    expect(st).toEqual({ found: true, start: 0, end: 2 });
  });

  it("is never cleared", () => {
    fc.assert(
      fc.property(withCompaction, (c) => {
        const n = c.roles.length;
        const flags = c.roles.map(() => false);
        const out = selectClearing(
          c.roles,
          c.callOf,
          c.ongoing,
          flags,
          flags,
          c.roles.map(() => 50),
          c.roles.map(() => 1),
          1,
          0,
          n * 100,
          0,
          "threshold",
        );
        return c.roles.every((r, k) => r !== "compaction" || !out[k]);
      }),
      { numRuns: RUNS / 10 },
    );
  });
});
