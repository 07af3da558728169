import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CurrentStamp, decideCommit, type PlanStamp, raceTwoPlans } from "../../src/kernel/commit.ts";
import { decideCommit as ref, raceTwoPlans as refRace } from "../../src/reference/commit.ts";
import { int, nat, RUNS } from "./gen.ts";

// Versions collide often (small range) so every branch is exercised; lengths include 2^40.
const version = fc.oneof(fc.integer({ min: 0, max: 3 }), int);
const plan: fc.Arbitrary<PlanStamp> = fc.record({ version, length: nat, stretchEnd: nat });
const planAndNow = plan.chain((p) =>
  fc.tuple(
    fc.constant(p),
    fc.record<CurrentStamp>({
      version: fc.oneof(fc.constant(p.version), version),
      length: fc.oneof(
        fc.constant(p.length),
        nat,
        nat.map((d) => p.length + d),
      ),
      onlyAppends: fc.boolean(),
    }),
  ),
);

describe("commit (L9)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(planAndNow, ([p, n]) => decideCommit(p, n) === ref(p, n)),
      { numRuns: RUNS },
    );
  });
  it("ensures hold", () => {
    fc.assert(
      fc.property(planAndNow, ([p, n]) => {
        const d = decideCommit(p, n);
        const sameVersion = n.version === p.version;
        const fits = p.stretchEnd <= p.length;
        const canRebase = !sameVersion && n.onlyAppends && p.length <= n.length && fits;
        return (
          (d === "commit" ? sameVersion && n.length === p.length && fits : true) &&
          (d === "rebase" ? canRebase : true) &&
          (!sameVersion && !n.onlyAppends ? d === "reject" : true) &&
          (sameVersion && n.length === p.length && fits ? d === "commit" : true) &&
          (canRebase ? d === "rebase" : true)
        );
      }),
      { numRuns: RUNS },
    );
  });
  // Two plans from one version; the store may have moved on (only forward).
  const race = fc
    .tuple(plan, fc.record({ length: nat, stretchEnd: nat }), fc.integer({ min: 0, max: 2 }), nat, fc.boolean())
    .map(([a, bRest, ahead, length, onlyAppends]) => ({
      a,
      b: { version: a.version, ...bRest },
      now: { version: a.version + ahead, length: ahead === 0 ? a.length : length, onlyAppends },
    }));
  it("raceTwoPlans agrees with the reference, and at most one of two same-version plans is applied", () => {
    let applied = 0;
    fc.assert(
      fc.property(race, ({ a, b, now }) => {
        const r = raceTwoPlans(a, b, now);
        expect(r).toEqual(refRace(a, b, now));
        if (r.first !== "reject" || r.second !== "reject") applied++;
        return r.first === "reject" || r.second === "reject";
      }),
      { numRuns: RUNS },
    );
    expect(applied).toBeGreaterThan(RUNS / 10);
  });
  it("never commits or rebases on a stale non-append change", () => {
    expect(
      decideCommit({ version: 1, length: 10, stretchEnd: 4 }, { version: 2, length: 10, onlyAppends: false }),
    ).toBe("reject");
    expect(decideCommit({ version: 1, length: 10, stretchEnd: 4 }, { version: 2, length: 12, onlyAppends: true })).toBe(
      "rebase",
    );
    expect(decideCommit({ version: 1, length: 10, stretchEnd: 4 }, { version: 1, length: 10, onlyAppends: true })).toBe(
      "commit",
    );
  });
});
