// compactBeforeStep's per-step check (issue 20, item 6): a step that is not due costs the messages
// added since the last step, not the history; the due tracker's counts equal a fresh read's after
// any sequence of appends, replacements and removals, and the kernel makes the decision.
import type { ModelMessage } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readModelMessages } from "../../src/adapters/ai-sdk.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { DueTracker } from "../../src/engine/run/due-tracker.ts";
import { dueBy, storeDueBy } from "../../src/engine/run/plan.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactBeforeStep, modelMessageMeasurer } from "../../src/library/ai-sdk.ts";
import { InputError } from "../../src/model/errors.ts";
import { DEFAULT_SUMMARY_TAG } from "../../src/model/settings-table.ts";
import { charCounter, type TokenCounter } from "../../src/model/tokens.ts";
import { modelMessagesConversation } from "../support/generate-sdk.ts";

/** The character heuristic, counting how many texts it was asked to count. */
function countingCounter(): TokenCounter & { calls: number } {
  const chars = charCounter();
  const c = {
    name: "chars" as const,
    calls: 0,
    count(text: string) {
      c.calls++;
      return chars.count(text);
    },
  };
  return c;
}

/** One agent step's new messages: an assistant calling a tool and its result. */
function stepMessages(k: number): ModelMessage[] {
  return [
    { role: "assistant", content: [{ type: "tool-call", toolCallId: `step-${k}`, toolName: "ls", input: {} }] },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: `step-${k}`, toolName: "ls", output: { type: "text", value: "a.ts" } },
      ],
    },
  ];
}

describe("compactBeforeStep's check before each step", () => {
  it("counts only the messages added since the last step while compaction is not due", async () => {
    const counter = countingCounter();
    const hook = compactBeforeStep({ token_threshold: 10_000_000 }, { counter });
    let messages = modelMessagesConversation({ turns: 180, seed: 3 });
    expect(messages.length).toBeGreaterThan(1000);
    expect(await hook({ messages })).toBeUndefined();
    const perStep: number[] = [];
    for (let k = 0; k < 20; k++) {
      messages = [...messages, ...stepMessages(k)]; // the AI SDK gives each step a new array
      const before = counter.calls;
      expect(await hook({ messages })).toBeUndefined();
      perStep.push(counter.calls - before);
    }
    // two new messages, each one engine message: two texts counted per step (before: every message's)
    expect(perStep).toEqual(new Array(20).fill(2));
  });

  it("counts everything again after the agent replaced a message, and still compacts when due", async () => {
    const counter = countingCounter();
    const messages = modelMessagesConversation({ turns: 30, seed: 4 });
    const total = readModelMessages(messages).messages.length;
    const reports: string[] = [];
    const hook = compactBeforeStep(
      { token_threshold: 10_000_000 },
      { counter, onReport: (r) => reports.push(r.outcome) },
    );
    await hook({ messages });
    const replaced = [...messages];
    replaced[5] = { ...messages[5] } as ModelMessage; // the same content in a new object
    const before = counter.calls;
    await hook({ messages: replaced });
    expect(counter.calls - before).toBe(total);
    expect(reports).toEqual([]); // never due: no run at all
    // the same history under a trigger it passes: the run happens and compacts
    const due = compactBeforeStep({ token_threshold: 2000 }, { onReport: (r) => reports.push(r.outcome) });
    const out = await due({ messages: replaced });
    expect(reports[0]).toMatch(/^compacted/);
    expect(out?.messages.length).toBeLessThan(replaced.length);
  });

  it("refuses a broken tool pairing with the full read's error", async () => {
    const hook = compactBeforeStep({ token_threshold: 10_000_000 });
    const messages = modelMessagesConversation({ turns: 3, seed: 5 });
    await hook({ messages });
    const orphan: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "nobody", toolName: "ls", output: { type: "text", value: "" } }],
    };
    const broken = [...messages, orphan];
    const full = (() => {
      try {
        readModelMessages(broken);
      } catch (e) {
        return e;
      }
    })();
    expect(full).toBeInstanceOf(InputError);
    await expect(hook({ messages: broken })).rejects.toThrow((full as Error).message);
  });
});

describe("the due tracker against a fresh read", () => {
  // edits an agent may make between two steps, over a pool of generated messages
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("append" as const), n: fc.integer({ min: 0, max: 12 }) }),
    fc.record({ kind: fc.constant("clone" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("user" as const), at: fc.nat(), text: fc.string({ maxLength: 200 }) }),
    fc.record({ kind: fc.constant("drop" as const), n: fc.integer({ min: 1, max: 6 }) }),
  );

  it("judges every list as a fresh store of the same messages does", () => {
    const pool = modelMessagesConversation({ turns: 25, seed: 9 });
    const c = parseConfig({ token_threshold: 3000, message_threshold: 60, turn_threshold: 8 });
    let checked = 0;
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 25 }), (edits) => {
        const tracker = new DueTracker<ModelMessage>(c, modelMessageMeasurer(charCounter(), DEFAULT_SUMMARY_TAG));
        let list: ModelMessage[] = [];
        let next = 0;
        for (const e of edits) {
          if (e.kind === "append") {
            list = [...list, ...pool.slice(next, next + e.n)];
            next = Math.min(pool.length, next + e.n);
          } else if (e.kind === "clone" && list.length > 0) {
            list = list.map((m, i) => (i === e.at % list.length ? ({ ...m } as ModelMessage) : m));
          } else if (e.kind === "user" && list.length > 0) {
            list = list.map((m, i) => (i === e.at % list.length ? { role: "user", content: e.text } : m));
          } else if (e.kind === "drop") list = list.slice(0, Math.max(0, list.length - e.n));
          const got = tracker.check(list);
          let fresh: ConversationStore | undefined;
          try {
            fresh = new ConversationStore(charCounter(), readModelMessages(list).messages);
          } catch {
            fresh = undefined;
          }
          if (fresh === undefined) {
            expect(got).toBeUndefined(); // a pairing problem: left to the full read, which names it
            continue;
          }
          checked++;
          expect(tracker.counts).toEqual({
            tokens: fresh.totalTokens,
            items: list.length,
            userTurns: fresh.userTurns,
            bytes: fresh.totalBytes,
          });
          expect(got).toBe(dueBy(c, fresh.totalTokens, list.length, fresh.userTurns));
        }
      }),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(500);
  });
});

describe("a store's check before each step", () => {
  it("counts only the appended message, and decides as a run over the store would", async () => {
    const counter = countingCounter();
    const c = parseConfig({ token_threshold: 5000 });
    const messages = readModelMessages(modelMessagesConversation({ turns: 40, seed: 6 })).messages;
    const store = new ConversationStore(counter, messages.slice(0, 10));
    let fired = 0;
    for (const m of messages.slice(10)) {
      const before = counter.calls;
      store.append(m);
      const due = storeDueBy(store, c);
      expect(counter.calls - before).toBe(1);
      expect(due).toBe(
        dueBy(
          c,
          new ConversationStore(charCounter(), store.messageList()).totalTokens,
          store.messages.length,
          store.userTurns,
        ),
      );
      if (due !== "none") fired++;
    }
    expect(fired).toBeGreaterThan(0); // the trigger was passed on the way
  });
});
