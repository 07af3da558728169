// Background mode's steps under the hard trigger cost what the step added, not the history
// (issue 20, items 5 and 6): the step that starts a background run returns before the run reads
// or counts the conversation (that happens while the agent's model call is out), and the step
// that takes a run's result measures only the messages appended since the run began (the result's
// own messages are measured when the run ends, off the agent's path). Counted with a token
// counter that counts its calls.
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { BackgroundCompaction } from "../../src/engine/run/background.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { countingCounter } from "../support/counting-counter.ts";
import { openAIConversation } from "../support/generate.ts";
import { modelMessagesConversation } from "../support/generate-sdk.ts";

/** The offline summarizer, answering only once `open()` was called. */
function gatedSummarizer(): Summarizer & { open(): void } {
  const inner = offlineSummarizer(charCounter());
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  return {
    name: "gated",
    open,
    summarize: async (r: SummaryRequest) => {
      await gate;
      return inner.summarize(r);
    },
    summarizeBatch: async (r: BatchSummaryRequest) => {
      await gate;
      return inner.summarizeBatch!(r);
    },
  };
}

/** the most counts two appended messages take (an assistant message may read as a few engine messages) */
const ADDED = 6;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("compactBeforeStep in background mode: a step under the hard trigger", () => {
  it("counts only the messages it added, when it starts a run and when it takes the run's result", async () => {
    const all = modelMessagesConversation({ turns: 60 });
    const counter = countingCounter();
    const summarizer = gatedSummarizer();
    const reports: CompactionReport[] = [];
    // the soft threshold at about a third of the conversation, the hard one far above it
    const sizeOf = (ms: readonly ModelMessage[]) => Math.ceil(JSON.stringify(ms).length / 4);
    const soft = Math.round(sizeOf(all) / 3);
    const hook = compactBeforeStep(
      { tokenizer: "chars", strategy: "summarize", token_threshold: 10 * soft, soft_token_threshold: soft },
      { summarizer, counter, onReport: (r) => reports.push(r) },
    );
    // under the soft threshold: the first step measures every message (it has seen none)
    let n = 10;
    let messages = all.slice(0, n);
    expect(await hook({ messages })).toBeUndefined();
    // steps of two messages each until one starts a background run; each counts two messages
    let started = false;
    while (!started) {
      messages = [...messages, ...all.slice(n, n + 2)];
      n += 2;
      const before = counter.calls;
      expect(await hook({ messages })).toBeUndefined();
      expect(counter.calls - before).toBeLessThanOrEqual(ADDED);
      await pause(5); // the model call: a run started by the step reads the conversation meanwhile
      started = counter.calls - before > ADDED;
    }
    expect(n).toBeLessThan(all.length - 6);
    summarizer.open();
    while (reports.length === 0) await pause(5);
    expect(reports[0].stretches.length).toBeGreaterThan(0);
    await pause(5);
    // the next step takes the result, with the two messages appended after it: it counts those two
    messages = [...messages, ...all.slice(n, n + 2)];
    const before = counter.calls;
    const out = await hook({ messages });
    expect(out).toBeDefined();
    expect(out!.messages.length).toBeLessThan(messages.length);
    expect(counter.calls - before).toBeLessThanOrEqual(ADDED);
  });
});

describe("BackgroundCompaction: the check that starts a run", () => {
  it("returns before the run reads the store: what the agent appends right after it is in the run's start", async () => {
    const messages = readOpenAIMessages(openAIConversation({ turns: 30, seed: 5 }));
    const store = new ConversationStore(charCounter(), messages);
    const soft = Math.round(store.totalTokens / 2);
    const c = parseConfig({
      tokenizer: "chars",
      strategy: "summarize",
      token_threshold: 10 * soft,
      soft_token_threshold: soft,
    });
    const seen: number[] = [];
    const bg = new BackgroundCompaction(store, c, {
      summarizer: offlineSummarizer(charCounter()),
      hooks: { before: (info) => void seen.push(info.messages) },
    });
    const check = bg.beforeStep();
    // the agent goes on at once: its next message lands before the run begins
    store.append({ role: "user", content: "and one more thing" });
    expect(await check).toEqual({ waited: false, started: true });
    await bg.settle();
    expect(seen).toEqual([messages.length + 1]);
  });
});
