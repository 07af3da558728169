import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { batchFreed, planBatch, planFreed } from "../../src/kernel/batch.ts";
import { sumTokens } from "../../src/kernel/progress.ts";
import { retentionCutoff } from "../../src/kernel/retention.ts";
import * as ref from "../../src/reference/batch.ts";
import { worthACall } from "../../src/reference/floor.ts";
import { selectStretchFrom } from "../../src/reference/stretch.ts";
import { afterSplice, type Conversation, conversation, eligibleStretch, RUNS } from "./gen.ts";

interface Case {
  c: Conversation;
  tokens: number[];
  window: number;
  floor: number;
  starts: number[];
  ends: number[];
  need: number;
  allowance: number;
  keep: number;
}

const cases: fc.Arbitrary<Case> = conversation().chain((c) => {
  const n = c.roles.length;
  return fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 60 }), { minLength: n, maxLength: n }),
      fc.integer({ min: 1, max: 5 }),
      fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 80 })),
      fc.array(fc.tuple(fc.nat(n), fc.nat(n + 1)), { maxLength: 4 }),
      fc.integer({ min: -10, max: 600 }),
      fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 40 })),
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
    )
    .map(([tokens, window, floor, recs, need, allowance, keep]) => ({
      c,
      tokens,
      window,
      floor,
      starts: recs.map((r) => r[0]),
      ends: recs.map((r) => r[1]),
      need,
      allowance,
      keep,
    }));
});

/** planBatch's arguments for a case, in order. */
const args = (x: Case) =>
  [
    x.c.roles,
    x.c.callOf,
    x.c.lastAnswer,
    x.c.ongoing,
    x.window,
    x.tokens,
    x.floor,
    x.starts,
    x.ends,
    x.need,
    x.allowance,
    x.keep,
  ] as const;
const plan = (x: Case) => planBatch(...args(x));

describe("batch plan", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(cases, (x) => {
        const want = ref.planBatch(...args(x));
        expect(plan(x)).toEqual(want);
      }),
      { numRuns: RUNS },
    );
  });
  it("ensures hold: eligible, worth a call, disjoint and ascending, no more than needed", () => {
    fc.assert(
      fc.property(cases, (x) => {
        const p = plan(x);
        const cutoff = retentionCutoff(x.c.roles.length, x.window);
        expect(p.length % 2).toBe(0);
        for (let k = 0; 2 * k + 1 < p.length; k++) {
          const [s, e] = [p[2 * k], p[2 * k + 1]];
          expect(eligibleStretch(x.c, cutoff, s, e)).toBe(true);
          expect(sumTokens(x.tokens, s, e)).toBeGreaterThan(x.floor);
          expect(x.starts.some((a, j) => a === s && x.ends[j] === e)).toBe(false);
          if (2 * k + 3 < p.length) expect(e).toBeLessThanOrEqual(p[2 * k + 2]);
          expect(batchFreed(x.tokens, p, x.allowance, x.keep, k)).toBeLessThan(x.need);
          expect(batchFreed(x.tokens, p, x.allowance, x.keep, k)).toBe(
            ref.batchFreed(x.tokens, p, x.allowance, x.keep, k),
          );
        }
        // the lower bound (NoneWorthFrom): short of the need only when the scan from the last planned
        // end, passing over stretches not worth a call, finds none that is
        if (batchFreed(x.tokens, p, x.allowance, x.keep, p.length / 2) < x.need) {
          let from = p.length === 0 ? 0 : p[p.length - 1];
          for (;;) {
            const st = selectStretchFrom(x.c.roles, x.c.callOf, x.c.lastAnswer, x.c.ongoing, x.window, from);
            if (!st.found) break;
            expect(worthACall(x.tokens, st.start, st.end, x.floor, x.starts, x.ends)).toBe(false);
            from = st.end;
          }
        }
        // what the whole plan is expected to free: the kernel's planFreed, as the reference counts it
        expect(planFreed(x.tokens, p, Math.max(0, x.allowance), x.keep)).toBe(
          ref.planFreed(x.tokens, p, Math.max(0, x.allowance), x.keep),
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("each planned stretch is still eligible when the ones before it are committed in order", () => {
    fc.assert(
      fc.property(cases, (x) => {
        let c = x.c;
        let moved = 0;
        const p = plan(x);
        for (let k = 0; 2 * k + 1 < p.length; k++) {
          const [s, e] = [p[2 * k] - moved, p[2 * k + 1] - moved];
          expect(eligibleStretch(c, retentionCutoff(c.roles.length, x.window), s, e)).toBe(true);
          c = afterSplice(c, s, e);
          moved += e - s - 1;
        }
      }),
      { numRuns: RUNS },
    );
  });
  it("passes over a stretch under the floor or known not to shrink, and stops once the need is met", () => {
    const c: Conversation = {
      roles: ["user", "assistant", "user", "assistant", "assistant", "user", "assistant", "user", "assistant"],
      callOf: [-1, -1, -1, -1, -1, -1, -1, -1, -1],
      lastAnswer: [-1, -1, -1, -1, -1, -1, -1, -1, -1],
      ongoing: [false, false, false, false, false, false, false, false, false],
    };
    const tokens = [10, 7, 10, 900, 800, 10, 1200, 10, 50];
    const args = [c.roles, c.callOf, c.lastAnswer, c.ongoing, 1] as const;
    // "Hello! 👋" at 1 (7 tokens) is under the floor; [3, 5) and [6, 7) are planned
    expect(planBatch(...args, tokens, 64, [], [], 10_000, 100, 0)).toEqual([3, 5, 6, 7]);
    // [3, 5) alone frees the need
    expect(planBatch(...args, tokens, 64, [], [], 1_000, 100, 0)).toEqual([3, 5]);
    // [3, 5) recorded as not shrinkable: passed over whole (as the engine's planStep does), not
    // retried from its next message as [4, 5); the scan goes on after it, to [6, 7)
    expect(planBatch(...args, tokens, 64, [3], [5], 1_000, 100, 0)).toEqual([6, 7]);
    // nothing worth a call: an empty plan
    expect(planBatch(...args, tokens, 5_000, [], [], 1_000, 100, 0)).toEqual([]);
  });
  it("counts each stretch as keeping its allowance and its expected share, so it plans enough to meet the need", () => {
    const c: Conversation = {
      roles: ["user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant"],
      callOf: [-1, -1, -1, -1, -1, -1, -1, -1],
      lastAnswer: [-1, -1, -1, -1, -1, -1, -1, -1],
      ongoing: [false, false, false, false, false, false, false, false],
    };
    const tokens = [10, 1000, 10, 1000, 10, 1000, 10, 50];
    const args = [c.roles, c.callOf, c.lastAnswer, c.ongoing, 1, tokens, 64, [], []] as const;
    // a need of 1,800: two stretches of 1,000 free 2 * (1000 - 40) = 1,920 when summaries keep 40
    expect(planBatch(...args, 1_800, 40, 0)).toEqual([1, 2, 3, 4]);
    // summaries keeping 40 + 10% (100) of each: two free 1,720, short of the need; a third is planned
    expect(planBatch(...args, 1_800, 40, 10)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batchFreed(tokens, [1, 2, 3, 4], 40, 10, 2)).toBe(1_720);
    expect(planFreed(tokens, [1, 2, 3, 4, 5, 6], 40, 10)).toBe(2_580);
  });
  it("planFreed agrees with the reference on any ascending plan within the tokens", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(500), { maxLength: 30 }).chain((t) =>
          fc.tuple(
            fc.constant(t),
            fc.array(fc.nat(t.length), { maxLength: 12 }).map((cuts) => [...cuts].sort((a, b) => a - b)),
            fc.nat(100),
            fc.nat(100),
          ),
        ),
        ([t, p, allowance, keep]) => {
          expect(planFreed(t, p, allowance, keep)).toBe(ref.planFreed(t, p, allowance, keep));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
