import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as k from "../../src/kernel/clearing.ts";
import type { TriggerKind } from "../../src/kernel/trigger.ts";
import * as ref from "../../src/reference/clearing.ts";
import { type Conversation, conversation, nat, RUNS } from "./gen.ts";

/** A conversation with everything the clearing tier reads, placeholders mostly shorter than the results. */
const clearingCase = conversation(30).chain((c: Conversation) => {
  const n = c.roles.length;
  const flags = (p: number) =>
    fc.array(
      fc.integer({ min: 0, max: 99 }).map((x) => x < p),
      { minLength: n, maxLength: n },
    );
  return fc.record({
    c: fc.constant(c),
    cleared: flags(15),
    excluded: flags(10),
    tokens: fc.array(fc.oneof(fc.nat(60), nat), { minLength: n, maxLength: n }),
    shrink: fc.array(fc.integer({ min: -3, max: 40 }), { minLength: n, maxLength: n }),
    window: fc.integer({ min: 1, max: 8 }),
    keep: fc.nat(5),
    goal: fc.oneof(fc.nat(200), nat),
    clearAtLeast: fc.oneof(fc.constant(0), fc.nat(120)),
    due: fc.constantFrom<TriggerKind>("threshold", "window", "notDue"),
  });
});

type Case = typeof clearingCase extends fc.Arbitrary<infer T> ? T : never;
const afterOf = (x: Case) => x.tokens.map((t, i) => Math.max(0, t - x.shrink[i]));
const args = (x: Case) =>
  [x.c.roles, x.c.callOf, x.c.ongoing, x.cleared, x.excluded, x.tokens, afterOf(x), x.window, x.keep] as const;
const select = (f: typeof k.selectClearing, x: Case) => f(...args(x), x.goal, x.clearAtLeast, x.due);

describe("clearing (L13)", () => {
  it("selectClearing, keptCutoff, currentStep and mayClear agree with the reference", () => {
    fc.assert(
      fc.property(clearingCase, (x) => {
        expect(select(k.selectClearing, x)).toEqual(select(ref.selectClearing, x));
        expect(k.keptCutoff(x.c.roles, x.keep)).toBe(ref.keptCutoff(x.c.roles, x.keep));
        expect(k.currentStep(x.c.roles)).toBe(ref.currentStep(x.c.roles));
        for (let i = 0; i < x.c.roles.length; i++) {
          expect(k.mayClear(...args(x), i)).toBe(ref.mayClear(...args(x), i));
          expect(k.countTools(x.c.roles, i, x.c.roles.length)).toBe(ref.countTools(x.c.roles, i, x.c.roles.length));
        }
        for (let b = 0; b <= x.c.roles.length; b++) {
          expect(k.greedyFreed(...args(x), x.goal, b)).toBe(ref.greedyFreed(...args(x), x.goal, b));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("selectClearing ensures: only old finished tool results, at least clear_at_least or nothing, greedy up to the goal", () => {
    fc.assert(
      fc.property(clearingCase, (x) => {
        const mask = select(k.selectClearing, x);
        const after = afterOf(x);
        const n = x.c.roles.length;
        const freed = ref.freedBy(x.tokens, after, mask, n);
        const step = x.c.roles.lastIndexOf("assistant");
        for (let i = 0; i < n; i++) {
          if (!mask[i]) continue;
          if (x.due === "notDue" || x.c.roles[i] !== "tool" || i >= n - x.window) return false;
          if (x.c.callOf[i] >= step || x.c.ongoing[x.c.callOf[i]] || x.cleared[i] || x.excluded[i]) return false;
          if (x.c.roles.slice(i + 1).filter((r) => r === "tool").length < x.keep) return false;
          if (ref.freedBy(x.tokens, after, mask, i) >= x.goal || after[i] >= x.tokens[i]) return false;
        }
        if (freed !== 0 && freed < x.clearAtLeast) return false;
        // the lower bound: nothing is cleared only when the oldest-first scan frees less than clear_at_least
        const greedy = ref.greedyFreed(...args(x), x.goal, n);
        if (x.due !== "notDue" && greedy >= x.clearAtLeast && freed !== greedy) return false;
        if (freed > 0) {
          for (let i = 0; i < n; i++) {
            const may = ref.mayClear(...args(x), i);
            if (may && ref.freedBy(x.tokens, after, mask, i) < x.goal && !mask[i]) return false;
          }
        }
        return true;
      }),
      { numRuns: RUNS },
    );
  });

  it("byteWeightsAfter agrees with the reference, and a byte-goal selection clears only results that shrink in tokens too", () => {
    fc.assert(
      fc.property(
        clearingCase.chain((x) =>
          fc.tuple(
            fc.constant(x),
            fc.array(fc.nat(400), { minLength: x.tokens.length, maxLength: x.tokens.length }),
            fc.array(fc.integer({ min: -3, max: 60 }), { minLength: x.tokens.length, maxLength: x.tokens.length }),
          ),
        ),
        ([x, bytes, shed]) => {
          const after = afterOf(x);
          const afterBytes = bytes.map((b, i) => Math.max(0, b - shed[i]));
          const w = k.byteWeightsAfter(x.tokens, after, bytes, afterBytes);
          expect(w).toEqual(ref.byteWeightsAfter(x.tokens, after, bytes, afterBytes));
          const mask = k.selectClearing(
            x.c.roles,
            x.c.callOf,
            x.c.ongoing,
            x.cleared,
            x.excluded,
            bytes,
            w,
            x.window,
            x.keep,
            x.goal,
            x.clearAtLeast,
            x.due,
          );
          mask.forEach((m, i) => {
            if (m) expect(after[i] < x.tokens[i] && afterBytes[i] < bytes[i]).toBe(true);
          });
          return true;
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("clearing replaces the marked entries in place and lowers the total by exactly what was freed", () => {
    fc.assert(
      fc.property(clearingCase, fc.boolean(), (x, clearInputs) => {
        const mask = select(k.selectClearing, x);
        const after = afterOf(x);
        const counts = k.clearedTokens(x.tokens, after, mask);
        expect(counts).toEqual(ref.clearedTokens(x.tokens, after, mask));
        const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
        const freed = ref.freedBy(x.tokens, after, mask, mask.length);
        expect(sum(counts)).toBe(sum(x.tokens) - freed);
        if (mask.includes(true)) expect(sum(counts)).toBeLessThan(sum(x.tokens));
        const ids = x.c.roles.map((_, i) => `m${i}`);
        const replaced = ids.map((id) => `${id}:cleared`);
        const out = k.applyClearing(ids, mask, replaced);
        expect(out).toEqual(ref.applyClearing(ids, mask, replaced));
        expect(out.length).toBe(ids.length);
        for (let i = 0; i < ids.length; i++) expect(out[i]).toBe(mask[i] ? replaced[i] : ids[i]);
        const calls = k.callsToClear(x.c.callOf, mask, clearInputs);
        expect(calls).toEqual(ref.callsToClear(x.c.callOf, mask, clearInputs));
        for (let j = 0; j < calls.length; j++) {
          const some = mask.some((m, i) => m && x.c.callOf[i] === j);
          expect(calls[j]).toBe(clearInputs && some);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("keeps the current step, the kept tail and results already cleared", () => {
    // user, assistant(call a), tool a, assistant(call b), tool b, assistant(call c), tool c
    const roles = ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"] as const;
    const callOf = [-1, -1, 1, -1, 3, -1, 5];
    const no = roles.map(() => false);
    const tokens = roles.map(() => 100);
    const after = roles.map(() => 5);
    const sel = (keep: number, cleared = no, window = 1) =>
      k.selectClearing([...roles], callOf, no, cleared, no, tokens, after, window, keep, 10_000, 0, "threshold");
    // tool c answers the last assistant message (the current step): never cleared.
    expect(sel(0)).toEqual([false, false, true, false, true, false, false]);
    // keep counts the newest tool uses, the current step's included: keep 1 keeps only tool c.
    expect(sel(1)).toEqual([false, false, true, false, true, false, false]);
    expect(sel(2)).toEqual([false, false, true, false, false, false, false]);
    expect(sel(3)).toEqual(no);
    expect(sel(0, [false, false, true, false, false, false, false])).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(sel(0, no, 4)).toEqual([false, false, true, false, false, false, false]);
    // clear_at_least 200 needs both results: 190 freed is not enough, so nothing.
    const atLeast = (n: number) =>
      k.selectClearing([...roles], callOf, no, no, no, tokens, after, 1, 0, 10_000, n, "window");
    expect(atLeast(190)).toEqual([false, false, true, false, true, false, false]);
    expect(atLeast(191)).toEqual(no);
  });
});
