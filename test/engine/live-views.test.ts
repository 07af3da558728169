import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import {
  gatePairingAfterAppend,
  gatePairingOk,
  gateSelectStretchFrom,
  gateSplice,
} from "../../src/engine/boundary/kernel-gate.ts";
import { planStep } from "../../src/engine/run/plan.ts";
import { GapArray, NumberGapArray, plainSlice } from "../../src/engine/store/gap-array.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { appendToViews, kernelViews, liveViews, plainViews, spliceViews } from "../../src/engine/store/views.ts";
import { splice } from "../../src/kernel/splice.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { buildLateAnswers, step } from "../support/late-answers.ts";

// The store keeps the kernel views incrementally (append: O(log n); splice: O(stretch)) so a
// compaction step does not rebuild them from every message. These tests check that the kept
// views always equal the ones built from scratch, that planning on them (from the previous
// stretch's start) picks what planning from scratch picks, and that the gate still reports a
// Pairing violation.

function expectSameViews(store: ConversationStore): void {
  const v = store.view().views;
  const w = kernelViews(store.messages);
  expect({
    roles: v.roles,
    callOf: v.callOf,
    lastAnswer: v.lastAnswer,
    ongoing: v.ongoing,
    userTurns: v.userTurns,
  }).toEqual(w);
  expect(store.userTurns).toBe(w.userTurns);
}

describe("kernel views kept by the store", () => {
  it("equal the views built from scratch after appends, kernel-chosen splices and a caller's own splices, and plans agree", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 30 }),
        fc.nat(40),
        fc.array(fc.tuple(fc.nat(40), fc.nat(5)), { maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        (steps, cut, ownSplices, window) => {
          const msgs = buildLateAnswers(steps);
          const k = Math.min(cut, msgs.length);
          const store = new ConversationStore(charCounter(), msgs.slice(0, k));
          for (const m of msgs.slice(k)) store.append(m);
          expectSameViews(store);
          const c = parseConfig({ token_threshold: 1, retention_window: window, tokenizer: "chars" });
          let from = 0;
          for (let i = 0; i < 10; i++) {
            const view = store.view();
            const plan = planStep(view, c, from);
            // planning from the previous stretch's start picks what planning from 0 picks (L4 forward progress)
            expect(plan).toEqual(planStep(store.snapshot(), c, 0));
            if (plan.stretch === undefined) break;
            expect(
              store.commitSplice(view, plan.stretch.start, plan.stretch.end, summaryMessage(`s${i}`)).decision,
            ).toBe("commit");
            from = plan.stretch.start;
            expectSameViews(store);
          }
          for (const [a, len] of ownSplices) {
            const n = store.messages.length;
            if (n === 0) break;
            const s = a % n;
            const e = Math.min(n, s + 1 + len);
            store.commitSplice(store.snapshot(), s, e, summaryMessage("own"));
            expectSameViews(store);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("stay right when messages are appended while a step is summarized (rebase)", () => {
    const msgs = buildLateAnswers([
      "user",
      { calls: 2, delay: 0 },
      "text",
      "text",
      "user",
      { calls: 1, delay: 9 },
      "text",
      "text",
      "user",
      "text",
    ]);
    const store = new ConversationStore(charCounter(), msgs);
    const c = parseConfig({ token_threshold: 1, retention_window: 2, tokenizer: "chars" });
    const view = store.view();
    const plan = planStep(view, c);
    expect(plan.stretch).toBeDefined();
    store.append({ role: "tool", toolCallId: "c2", content: "late" });
    store.append({ role: "user", content: "more" });
    const { start, end } = plan.stretch ?? { start: 0, end: 0 };
    expect(store.commitSplice(view, start, end, summaryMessage("s")).decision).toBe("rebase");
    expectSameViews(store);
  });
});

describe("plain copies of live views (the full Pairing check reads these)", () => {
  it("equal the views built from scratch, before any splice (ordinals are positions) and after kernel-chosen splices (they are not)", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (steps, window) => {
        let current: Message[] = buildLateAnswers(steps);
        const v = liveViews(current);
        expect(plainViews(v)).toEqual(kernelViews(current));
        for (let i = 0; i < 10; i++) {
          const st = gateSelectStretchFrom(kernelViews(current), window, 0);
          if (st.start === st.end) break;
          spliceViews(v, st.start, st.end);
          current = splice(current, st.start, st.end, summaryMessage(`s${i}`));
          expect(plainViews(v)).toEqual(kernelViews(current));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("the gate on live views", () => {
  it("splices in place exactly as the kernel's splice, splice after splice, with appends between", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(30), fc.nat(30), fc.nat(3)), { maxLength: 8 }),
        (xs, edits) => {
          // splices anywhere (forward, backward, at the ends) move the gap every way
          let expected = xs.slice();
          const gap = new GapArray(xs.slice());
          for (const [a, b, appends] of edits) {
            const start = a % expected.length;
            const end = start + 1 + (b % (expected.length - start));
            gateSplice(gap.view(), start, end);
            gap.replace(start, end, -1);
            expected = splice(expected, start, end, -1);
            for (let k = 0; k < appends; k++) {
              gap.push(100 + k);
              expected.push(100 + k);
            }
            expect(gap.slice()).toEqual(expected);
            expect(gap.view()).toEqual(expected);
            expect([...gap.view()]).toEqual(expected);
            expect(gap.view().slice(1, 3)).toEqual(expected.slice(1, 3));
            expect(Object.keys(gap.view())).toEqual(Object.keys(expected));
            expect(gap.view()[expected.length]).toBeUndefined();
            // closing the gap (for a reader of every entry) changes nothing the later edits see
            if (appends === 2) expect(gap.flat()).toEqual(expected);
          }
        },
      ),
    );
  });

  it("keeps numbers in a typed gap buffer exactly as a plain array would, through splices, appends and growth", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 2 ** 40 }), { maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(30), fc.nat(30), fc.nat(20), fc.nat(30)), { maxLength: 8 }),
        (xs, edits) => {
          // NumberGapArray (the views' ordinals, codes and counts): splices anywhere, appends past
          // its capacity of 16 (so the buffer grows with the gap open), and sets at any index
          let expected = xs.slice();
          const gap = new NumberGapArray(xs.length);
          xs.forEach((x, i) => gap.set(i, x));
          for (const [a, b, appends, at] of edits) {
            if (expected.length > 0) {
              const start = a % expected.length;
              const end = start + 1 + (b % (expected.length - start));
              gap.replace(start, end, -1);
              expected = splice(expected, start, end, -1);
            }
            for (let k = 0; k < appends; k++) {
              gap.push(1000 + k);
              expected.push(1000 + k);
            }
            if (expected.length > 0) {
              gap.set(at % expected.length, 7);
              expected[at % expected.length] = 7;
            }
            expect(gap.length).toBe(expected.length);
            expect(gap.slice()).toEqual(expected);
            expect(gap.view()).toEqual(expected);
            expect(gap.slice(1, 3)).toEqual(expected.slice(1, 3));
            // a view's stretch read from its source (what the planner gives rangeTokens), a plain
            // array's the same way; a negative bound is 0
            for (const [from, to] of [
              [1, 3],
              [-2, 2],
              [0, expected.length + 2],
              [3, 1],
            ])
              for (const xs of [gap.view(), expected])
                expect(plainSlice(xs, from, to)).toEqual(expected.slice(Math.max(0, from), to));
          }
        },
      ),
    );
  });

  it("hands out views that show later changes and refuse writes", () => {
    const store = new ConversationStore(charCounter(), [{ role: "user", content: "u" }]);
    const seen = store.messages;
    store.append({ role: "user", content: "v" });
    expect(seen.map((m) => m.content)).toEqual(["u", "v"]);
    expect(() => {
      (seen as Message[])[0] = { role: "user", content: "w" };
    }).toThrow(TypeError);
    expect(() => (seen as Message[]).push({ role: "user", content: "w" })).toThrow(TypeError);
    expect(store.messages.length).toBe(2);
  });

  it("still reports a Pairing violation introduced by an append to checked views", () => {
    const v = liveViews([
      { role: "user", content: "u" },
      { role: "assistant", content: "", toolCalls: [{ id: "a", name: "f", arguments: "{}" }] },
    ]);
    // what the store does: check in full once, then at each append the entries it changed
    v.paired = gatePairingOk(plainViews(v));
    expect(v.paired).toBe(true);
    expect(gateSelectStretchFrom(v, 1, 0).found).toBe(false);
    // an orphan result (the store refuses one; here the views are fed directly)
    const answered = appendToViews(v, { role: "tool", toolCallId: "nope", content: "r" });
    v.paired = gatePairingAfterAppend(v, v.roles.length - 1, answered);
    expect(v.paired).toBe(false);
    expect(() => gateSelectStretchFrom(v, 1, 0)).toThrow(KernelBoundaryError);
  });

  it("the gate trusts views only as far as their owner vouches: unvouched views are checked in full", () => {
    const v = liveViews([
      { role: "user", content: "u" },
      { role: "tool", toolCallId: "nope", content: "r" },
    ]);
    expect(v.paired).toBe(false);
    expect(() => gateSelectStretchFrom(v, 1, 0)).toThrow("selectStretchFrom requires Pairing");
  });
});
