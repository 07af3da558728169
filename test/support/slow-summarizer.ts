// The offline summarizer answering after a delay (a model's latency), counting its calls: for
// tests of compaction running while an agent goes on.
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

/** The offline summarizer (character counts) answering each call, single or batch, after `delayMs`. */
export function slowSummarizer(delayMs: number): Summarizer & { calls: number } {
  const inner = offlineSummarizer(charCounter());
  const pause = () => new Promise((r) => setTimeout(r, delayMs));
  const s = {
    name: "slow",
    calls: 0,
    summarize: async (r: SummaryRequest) => {
      s.calls++;
      await pause();
      return inner.summarize(r);
    },
    summarizeBatch: async (r: BatchSummaryRequest) => {
      s.calls++;
      await pause();
      const batch = inner.summarizeBatch;
      if (batch === undefined) throw new Error("the offline summarizer summarizes batches");
      return batch(r);
    },
  };
  return s;
}
