// The offline summarizer, recording every request it is given: for tests that count summarizer calls.
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

/** The offline summarizer (character counts), its requests recorded in `requests`. */
export function counting(): Summarizer & { requests: SummaryRequest[] } {
  const inner = offlineSummarizer(charCounter());
  const requests: SummaryRequest[] = [];
  return {
    name: "counting",
    requests,
    summarize: (r) => {
      requests.push(r);
      return inner.summarize(r);
    },
  };
}
