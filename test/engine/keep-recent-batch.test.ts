// One planner for every configuration (issue 31, part 3): with keep_recent_tokens set, a run
// plans batches and ages summaries as any other does, its work stretches all ending before the
// kernel's keep-recent cutoff (keepRecentCutoff), so the newest keep_recent_tokens stay (L7).
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { expectLawsHold } from "../support/laws.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";
import { summaryHistory, summaryText } from "../support/summary-history.ts";

const counter = charCounter();
const input = readOpenAIMessages(openAIConversation({ turns: 30 }));
const config = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 20_000,
  target_percent: 50,
  keep_recent_tokens: 3_000,
};

/** The tokens of the messages after the last one a stretch of the run replaced, in the result. */
function keptAfterLastSummary(messages: readonly Message[]): number {
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === "summary") last = i;
  });
  return messages.slice(last + 1).reduce((t, m) => t + messageTokens(counter, m), 0);
}

describe("keep_recent_tokens with batches", () => {
  it("summarizes the stretches it needs in one batch call and keeps the newest keep_recent_tokens", async () => {
    const inner = offlineSummarizer(counter);
    const { summarizer, calls } = recordingSummarizer(() => "");
    const r = await compactMessages(input, config, {
      summarizer: {
        name: "offline, recorded",
        summarize: async (q) => {
          await summarizer.summarize(q);
          return inner.summarize(q);
        },
        summarizeBatch: async (b) => {
          calls.batch.push(b);
          return Promise.all(b.parts.map((p) => inner.summarize(p)));
        },
      },
    });
    expect(r.report.stretches.length).toBeGreaterThan(3);
    // before: one call per stretch (keep_recent_tokens turned batching off)
    expect(calls.single.length).toBe(0);
    expect(calls.batch.length).toBe(1);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(10_000);
    expect(keptAfterLastSummary(r.messages)).toBeGreaterThanOrEqual(3_000);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("ages old summaries too, none of them inside the kept tail", async () => {
    const text = summaryText;
    const history = summaryHistory();
    const { summarizer, calls } = recordingSummarizer((q) => text("aged", q.maxTokens - 4));
    const keep = 2_000;
    const r = await compactMessages(
      history,
      {
        tokenizer: "chars",
        strategy: "summarize",
        token_threshold: 8_000,
        target_percent: 60,
        retention_window: 2,
        keep_recent_tokens: keep,
      },
      { summarizer },
    );
    const aged = r.report.stretches.filter((s) => s.aged === true);
    expect(aged.length).toBeGreaterThan(0);
    expect(calls.batch.length).toBe(1);
    // every aged summary lies before the newest `keep` tokens of the input
    for (const s of aged) {
      const after = history.slice(s.input.last + 1).reduce((t, m) => t + messageTokens(counter, m), 0);
      expect(after).toBeGreaterThanOrEqual(keep);
    }
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});
