// Differential and ensures-as-predicates tests for the L7 cut point.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCutPoint, findTurnStart, findValidCutPoints } from "../../src/kernel/cutpoint.ts";
import { sumTokens } from "../../src/kernel/progress.ts";
import * as ref from "../../src/reference/cutpoint.ts";
import { type Conversation, conversation, nat, RUNS } from "./gen.ts";

/** A conversation with token counts, a range [start, end) and a budget. */
const cutCase = conversation(30).chain((c: Conversation) =>
  fc
    .tuple(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), nat), {
        minLength: c.roles.length,
        maxLength: c.roles.length,
      }),
      fc.nat(c.roles.length),
      fc.nat(c.roles.length),
      fc.oneof(fc.integer({ min: 0, max: 200 }), nat),
    )
    .map(([tokens, a, b, keep]) => ({ ...c, tokens, start: Math.min(a, b), end: Math.max(a, b), keep })),
);

/** A valid cut point of [start, end) as the ensures state it: not a tool result, and no tool result at or after it answers a call before it. */
function validCut(c: Conversation, start: number, end: number, p: number): boolean {
  if (!(start <= p && p < end && c.roles[p] !== "tool")) return false;
  for (let j = p; j < c.roles.length; j++) if (c.roles[j] === "tool" && c.callOf[j] < p) return false;
  return true;
}

describe("cutpoint (L7)", () => {
  it("sumTokens (the specifications' sum) agrees with a plain sum", () => {
    fc.assert(
      fc.property(cutCase, (c) => {
        expect(sumTokens(c.tokens, c.start, c.end)).toBe(ref.sumRange(c.tokens, c.start, c.end));
      }),
      { numRuns: RUNS },
    );
  });

  it("findValidCutPoints agrees with the reference", () => {
    fc.assert(
      fc.property(cutCase, (c) => {
        expect(findValidCutPoints(c.roles, c.callOf, c.lastAnswer, c.start, c.end)).toEqual(
          ref.findValidCutPoints(c.roles, c.callOf, c.start, c.end),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("findValidCutPoints ensures hold", () => {
    fc.assert(
      fc.property(cutCase, (c) => {
        const pts = findValidCutPoints(c.roles, c.callOf, c.lastAnswer, c.start, c.end);
        pts.forEach((p, k) => {
          expect(p >= c.start && p < c.end && c.roles[p] !== "tool").toBe(true);
          for (let j = p; j < c.roles.length; j++)
            if (c.roles[j] === "tool") expect(c.callOf[j]).toBeGreaterThanOrEqual(p);
          if (k + 1 < pts.length) expect(p).toBeLessThan(pts[k + 1]);
        });
        // complete: every valid cut point is listed
        for (let p = c.start; p < c.end; p++) if (validCut(c, c.start, c.end, p)) expect(pts).toContain(p);
      }),
      { numRuns: RUNS },
    );
  });

  it("findTurnStart agrees with the reference and its ensures hold", () => {
    fc.assert(
      fc.property(
        conversation(30)
          .filter((c) => c.roles.length > 0)
          .chain((c) => fc.tuple(fc.constant(c), fc.nat(c.roles.length - 1), fc.nat(c.roles.length - 1))),
        ([c, a, b]) => {
          const [start, index] = [Math.min(a, b), Math.max(a, b)];
          const r = findTurnStart(c.roles, index, start);
          expect(r).toBe(ref.findTurnStart(c.roles, index, start));
          if (r !== -1) {
            expect(r >= start && r <= index && c.roles[r] === "user").toBe(true);
            for (let k = r + 1; k <= index; k++) expect(c.roles[k]).not.toBe("user");
          } else {
            for (let k = start; k <= index; k++) expect(c.roles[k]).not.toBe("user");
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("findCutPoint agrees with the reference", () => {
    fc.assert(
      fc.property(cutCase, (c) => {
        expect(findCutPoint(c.roles, c.tokens, c.callOf, c.lastAnswer, c.start, c.end, c.keep)).toEqual(
          ref.findCutPoint(c.roles, c.tokens, c.callOf, c.start, c.end, c.keep),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("findCutPoint ensures hold, the kept-token budget included", () => {
    fc.assert(
      fc.property(cutCase, (c) => {
        const r = findCutPoint(c.roles, c.tokens, c.callOf, c.lastAnswer, c.start, c.end, c.keep);
        const total = ref.sumRange(c.tokens, c.start, c.end);
        if (r.found) {
          expect(r.firstKept >= c.start && r.firstKept < c.end && c.roles[r.firstKept] !== "tool").toBe(true);
          for (let j = r.firstKept; j < c.roles.length; j++) {
            if (c.roles[j] === "tool") expect(c.callOf[j]).toBeGreaterThanOrEqual(r.firstKept);
          }
          if (total >= c.keep) expect(ref.sumRange(c.tokens, r.firstKept, c.end)).toBeGreaterThanOrEqual(c.keep);
        } else {
          expect(r.firstKept).toBe(c.start);
          expect(r.isSplitTurn).toBe(false);
        }
        if (r.isSplitTurn) {
          expect(r.turnStart >= c.start && r.turnStart < r.firstKept && c.roles[r.turnStart] === "user").toBe(true);
          for (let k = r.turnStart + 1; k < r.firstKept; k++) expect(c.roles[k]).not.toBe("user");
        } else expect(r.turnStart).toBe(-1);
        // which cut: no later valid cut keeps the budget; the earliest when the range holds less than it
        const valid = Array.from({ length: c.end - c.start }, (_, i) => c.start + i).filter((p) =>
          validCut(c, c.start, c.end, p),
        );
        const keeps = (p: number) => ref.sumRange(c.tokens, p, c.end) >= c.keep;
        if (r.found) {
          expect(valid.filter((p) => p > r.firstKept && keeps(p))).toEqual([]);
          if (total < c.keep) expect(r.firstKept).toBe(valid[0]);
          const userBefore = c.roles.slice(c.start, r.firstKept).includes("user");
          if (c.roles[r.firstKept] !== "user" && userBefore) expect(r.isSplitTurn).toBe(true);
        } else {
          expect(valid.filter(keeps)).toEqual([]);
          expect(total >= c.keep || valid.length === 0).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("reports not-found instead of cutting after the budget index", () => {
    // user, assistant(call), tool, tool-heavy tail: the budget is met only inside the tool block
    const roles = ["user", "assistant", "tool", "tool"] as const;
    const callOf = [-1, -1, 1, 1];
    const lastAnswer = [-1, 3, -1, -1];
    const tokens = [5, 5, 100, 100];
    // keeping 150 tokens needs index 2 (a tool result) or earlier; index 1 is valid
    expect(findCutPoint([...roles], tokens, callOf, lastAnswer, 0, 4, 150)).toEqual({
      found: true,
      firstKept: 1,
      turnStart: 0,
      isSplitTurn: true,
    });
    // from start 2 there is no valid cut at all
    expect(findCutPoint([...roles], tokens, callOf, lastAnswer, 2, 4, 150).found).toBe(false);
  });
});
