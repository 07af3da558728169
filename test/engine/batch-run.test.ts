// A run that plans a batch: the stretches it needs to reach its target, summarized in one call
// (or one per batch_tokens of stretches, at most batch_calls at once), each summary validated on
// its own, a missing or rejected one asked for alone, all committed in order with the laws kept.
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { batchPartHeading, batchPartTag, renderBatchPrompt } from "../../src/model/prompt-template.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";
import { extractEachTagged } from "../../src/providers/extract-tag.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { expectLawsHold } from "../support/laws.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";

const input = readOpenAIMessages(openAIConversation({ turns: 30 }));
// summarizing only: batches are the summarize path (a clearing run before it has its own tests)
const config = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 20_000,
  target_percent: 50,
};

/** The offline summarizer with batch calls, counting both kinds and the most batch calls in flight; `spoil` may replace a batch answer. */
function batching(spoil: (k: number, s: string) => string | undefined = (_k, s) => s) {
  const inner = offlineSummarizer(charCounter());
  const calls = { single: [] as SummaryRequest[], batch: [] as BatchSummaryRequest[], inFlight: 0, most: 0 };
  const summarizer: Summarizer = {
    name: "batching",
    summarize: (r) => {
      calls.single.push(r);
      return inner.summarize(r);
    },
    summarizeBatch: async (r) => {
      calls.batch.push(r);
      calls.inFlight++;
      calls.most = Math.max(calls.most, calls.inFlight);
      await new Promise((done) => setTimeout(done, 5));
      calls.inFlight--;
      const answers = await Promise.all(r.parts.map((p) => inner.summarize(p)));
      return answers.map((a, k) => spoil(k, a));
    },
  };
  return { summarizer, calls };
}

describe("batch run", () => {
  it("summarizes the stretches it needs in one call, commits them in order, reaches the target, keeps every law", async () => {
    const { summarizer, calls } = batching();
    const r = await compactMessages(input, config, { summarizer });
    // the plan counts each stretch as keeping min_stretch_tokens plus summary_percent of it (more
    // than the offline summarizer's summaries keep): one batch reaches the target
    expect(calls.batch.length).toBe(1);
    expect(r.report.stretches.length).toBeGreaterThan(3 * calls.batch.length);
    expect(r.report.summarizerCalls).toBe(calls.batch.length + calls.single.length);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(10_000);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
    // one prompt: the built-in instructions once, each stretch's task under its heading, asking
    // for its numbered tag; each part's own request keeps its whole prompt
    const prompt = calls.batch[0].prompt;
    const n = calls.batch[0].parts.length;
    expect(prompt).toContain(batchPartHeading(n, n));
    expect(prompt).toContain(`<${batchPartTag("summary", n)}>`);
    expect(prompt.split("You are compacting the history").length - 1).toBe(1);
    for (const p of calls.batch[0].parts) expect(p.prompt).toContain("You are compacting the history");
  });

  it("summaries that fill their stated budget, facts and framing included: one batch still reaches the target", async () => {
    // 30 turns: a user message and an answer of ~150 tokens naming two files (required facts)
    const turns: Message[] = [{ role: "system", content: "You are a coding agent." }];
    for (let t = 0; t < 30; t++) {
      turns.push({ role: "user", content: `turn ${t}: go on` });
      const text = `Edited src/module${t}/handler${t}.ts and test/module${t}/handler${t}.test.ts. ${"n".repeat(560)}`;
      turns.push({ role: "assistant", content: text, toolCalls: [] });
    }
    // each answer: its facts, then filler up to the budget its prompt states
    const { summarizer, calls } = recordingSummarizer((r) => {
      const facts = r.requiredFacts.join(" ");
      return `${facts} ${"s".repeat(Math.max(0, (r.budgetTokens ?? r.maxTokens) * 4 - facts.length - 1))}`;
    });
    const total = turns.reduce((t, m) => t + messageTokens(charCounter(), m), 0);
    const r = await compactMessages(turns, { ...config, token_threshold: total, target_percent: 60 }, { summarizer });
    // before, counting only summary_floor_tokens per summary, the batch fell short and a second call followed
    expect(calls.batch.length).toBe(1);
    expect(calls.single.length).toBe(0);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(Math.floor((total * 60) / 100));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("asks for a missing or rejected summary alone; the others are used as they came", async () => {
    const { summarizer, calls } = batching((k, s) => (k === 0 ? undefined : k === 1 ? "   " : s));
    const r = await compactMessages(input, config, { summarizer });
    expect(calls.batch.length).toBeGreaterThanOrEqual(1);
    // the first two stretches of each batch call were asked for alone, and nothing was left unchanged
    expect(calls.single.length).toBeGreaterThanOrEqual(2 * calls.batch.length);
    expect(r.report.skipped).toHaveLength(0);
    expect(r.report.outcome).toBe("compacted");
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("a rejected summary in a batch answer counts toward max_rejected_summaries: at the limit nothing more is asked", async () => {
    const { summarizer, calls } = batching((k, s) => (k === 0 ? "   " : s));
    const r = await compactMessages(input, { ...config, max_rejected_summaries: 1 }, { summarizer });
    expect(calls.batch).toHaveLength(1);
    expect(calls.single).toHaveLength(0);
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toContain("max_rejected_summaries");
    expect(r.messages).toEqual(input);
  });

  it("one call per batch_tokens of stretches, at most batch_calls in flight", async () => {
    const { summarizer, calls } = batching();
    const r = await compactMessages(input, { ...config, batch_tokens: 1500, batch_calls: 2 }, { summarizer });
    expect(calls.batch.length + calls.single.length).toBeGreaterThan(2);
    expect(calls.most).toBeLessThanOrEqual(2);
    for (const b of calls.batch) expect(b.parts.length).toBeGreaterThan(1);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("batch_tokens 0: one stretch per call, one after another", async () => {
    const { summarizer, calls } = batching();
    const r = await compactMessages(input, { ...config, batch_tokens: 0 }, { summarizer });
    expect(calls.batch).toHaveLength(0);
    expect(calls.single).toHaveLength(r.report.stretches.length);
  });

  it("a batch answer is read tag by tag: a missing or empty tag is undefined", () => {
    const answer = `<summary_1>one</summary_1>\n<summary_3> </summary_3><summary_2>two</summary_2>`;
    expect(extractEachTagged(answer, "summary", 4)).toEqual(["one", "two", undefined, undefined]);
    const part = (conversation: string) => ({
      conversation,
      previousSummary: undefined,
      requiredFacts: [],
      maxTokens: 9,
      summaryTag: "s",
    });
    expect(renderBatchPrompt("{{conversation}}", [part("a"), part("b")])).toContain(`${batchPartHeading(2, 2)}\nb`);
  });
});
