import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlanStamp } from "../../src/kernel/commit.ts";
import { decideLogCommit, onlyAppendsSince } from "../../src/kernel/logcommit.ts";
import { decideLogCommit as refDecide, onlyAppendsSince as refOnly } from "../../src/reference/logcommit.ts";
import { int, nat, RUNS } from "./gen.ts";

// Tails are mostly pure appends (where rebase is possible), sometimes with a compaction in them.
const tail = fc.oneof(fc.array(fc.constant(false), { maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 8 }));
const rewritesAndSince = fc
  .array(fc.boolean(), { maxLength: 12 })
  .chain((r) => fc.tuple(fc.constant(r), fc.nat(r.length)));
const planAndNow = fc
  .record<PlanStamp>({ version: fc.oneof(fc.nat(3), int), length: nat, stretchEnd: nat })
  .chain((p) =>
    fc.tuple(
      fc.constant(p),
      tail,
      fc.oneof(
        fc.constant(p.length),
        nat,
        nat.map((d) => p.length + d),
      ),
    ),
  );

describe("logcommit (L9 over a log)", () => {
  it("onlyAppendsSince agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(rewritesAndSince, ([r, s]) => {
        const got = onlyAppendsSince(r, s);
        let none = true;
        for (let k = s; k < r.length; k++) if (r[k]) none = false;
        return got === refOnly(r, s) && got === none;
      }),
      { numRuns: RUNS },
    );
  });
  it("decideLogCommit agrees with the reference", () => {
    fc.assert(
      fc.property(planAndNow, ([p, t, n]) => decideLogCommit(p, t, n) === refDecide(p, t, n)),
      { numRuns: RUNS },
    );
  });
  it("decideLogCommit's ensures hold", () => {
    fc.assert(
      fc.property(planAndNow, ([p, t, n]) => {
        const d = decideLogCommit(p, t, n);
        const pure = t.every((x) => !x);
        const fits = p.stretchEnd <= p.length;
        return (
          (d !== "reject" ? pure : true) &&
          (d === "commit" ? t.length === 0 && n === p.length && fits : true) &&
          (d === "rebase" ? t.length > 0 && p.length <= n && fits : true) &&
          (t.length === 0 && n === p.length && fits ? d === "commit" : true) &&
          (t.length > 0 && pure && p.length <= n && fits ? d === "rebase" : true)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("a compaction written after the plan rejects it; appends alone rebase it", () => {
    const plan = { version: 5, length: 4, stretchEnd: 2 };
    expect(decideLogCommit(plan, [false, false], 6)).toBe("rebase");
    expect(decideLogCommit(plan, [false, true], 6)).toBe("reject");
    expect(decideLogCommit(plan, [], 4)).toBe("commit");
  });
});
