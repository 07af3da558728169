// The HTTP summarizers' batch calls with the built-in prompt's batch form (instructions once, each
// part only its task): the prompt is sent as written, and the answer is read part by part into
// the right stretches, against real servers on 127.0.0.1 (the test imitation of both APIs, and
// the bench's loopback summarizer through a whole compaction).
import { afterEach, describe, expect, it } from "vitest";
import { startSummarizerServer } from "../../bench/loop/summarizer-server.ts";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import {
  batchPartTag,
  DEFAULT_PROMPT,
  type PromptValues,
  renderBatchPrompt,
  renderPrompt,
} from "../../src/model/prompt-template.ts";
import type { BatchSummaryRequest, SummaryRequest } from "../../src/model/summarizer.ts";
import { anthropicSummarizer } from "../../src/providers/anthropic-summarizer.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import { answer } from "../session/imitation-answers.ts";
import { openAIConversation } from "../support/generate.ts";
import { type Imitation, startImitation } from "../support/http-imitation.ts";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const values: PromptValues[] = [
  {
    conversation: "[user] fix src/a.ts",
    previousSummary: undefined,
    requiredFacts: ["src/a.ts"],
    maxTokens: 50,
    summaryTag: batchPartTag("summary", 1),
  },
  {
    conversation: "[tool] ERR_TWO in src/b.ts",
    previousSummary: "the agent set up the repo",
    requiredFacts: ["ERR_TWO", "src/b.ts"],
    maxTokens: 70,
    summaryTag: batchPartTag("summary", 2),
  },
  {
    conversation: "[user] now the docs",
    previousSummary: undefined,
    requiredFacts: ["docs/c.md"],
    maxTokens: 30,
    summaryTag: batchPartTag("summary", 3),
  },
];

/** A batch request of the built-in prompt for `values`. */
function batchRequest(): BatchSummaryRequest {
  const parts: SummaryRequest[] = values.map((v) => ({
    prompt: renderPrompt(DEFAULT_PROMPT, v),
    stretch: [],
    previousSummary: v.previousSummary,
    requiredFacts: v.requiredFacts,
    maxTokens: v.maxTokens,
    budgetTokens: v.maxTokens,
    replacedTokens: 1000,
    summaryTag: v.summaryTag,
    model: "test-model",
  }));
  return {
    prompt: renderBatchPrompt(DEFAULT_PROMPT, values),
    parts,
    maxTokens: 150,
    summaryTag: "summary",
    model: "test-model",
  };
}

describe("batch calls with the built-in prompt's shared instructions", () => {
  for (const api of ["openai", "anthropic"] as const) {
    it(`${api}: sends the batch prompt as written and reads each part's summary from its own tag`, async () => {
      // the imitation answers each part (found by its heading) with that part's facts
      server = await startImitation(api, (_n, req) => ({ kind: "summary", text: answer(req) }));
      const opts = { baseUrl: server.url, apiKey: "k", timeoutMs: 5000 };
      const s = api === "openai" ? openAISummarizer(opts) : anthropicSummarizer(opts);
      const req = batchRequest();
      const got = await s.summarizeBatch?.(req);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].body).toMatchObject({
        max_tokens: 150,
        messages: [{ role: "user", content: req.prompt }],
      });
      expect(got).toEqual([
        "the agent worked on: src/a.ts",
        "the agent worked on: ERR_TWO; src/b.ts",
        "the agent worked on: docs/c.md",
      ]);
    });
  }

  it("a whole compaction through the OpenAI provider and the bench's loopback summarizer: every stretch from its batch answer, the instructions sent once", async () => {
    const loopback = await startSummarizerServer(100_000);
    try {
      const input = readOpenAIMessages(openAIConversation({ turns: 30 }));
      const run = (prompt: string) =>
        compactMessages(
          input,
          {
            tokenizer: "chars",
            strategy: "summarize",
            token_threshold: 20_000,
            target_percent: 50,
            provider: "openai",
            base_url: loopback.baseUrl,
            prompt,
            // the loopback summarizer has no output cap: gpt-4o-mini's (16384, from the model
            // catalogue) would cut the batch into more calls than this test counts
            summarizer_output_cap: 1_000_000,
          },
          // a model the catalogue does not know: the bench's loopback has no output cap, and
          // gpt-4o-mini's (16,384) would cut the batch into more calls than this test is about
          { agentModel: "bench-loopback" },
        );
      // the built-in prompt, then the same text as a custom template (a trailing newline): each
      // part's whole prompt
      const shared = await run(DEFAULT_PROMPT);
      const whole = await run(`${DEFAULT_PROMPT}\n`);
      const calls = shared.report.summarizerCalls;
      for (const r of [shared, whole]) {
        expect(r.report.outcome).toBe("compacted");
        expect(r.report.laws.every((l) => l.ok)).toBe(true);
        expect(r.report.skipped).toEqual([]);
        // the same plan in both forms: the prompt's form changes no budget
        expect(r.report.summarizerCalls).toBe(calls);
      }
      const n = shared.report.stretches.length;
      expect(n).toBeGreaterThan(3);
      expect(whole.report.stretches.length).toBe(n);
      // batches, not one call per stretch (a plan falls short of its target now and then, since
      // its estimate of what a summary keeps leaves out the stretch's facts: a second batch)
      expect(calls).toBeLessThanOrEqual(2);
      expect(loopback.calls).toHaveLength(2 * calls);
      const sentBy = (from: number) =>
        loopback.calls.slice(from, from + calls).reduce((sum, c) => sum + c.inputTokens, 0);
      // the instruction lines (about 100 tokens) are sent once per call instead of once per stretch
      const saved = sentBy(calls) - sentBy(0);
      expect(saved).toBeGreaterThan((n - calls) * 80);
      expect(saved).toBeLessThan(n * 110);
    } finally {
      await loopback.close();
    }
  });
});
