// A background run splits its batch across batch_calls concurrent summarizer calls (issue 20,
// items 3 and 5): the agent waits on a background run only when the hard trigger fires while it is
// in flight, so the run's time to commit is what matters; one call for the whole batch writes
// every summary in sequence (bench:background, strategy summarize: 174 s of waiting against 63 s
// with the batch split in four, for 12% more calls). Counted with a summarizer that records how
// many of its calls are in flight at once.
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { BackgroundCompaction } from "../../src/engine/run/background.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { expectLawsHold } from "../support/laws.ts";

/** The offline summarizer answering after 30 ms, recording the most calls in flight at once. */
function concurrencyRecorder(): Summarizer & { calls: number; most: number } {
  const inner = offlineSummarizer(charCounter());
  let now = 0;
  const s = {
    name: "recorder",
    calls: 0,
    most: 0,
    async around<T>(f: () => Promise<T>): Promise<T> {
      s.calls++;
      s.most = Math.max(s.most, ++now);
      try {
        await new Promise((r) => setTimeout(r, 30));
        return await f();
      } finally {
        now--;
      }
    },
    summarize: (r: SummaryRequest) => s.around(() => inner.summarize(r)),
    summarizeBatch: (r: BatchSummaryRequest) =>
      s.around(async () => {
        const batch = inner.summarizeBatch;
        if (batch === undefined) throw new Error("the offline summarizer summarizes batches");
        return batch(r);
      }),
  };
  return s;
}

describe("a background run's batch", () => {
  it("goes out as up to batch_calls concurrent calls, where one call per batch_tokens would be one", async () => {
    const messages = readOpenAIMessages(openAIConversation({ turns: 40, seed: 3 }));
    const store = new ConversationStore(charCounter(), messages);
    const soft = Math.round(store.totalTokens * 0.8);
    // the stretches a run at the soft threshold needs fit in one call of batch_tokens
    expect(soft).toBeLessThan(40_000);
    const c = parseConfig({
      tokenizer: "chars",
      strategy: "summarize",
      token_threshold: 10 * soft,
      soft_token_threshold: soft,
      batch_tokens: 40_000,
      batch_calls: 4,
    });
    const summarizer = concurrencyRecorder();
    const bg = new BackgroundCompaction(store, c, { summarizer });
    expect(await bg.beforeStep()).toEqual({ waited: false, started: true });
    await bg.settle();
    expect(store.totalTokens).toBeLessThan(soft);
    expect(summarizer.most).toBeGreaterThan(1);
    expect(summarizer.most).toBeLessThanOrEqual(4);
    expectLawsHold(messages, store.messageList(), c.retention_window);
  });
});
