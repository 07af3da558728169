import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactRolesOnce } from "../../src/kernel/compaction.ts";
import { isCompressible } from "../../src/kernel/compressible.ts";
import { compactRolesOnce as ref } from "../../src/reference/compaction.ts";
import { conversation, nat, RUNS } from "./gen.ts";

const window = fc.oneof(
  fc.integer({ min: 1, max: 8 }),
  nat.map((w) => Math.max(1, w)),
);

describe("compaction step on the role view (L2-L6 composed)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(conversation(), window, (c, w) => {
        expect(compactRolesOnce(c.roles, c.callOf, c.lastAnswer, c.ongoing, w)).toEqual(
          ref(c.roles, c.callOf, c.lastAnswer, c.ongoing, w),
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("ensures hold: user/system untouched and in order, retained tail identical, one summary in place", () => {
    let changed = 0;
    fc.assert(
      fc.property(conversation(), window, (c, w) => {
        const roles = c.roles;
        const r = compactRolesOnce(roles, c.callOf, c.lastAnswer, c.ongoing, w);
        if (!r.changed) return r.roles === roles || JSON.stringify(r.roles) === JSON.stringify(roles);
        changed++;
        const d = r.end - r.start;
        if (!(0 <= r.start && r.start < r.end && r.end + w <= roles.length)) return false;
        if (r.roles.length !== roles.length - d + 1 || r.roles[r.start] !== "summary") return false;
        const prot = (rs: readonly string[]) =>
          rs.filter((x) => x === "user" || x === "system" || x === "compaction").join(",");
        if (prot(r.roles) !== prot(roles)) return false;
        for (let k = 0; k < roles.length; k++) {
          if (!isCompressible(roles[k]) && r.start <= k && k < r.end) return false;
        }
        for (let k = 0; k < w && k < roles.length; k++) {
          if (r.roles[r.roles.length - 1 - k] !== roles[roles.length - 1 - k]) return false;
        }
        return true;
      }),
      { numRuns: RUNS },
    );
    expect(changed).toBeGreaterThan(RUNS / 10);
  });
});
