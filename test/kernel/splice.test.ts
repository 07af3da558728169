import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCompressible } from "../../src/kernel/compressible.ts";
import { retentionCutoff } from "../../src/kernel/retention.ts";
import type { Role } from "../../src/kernel/roles.ts";
import { splice, spliceRoles } from "../../src/kernel/splice.ts";
import * as ref from "../../src/reference/splice.ts";
import { RUNS, role } from "./gen.ts";

const spliceCase = fc
  .array(fc.integer(), { minLength: 1, maxLength: 40 })
  .chain((xs) =>
    fc
      .tuple(fc.constant(xs), fc.nat(xs.length - 1), fc.integer())
      .chain(([xs, s, summary]) =>
        fc.tuple(fc.constant(xs), fc.constant(s), fc.integer({ min: s + 1, max: xs.length }), fc.constant(summary)),
      ),
  );

describe("splice (L6)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(spliceCase, ([xs, s, e, m]) => {
        expect(splice(xs, s, e, m)).toEqual(ref.splice(xs, s, e, m));
      }),
      { numRuns: RUNS },
    );
  });
  it("ensures hold", () => {
    fc.assert(
      fc.property(spliceCase, ([xs, s, e, m]) => {
        const out = splice(xs, s, e, m);
        if (out.length !== xs.length - (e - s) + 1 || out[s] !== m) return false;
        for (let k = 0; k < s; k++) if (out[k] !== xs[k]) return false;
        for (let k = e; k < xs.length; k++) if (out[k - (e - s) + 1] !== xs[k]) return false;
        return xs.length === out.length + (e - s) - 1; // shrinks by (stretch length - 1)
      }),
      { numRuns: RUNS },
    );
  });
  it("does not mutate its input", () => {
    const xs = [1, 2, 3, 4];
    splice(xs, 1, 3, 9);
    expect(xs).toEqual([1, 2, 3, 4]);
  });

  // Role-level cases: a stretch of compressible roles before the retention window.
  const rolesCase = fc
    .tuple(fc.array(role, { minLength: 2, maxLength: 40 }), fc.integer({ min: 1, max: 8 }))
    .chain(([roles, w]) => {
      const cut = retentionCutoff(roles.length, w);
      const runs: Array<[number, number]> = [];
      for (let s = 0; s < cut; s++) {
        for (let e = s + 1; e <= cut && isCompressible(roles[e - 1]); e++) runs.push([s, e]);
        // a run [s, e) only counts if all of it is compressible
      }
      const ok = runs.filter(([s, e]) => roles.slice(s, e).every(isCompressible));
      return ok.length === 0 ? fc.constant(null) : fc.constantFrom(...ok).map(([s, e]) => ({ roles, w, s, e }));
    })
    .filter((c): c is { roles: Role[]; w: number; s: number; e: number } => c !== null);

  it("spliceRoles agrees with the reference", () => {
    fc.assert(
      fc.property(rolesCase, ({ roles, w, s, e }) => {
        expect(spliceRoles(roles, s, e, w)).toEqual(ref.spliceRoles(roles, s, e, w));
      }),
      { numRuns: RUNS },
    );
  });
  it("spliceRoles ensures: user/system kept in order, retained tail identical", () => {
    fc.assert(
      fc.property(rolesCase, ({ roles, w, s, e }) => {
        const out = spliceRoles(roles, s, e, w);
        const protectedRoles = (rs: readonly Role[]) => rs.filter((r) => !isCompressible(r));
        expect(protectedRoles(out)).toEqual(protectedRoles(roles));
        expect(out[s]).toBe("summary");
        expect(out.length).toBe(roles.length - (e - s) + 1);
        roles.forEach((r, k) => {
          if (isCompressible(r)) return;
          if (k < s) expect(out[k]).toBe(r);
          else expect(out[k - (e - s) + 1]).toBe(r); // k >= e: the stretch holds no user/system message
        });
        for (let k = 0; k < w && k < roles.length; k++) {
          expect(out[out.length - 1 - k]).toBe(roles[roles.length - 1 - k]);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
