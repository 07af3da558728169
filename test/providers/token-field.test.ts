// The right output-token field per API: OpenAI's reasoning models (o1, o3, o4-mini, the gpt-5
// family) refuse `max_tokens` and take `max_completion_tokens`; every other model of an
// OpenAI-style API (gpt-4o, the models of OpenAI-compatible servers) is sent `max_tokens`. A
// loopback server enforces it as OpenAI does, with OpenAI's real error body.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SummaryRequest } from "../../src/model/summarizer.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";
import { factfulAnswer, type Imitation, type RecordedRequest, startImitation } from "../support/http-imitation.ts";
import { OPENAI_MAX_TOKENS_UNSUPPORTED, TEST_KEY } from "../support/provider-errors.ts";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REASONING = /^(o\d|gpt-5)/;

/** OpenAI's chat completions as it treats the output limit: a reasoning model refuses max_tokens. */
function openAIRules(req: RecordedRequest) {
  const model = String(req.body.model);
  if (REASONING.test(model) && req.body.max_tokens !== undefined) return OPENAI_MAX_TOKENS_UNSUPPORTED;
  return { kind: "summary" as const, text: factfulAnswer(req) };
}

const request: SummaryRequest = {
  prompt: "Summarize: the agent edited src/a.ts",
  stretch: [],
  previousSummary: undefined,
  requiredFacts: ["src/a.ts"],
  maxTokens: 321,
  replacedTokens: 1000,
  summaryTag: "summary",
  model: "o3-mini",
};

describe("the output-token field an OpenAI-style request names", () => {
  it.each(["o3-mini", "o4-mini", "gpt-5-mini", "o1"])(
    "%s (a reasoning model): max_completion_tokens, no max_tokens",
    async (model) => {
      server = await startImitation("openai", (_n, req) => openAIRules(req));
      const s = openAISummarizer({ baseUrl: server.url, apiKey: "sk-test", timeoutMs: 5000 });
      expect(await s.summarize({ ...request, model })).toMatch(/^The agent worked on/);
      const [req] = server.requests;
      expect(req.body.max_completion_tokens).toBe(321);
      expect(req.body).not.toHaveProperty("max_tokens");
    },
  );

  it.each(["gpt-4o-mini", "llama3.1:8b", "test-model"])("%s: max_tokens", async (model) => {
    server = await startImitation("openai", (_n, req) => openAIRules(req));
    const s = openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 });
    await s.summarize({ ...request, model });
    const [req] = server.requests;
    expect(req.body.max_tokens).toBe(321);
    expect(req.body).not.toHaveProperty("max_completion_tokens");
  });

  it("the CLI compacts with o3-mini against a server that refuses max_tokens for it", async () => {
    server = await startImitation("openai", (_n, req) => openAIRules(req));
    const dir = tempDir();
    writeFileSync(join(dir, "conversation.json"), JSON.stringify(openAIConversation({ turns: 30, seed: 3 })));
    const r = await runInProcess(
      [
        "compact",
        "conversation.json",
        "--provider",
        "openai",
        "--base-url",
        server.url,
        "--model",
        "o3-mini",
        "--strategy",
        "summarize",
        "--token-threshold",
        "8000",
        "--report",
        "report.json",
        "-o",
        "out.json",
      ],
      { cwd: dir, env: { OPENAI_API_KEY: TEST_KEY } },
    );
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(report.failure).toBeUndefined();
    expect(r.code).toBe(0);
    expect(report.stretches.length).toBeGreaterThan(0);
    expect(server.requests.length).toBeGreaterThan(0);
    for (const req of server.requests) {
      expect(req.body).not.toHaveProperty("max_tokens");
      expect(req.body.max_completion_tokens).toBeGreaterThan(0);
    }
    // the summarizer's limits came from the catalogue: o3-mini's
    expect(report.modelLimits.summarizer_output_cap).toMatchObject({
      value: 100000,
      source: "catalogue",
      model: "o3-mini",
    });
  });
});
