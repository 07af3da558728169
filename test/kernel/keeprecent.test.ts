// Differential and ensures-as-predicates tests for the keep-recent selection (L7 with L4/L5).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keepRecentCutoff, keptPrefixEnd, selectKeepRecent, suffixTokens } from "../../src/kernel/keeprecent.ts";
import { sumTokens } from "../../src/kernel/progress.ts";
import { retentionCutoff } from "../../src/kernel/retention.ts";
import { type Stretch, selectStretchFrom } from "../../src/kernel/stretch.ts";
import * as ref from "../../src/reference/keeprecent.ts";
import { type Conversation, conversation, eligibleStretch, nat, RUNS } from "./gen.ts";

/** A conversation with token counts, a window, a start position and a budget. */
const krCase = conversation(24).chain((c: Conversation) =>
  fc
    .tuple(
      fc.array(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 50 }), weight: 5 }, { arbitrary: nat, weight: 1 }), {
        minLength: c.roles.length,
        maxLength: c.roles.length,
      }),
      fc.integer({ min: 1, max: 5 }),
      fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.nat(c.roles.length + 2), weight: 1 }),
      fc.oneof(fc.integer({ min: -5, max: 300 }), nat),
      fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined, freq: 2 }),
    )
    // half the budgets are a share of the history's tokens, where the budget most often shapes the choice
    .map(([tokens, window, from, keep, pct]) => {
      const total = tokens.reduce((a, b) => a + b, 0);
      return { ...c, tokens, window, from, keep: pct === undefined ? keep : Math.floor((total * pct) / 100) };
    }),
);
type Case = Conversation & { tokens: number[]; window: number; from: number; keep: number };

// The companion's predicates (proofs/dafny/stretch.dfy, proofs/dafny/keeprecent.dfy) as executable TypeScript (Eligible in gen.ts).
const eligible = eligibleStretch;
function keepsRecent(c: Case, cutoff: number, s: number, e: number): boolean {
  return eligible(c, cutoff, s, e) && sumTokens(c.tokens, e, c.tokens.length) >= c.keep;
}

function run(c: Case): Stretch {
  return selectKeepRecent(c.roles, c.tokens, c.callOf, c.lastAnswer, c.ongoing, c.window, c.from, c.keep);
}

/** Every ensures of selectKeepRecent, checked on one output. */
function checkEnsures(c: Case, r: Stretch): boolean {
  const n = c.roles.length;
  const cutoff = retentionCutoff(n, c.window);
  if (!r.found) {
    for (let s = c.from; s <= n; s++) for (let e = 0; e <= n; e++) if (keepsRecent(c, cutoff, s, e)) return false;
    return true;
  }
  if (!keepsRecent(c, cutoff, r.start, r.end) || r.start < c.from) return false;
  for (let e = r.end + 1; e <= n + 1; e++) if (keepsRecent(c, cutoff, r.start, e)) return false; // longest at its start
  for (let s = c.from; s < r.start; s++) for (let e = 0; e <= n; e++) if (keepsRecent(c, cutoff, s, e)) return false; // earliest
  if (!(0 <= r.start && r.start < r.end && r.end <= cutoff)) return false;
  if (sumTokens(c.tokens, r.end, n) < c.keep) return false; // L7 budget
  for (let k = r.start; k < r.end; k++) {
    if (c.roles[k] === "user" || c.roles[k] === "system" || c.roles[k] === "compaction" || c.ongoing[k]) return false;
    if (c.roles[k] === "tool" && c.callOf[k] < r.start) return false;
  }
  for (let k = 0; k < n; k++) if (c.callOf[k] >= r.start && c.callOf[k] < r.end && k >= r.end) return false;
  return true;
}

describe("keeprecent (L7 on L4/L5)", () => {
  it("selectKeepRecent agrees with the reference", () => {
    fc.assert(
      fc.property(krCase, (c) => {
        expect(run(c)).toEqual(
          ref.selectKeepRecent(c.roles, c.tokens, c.callOf, c.lastAnswer, c.ongoing, c.window, c.from, c.keep),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("selectKeepRecent ensures hold (keeps the budget, eligible, earliest, longest, none when not found, plain L5)", () => {
    let shortened = 0;
    fc.assert(
      fc.property(krCase, (c) => {
        const r = run(c);
        const sel = selectStretchFrom(c.roles, c.callOf, c.lastAnswer, c.ongoing, c.window, c.from);
        if (r.found && r.start === sel.start && r.end < sel.end) shortened++;
        return checkEnsures(c, r);
      }),
      { numRuns: RUNS },
    );
    // the budget shapes the choice often enough to mean something (moving on: next property)
    expect(shortened).toBeGreaterThan(RUNS / 50);
  });

  // assistant(call) assistant^m tool user^u: the start 0 keeps a budget only by taking the whole
  // call with its answer; a later start inside the call's span may keep a larger one.
  const spanCase = fc
    .tuple(
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 1, max: 3 }),
      fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 10, maxLength: 10 }),
      fc.integer({ min: 0, max: 100 }),
    )
    .map(([m, u, t, pct]): Case => {
      const n = m + 2 + u;
      const roles: Conversation["roles"] = [
        "assistant",
        ...Array<"assistant">(m).fill("assistant"),
        "tool",
        ...Array<"user">(u).fill("user"),
      ];
      const callOf = roles.map((_, i) => (i === m + 1 ? 0 : -1));
      const lastAnswer = roles.map((_, i) => (i === 0 ? m + 1 : -1));
      const tokens = t.slice(0, n);
      const total = tokens.reduce((a, b) => a + b, 0);
      return {
        roles,
        callOf,
        lastAnswer,
        ongoing: roles.map(() => false),
        tokens,
        window: 1,
        from: 0,
        keep: Math.floor((total * pct) / 100),
      };
    });
  it("moves on past a start that cannot keep the budget (ensures and reference on call-spanning shapes)", () => {
    let movedOn = 0;
    fc.assert(
      fc.property(spanCase, (c) => {
        const r = run(c);
        expect(r).toEqual(
          ref.selectKeepRecent(c.roles, c.tokens, c.callOf, c.lastAnswer, c.ongoing, c.window, c.from, c.keep),
        );
        if (r.found && r.start > 0) movedOn++;
        return checkEnsures(c, r);
      }),
      { numRuns: RUNS },
    );
    expect(movedOn).toBeGreaterThan(RUNS / 20);
  });

  it("keptPrefixEnd ensures hold on every maximal eligible stretch", () => {
    let inside = 0;
    fc.assert(
      fc.property(krCase, (c) => {
        const sel = selectStretchFrom(c.roles, c.callOf, c.lastAnswer, c.ongoing, c.window, c.from);
        if (!sel.found) return true;
        const cutoff = retentionCutoff(c.roles.length, c.window);
        const after = sumTokens(c.tokens, sel.start, c.tokens.length);
        const e = keptPrefixEnd(
          c.roles,
          c.tokens,
          c.callOf,
          c.lastAnswer,
          c.ongoing,
          cutoff,
          sel.start,
          sel.end,
          c.keep,
          after,
        );
        if (e > sel.start && e < sel.end) inside++;
        if (!(sel.start <= e && e <= sel.end)) return false;
        if (e > sel.start && !keepsRecent(c, cutoff, sel.start, e)) return false;
        for (let e2 = e + 1; e2 <= c.roles.length + 1; e2++) if (keepsRecent(c, cutoff, sel.start, e2)) return false;
        return true;
      }),
      { numRuns: RUNS },
    );
    expect(inside).toBeGreaterThan(RUNS / 50);
  });

  it("keepRecentCutoff agrees with the reference and its ensures", () => {
    const args = fc.tuple(fc.array(fc.nat(50), { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), fc.nat(400));
    fc.assert(
      fc.property(args, ([tokens, window, keep]) => {
        const got = keepRecentCutoff(tokens, window, keep);
        const cut = retentionCutoff(tokens.length, window);
        const n = tokens.length;
        let maximal = true;
        for (let c = got + 1; c <= cut; c++) if (sumTokens(tokens, c, n) >= keep) maximal = false;
        return (
          got === ref.keepRecentCutoff(tokens, window, keep) &&
          got >= 0 &&
          got <= cut &&
          (got === 0 || sumTokens(tokens, got, n) >= keep) &&
          maximal
        );
      }),
      { numRuns: RUNS },
    );
    // 10 tokens each, the last 2 messages kept by the window: a budget of 35 keeps 4 messages
    expect(keepRecentCutoff([10, 10, 10, 10, 10, 10, 10], 2, 35)).toBe(3);
    expect(keepRecentCutoff([10, 10, 10, 10, 10, 10, 10], 2, 0)).toBe(5);
    expect(keepRecentCutoff([10, 10], 1, 100)).toBe(0);
  });
  it("suffixTokens is sumTokens to the end", () => {
    fc.assert(
      fc.property(krCase, fc.nat(30), (c, f) => {
        const from = Math.min(f, c.tokens.length);
        expect(suffixTokens(c.tokens, from)).toBe(sumTokens(c.tokens, from, c.tokens.length));
      }),
      { numRuns: RUNS },
    );
  });

  it("a budget larger than the history costs one pass, not one per start", () => {
    // 100k messages alternating assistant/user: 50k eligible starts, none can keep the budget
    const n = 100_000;
    const roles = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "assistant" : "user") as "assistant" | "user");
    const none = new Array<number>(n).fill(-1);
    const t0 = performance.now();
    const r = selectKeepRecent(
      roles,
      new Array<number>(n).fill(1),
      none,
      none,
      new Array<boolean>(n).fill(false),
      1,
      0,
      n + 1,
    );
    expect(r.found).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500); // ~3 ms here; one pass per start took ~2 s
  });

  it("adversarial shapes", () => {
    const none: Stretch = { found: false, start: 0, end: 0 };
    // empty history
    expect(selectKeepRecent([], [], [], [], [], 1, 0, 10)).toEqual(none);
    // assistant(call, answered at 2) assistant tool user: [0, 3) is the selection; a budget of
    // 5 on the user message alone forbids it, and no prefix of it is coherent except none ...
    const roles = ["assistant", "assistant", "tool", "user"] as const;
    const callOf = [-1, -1, 0, -1];
    const lastAnswer = [2, -1, -1, -1];
    const ongoing = [false, false, false, false];
    expect(selectKeepRecent([...roles], [1, 1, 1, 5], callOf, lastAnswer, ongoing, 1, 0, 5)).toEqual({
      found: true,
      start: 0,
      end: 3,
    });
    // ... with a budget of 6 the start 0 cannot keep it (a cut at 1 or 2 splits the call from its
    // answer), but [1, 2) can: the search moves on instead of giving up
    expect(selectKeepRecent([...roles], [1, 1, 1, 5], callOf, lastAnswer, ongoing, 1, 0, 6)).toEqual({
      found: true,
      start: 1,
      end: 2,
    });
    // a budget larger than everything: nothing keeps it
    expect(selectKeepRecent([...roles], [1, 1, 1, 5], callOf, lastAnswer, ongoing, 1, 0, 9)).toEqual(none);
    // huge token counts (far below 2^53)
    expect(
      selectKeepRecent(["assistant", "user"], [2 ** 40, 2 ** 40], [-1, -1], [-1, -1], [false, false], 1, 0, 2 ** 40),
    ).toEqual({ found: true, start: 0, end: 1 });
  });
});
