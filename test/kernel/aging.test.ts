import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardPlanAging } from "../../src/engine/boundary/kernel-requires.ts";
import { agedBudget, agingDue, inPlan, planAging } from "../../src/kernel/aging.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import * as ref from "../../src/reference/aging.ts";
import { int, nat, RUNS, role } from "./gen.ts";

/**
 * Roles with summaries common, their token counts, their facts' tokens (often none, often about the
 * aged budget), a window, a floor, records and a flat plan of sorted pairs.
 */
const input = fc.array(fc.oneof(role, fc.constant("summary" as const)), { maxLength: 30 }).chain((roles) =>
  fc.tuple(
    fc.constant(roles),
    fc.array(fc.oneof(fc.nat(120), fc.nat(4)), { minLength: roles.length, maxLength: roles.length }),
    fc.array(fc.oneof(fc.constant(0), fc.nat(70)), { minLength: roles.length, maxLength: roles.length }),
    fc.integer({ min: 1, max: 8 }),
    fc.oneof(fc.constant(0), fc.nat(60), int),
    fc.array(fc.tuple(fc.nat(roles.length + 1), fc.nat(2)), { maxLength: 5 }),
    fc.array(fc.nat(roles.length + 1), { maxLength: 8 }).map((xs) => xs.sort((a, b) => a - b)),
    fc.oneof(fc.nat(400), int),
    fc.integer({ min: 0, max: 99 }),
  ),
);

describe("summary aging", () => {
  it("agingDue agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(
        nat,
        nat,
        fc.integer({ min: 0, max: 100 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        int,
        (a, b, share, p, f, need) => {
          const [summary, total] = a <= b ? [a, b] : [b, a];
          const planned = Math.floor(p * total);
          const freed = Math.trunc(f * planned);
          const got = agingDue(summary, total, share, freed, need, planned);
          const spec =
            total <= 30023997515803 && freed < need && (summary + planned - freed) * 100 >= share * (total - freed);
          return got === ref.agingDue(summary, total, share, freed, need, planned) && got === spec;
        },
      ),
      { numRuns: RUNS },
    );
  });
  it("agingDue judges the share on the context the planned work leaves", () => {
    // 40k of 100k are summaries (40%): under a 50% share before the batch; its work stretches
    // (50k planned, 45k freed, 5k kept as summaries) leave 45k of summaries in 55k (82%)
    expect(agingDue(40_000, 100_000, 50, 45_000, 60_000, 50_000)).toBe(true);
    // no work planned: the share before the batch, 40%, under 50%
    expect(agingDue(40_000, 100_000, 50, 0, 60_000, 0)).toBe(false);
  });
  it("agedBudget agrees with the reference and stays below the size", () => {
    fc.assert(
      fc.property(fc.nat(90071992547409), fc.integer({ min: 0, max: 99 }), (size, percent) => {
        const got = agedBudget(size, percent);
        return got === ref.agedBudget(size, percent) && got >= 0 && (size === 0 || got < size);
      }),
      { numRuns: RUNS },
    );
  });
  it("inPlan agrees with the reference", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -2, max: 30 }), { maxLength: 9 }),
        fc.integer({ min: -2, max: 32 }),
        (p, j) => {
          return inPlan(p, j) === ref.inPlan(p, j);
        },
      ),
      { numRuns: RUNS },
    );
  });
  it("planAging agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(input, ([roles, tokens, facts, window, floor, recs, plan, need, percent]) => {
        const starts = recs.map((r) => r[0]);
        const ends = recs.map((r) => r[0] + r[1]);
        const got = planAging(roles, tokens, facts, window, floor, starts, ends, plan, need, percent);
        expect(got).toEqual(ref.planAging(roles, tokens, facts, window, floor, starts, ends, plan, need, percent));
        const cutoff = Math.max(0, roles.length - window);
        let freed = 0;
        got.forEach((j, k) => {
          expect(freed).toBeLessThan(need);
          expect(roles[j]).toBe("summary");
          expect(j).toBeLessThan(cutoff);
          expect(facts[j]).toBeLessThan(agedBudget(tokens[j], percent));
          if (k > 0) expect(got[k - 1]).toBeLessThan(j);
          freed += tokens[j] - agedBudget(tokens[j], percent);
        });
      }),
      { numRuns: RUNS },
    );
  });
  it("ages the oldest summaries of summary-only gaps first, outside the work plan, and leaves user messages alone", () => {
    const roles = [
      "system",
      "user",
      "summary",
      "user",
      "summary",
      "user",
      "summary",
      "assistant",
      "user",
      "assistant",
    ] as const;
    const tokens = [10, 5, 300, 5, 200, 5, 100, 400, 5, 50];
    const none = tokens.map(() => 0);
    // the work plan holds [6, 8); summaries at 2 and 4 free 150 and 100 at 50%
    expect(planAging([...roles], tokens, none, 2, 64, [], [], [6, 8], 120, 50)).toEqual([2]);
    expect(planAging([...roles], tokens, none, 2, 64, [], [], [6, 8], 151, 50)).toEqual([2, 4]);
    expect(planAging([...roles], tokens, none, 2, 64, [], [], [6, 8], 10_000, 50)).toEqual([2, 4]);
    // the summary at 2 is known not to shrink; at or under the floor is not worth a call
    expect(planAging([...roles], tokens, none, 2, 64, [2], [3], [], 10_000, 50)).toEqual([4, 6]);
    expect(planAging([...roles], tokens, none, 2, 250, [], [], [], 10_000, 50)).toEqual([2]);
    // the summary at 2 (budget 150) lists facts of 150 tokens: no answer can keep them, so it is
    // skipped and the next one aged; at 149 they fit
    const facts = [0, 0, 150, 0, 0, 0, 0, 0, 0, 0];
    expect(planAging([...roles], tokens, facts, 2, 64, [], [], [6, 8], 120, 50)).toEqual([4]);
    const fits = [0, 0, 149, 0, 0, 0, 0, 0, 0, 0];
    expect(planAging([...roles], tokens, fits, 2, 64, [], [], [6, 8], 120, 50)).toEqual([2]);
  });
  it("walks a work plan of several pairs once: a summary between, before and after them, and in empty pairs", () => {
    const roles = [
      "user",
      "summary",
      "summary",
      "user",
      "summary",
      "summary",
      "summary",
      "user",
      "user",
      "user",
    ] as const;
    const tokens = [5, 100, 100, 5, 100, 100, 100, 5, 5, 5];
    const none = tokens.map(() => 0);
    // pairs [2, 2) (empty), [2, 3), [4, 4) (empty), [5, 6): the summaries at 1, 4 and 6 lie outside
    expect(planAging([...roles], tokens, none, 2, 0, [], [], [2, 2, 2, 3, 4, 4, 5, 6], 10_000, 50)).toEqual([1, 4, 6]);
    // a trailing odd entry starts no pair
    expect(planAging([...roles], tokens, none, 2, 0, [], [], [2, 3, 4], 10_000, 50)).toEqual([1, 4, 5, 6]);
  });
  it("the boundary refuses a work plan whose entries decrease (planAging's requires)", () => {
    const roles = ["user", "summary", "summary", "user"] as const;
    const args = [[...roles], [5, 100, 100, 5], [0, 0, 0, 0], 1, 0, [], [], [2, 3, 0, 1], 10_000, 50] as const;
    expect(() => guardPlanAging(...args)).toThrow(KernelBoundaryError);
    expect(() => guardPlanAging(args[0], args[1], args[2], 1, 0, [], [], [0, 1, 2, 3], 10_000, 50)).not.toThrow();
    // one fact count per message
    expect(() => guardPlanAging(args[0], args[1], [0], 1, 0, [], [], [0, 1, 2, 3], 10_000, 50)).toThrow(
      KernelBoundaryError,
    );
  });
});
