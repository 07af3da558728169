// A summarizer for tests that answers each stretch with `answer(request)` (a batch call: each
// part's), recording every single and batch request it was given.
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";

/** The summarizer and the requests it has seen so far, single and batch. */
export function recordingSummarizer(answer: (r: SummaryRequest) => string): {
  summarizer: Summarizer;
  calls: { single: SummaryRequest[]; batch: BatchSummaryRequest[] };
} {
  const calls = { single: [] as SummaryRequest[], batch: [] as BatchSummaryRequest[] };
  const summarizer: Summarizer = {
    name: "recording",
    summarize: async (r) => {
      calls.single.push(r);
      return answer(r);
    },
    summarizeBatch: async (r) => {
      calls.batch.push(r);
      return r.parts.map(answer);
    },
  };
  return { summarizer, calls };
}
