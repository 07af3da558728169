// The model-limit servers (test/support/model-servers.ts) refuse what their provider refuses, with
// its status and error text, and accept what fits: checked through the library's own HTTP
// summarizers, so the failure the engine sees is the one a real provider would give.
import { afterEach, describe, expect, it } from "vitest";
import { SummarizerError } from "../../src/model/errors.ts";
import type { SummaryRequest } from "../../src/model/summarizer.ts";
import { bpeCounter } from "../../src/model/tokens.ts";
import { anthropicSummarizer } from "../../src/providers/anthropic-summarizer.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import {
  CLAUDE_HAIKU_4_5,
  GPT_4O_MINI,
  LLAMA3_8K,
  type ModelLimits,
  type ModelServer,
  startModelServer,
} from "../support/model-servers.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A prompt of about `tokens` tokens (the BPE counts "word " as one token) with a fact to keep. */
function prompt(tokens: number): string {
  return `These facts must appear verbatim in the summary:\n- src/a.ts\n\nConversation excerpt:\n${"word ".repeat(tokens)}`;
}

function request(limits: ModelLimits, tokens: number, maxTokens: number): SummaryRequest {
  return {
    prompt: prompt(tokens),
    stretch: [],
    previousSummary: undefined,
    requiredFacts: ["src/a.ts"],
    maxTokens,
    replacedTokens: tokens,
    summaryTag: "summary",
    model: limits.model,
  };
}

function summarizer(s: ModelServer) {
  const o = { baseUrl: s.url, apiKey: "sk-test", timeoutMs: 20_000 };
  return s.limits.api === "openai" ? openAISummarizer(o) : anthropicSummarizer(o);
}

async function refusal(s: ModelServer, req: SummaryRequest): Promise<SummarizerError> {
  try {
    await summarizer(s).summarize(req);
  } catch (e) {
    expect(e).toBeInstanceOf(SummarizerError);
    return e as SummarizerError;
  }
  throw new Error("expected the server to refuse the request");
}

describe("servers that enforce a model's limits with its provider's errors", () => {
  it("gpt-4o-mini: over the output cap, over the window, prompt and answer over the window, and a request that fits", async () => {
    server = await startModelServer(GPT_4O_MINI);
    const cap = await refusal(server, request(GPT_4O_MINI, 100, 100_000));
    expect(cap.status).toBe(400);
    expect(server.requests[0].body.max_tokens).toBe(100_000);
    expect(JSON.parse(server.seen[0].refusal ?? "")).toEqual({
      error: {
        message:
          "max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.",
        type: "invalid_request_error",
        param: "max_tokens",
        code: null,
      },
    });
    const long = await refusal(server, request(GPT_4O_MINI, 130_000, 100));
    expect(long.call?.code).toBe("context_length_exceeded");
    expect(long.message).toMatch(
      /This model's maximum context length is 128000 tokens\. However, your messages resulted in \d+ tokens\. Please reduce the length of the messages\./,
    );
    const both = await refusal(server, request(GPT_4O_MINI, 120_000, 16_000));
    expect(both.message).toMatch(/However, you requested \d+ tokens \(\d+ in the messages, 16000 in the completion\)/);
    const ok = await summarizer(server).summarize(request(GPT_4O_MINI, 1000, 2000));
    expect(ok).toContain("src/a.ts");
    expect(server.seen.map((x) => x.status)).toEqual([400, 400, 400, 200]);
    // the counted input is the prompt's BPE count plus the message framing
    expect(server.seen[3].inputTokens).toBe(bpeCounter().count(prompt(1000)) + GPT_4O_MINI.framing);
  }, 60_000);

  it("claude-haiku-4-5: over the output cap, a prompt too long, prompt and answer over the window", async () => {
    server = await startModelServer(CLAUDE_HAIKU_4_5);
    const cap = await refusal(server, request(CLAUDE_HAIKU_4_5, 100, 100_000));
    expect(cap.status).toBe(400);
    expect(JSON.parse(server.seen[0].refusal ?? "").error).toEqual({
      type: "invalid_request_error",
      message:
        "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5-20251001",
    });
    const long = await refusal(server, request(CLAUDE_HAIKU_4_5, 210_000, 100));
    expect(long.message).toMatch(/prompt is too long: \d+ tokens > 200000 maximum/);
    const both = await refusal(server, request(CLAUDE_HAIKU_4_5, 190_000, 20_000));
    expect(both.message).toMatch(
      /input length and `max_tokens` exceed context limit: \d+ \+ 20000 > 200000, decrease input length or `max_tokens` and try again/,
    );
    expect(await summarizer(server).summarize(request(CLAUDE_HAIKU_4_5, 1000, 64_000))).toContain("src/a.ts");
  }, 60_000);

  it("llama3 behind llama.cpp with an 8k context: a prompt over the context is refused, an answer stops where the context ends", async () => {
    server = await startModelServer(LLAMA3_8K);
    const long = await refusal(server, request(LLAMA3_8K, 9000, 100));
    expect(long.status).toBe(400);
    expect(JSON.parse(server.seen[0].refusal ?? "")).toMatchObject({
      error: { code: 400, type: "exceed_context_size_error", n_ctx: 8192 },
    });
    expect(long.message).toMatch(/request \(\d+ tokens\) exceeds the available context size \(8192 tokens\)/);
    // a prompt 5 tokens short of the context leaves too little room for the answer: it is cut,
    // its tag unclosed
    const head = bpeCounter().count(prompt(0)) + LLAMA3_8K.framing;
    await expect(summarizer(server).summarize(request(LLAMA3_8K, 8192 - 5 - head, 2000))).rejects.toThrow(
      SummarizerError,
    );
    expect(server.seen[1].inputTokens).toBeGreaterThan(8192 - 10);
    expect(server.seen[1].inputTokens).toBeLessThanOrEqual(8192);
    expect(server.seen[1].status).toBe(200);
    expect(await summarizer(server).summarize(request(LLAMA3_8K, 4000, 2000))).toContain("src/a.ts");
  }, 60_000);
});
