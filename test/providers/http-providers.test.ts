import { afterEach, describe, expect, it } from "vitest";
import { SummarizerError } from "../../src/model/errors.ts";
import type { SummaryRequest } from "../../src/model/summarizer.ts";
import { anthropicSummarizer } from "../../src/providers/anthropic-summarizer.ts";
import { retryAfterSeconds } from "../../src/providers/http.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import { type Behavior, type Imitation, startImitation } from "../support/http-imitation.ts";

const request: SummaryRequest = {
  prompt: "Summarize: the agent edited src/a.ts",
  stretch: [],
  previousSummary: undefined,
  requiredFacts: ["src/a.ts"],
  maxTokens: 321,
  replacedTokens: 1000,
  summaryTag: "summary",
  model: "test-model",
};

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function sequence(...bs: Behavior[]) {
  return (n: number) => bs[Math.min(n, bs.length - 1)];
}

async function failure(p: Promise<unknown>): Promise<SummarizerError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SummarizerError);
    return e as SummarizerError;
  }
  throw new Error("expected a SummarizerError");
}

describe("OpenAI-compatible summarizer over HTTP", () => {
  it("posts the prompt with model and max_tokens and extracts the tagged text", async () => {
    server = await startImitation(
      "openai",
      sequence({ kind: "summary", text: "Here you go:\n<summary>\nEdited src/a.ts.\n</summary>\nBye" }),
    );
    const s = openAISummarizer({ baseUrl: server.url, apiKey: "sk-test", timeoutMs: 5000 });
    expect(await s.summarize(request)).toBe("Edited src/a.ts.");
    const [req] = server.requests;
    expect(req.url).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test");
    expect(req.body).toMatchObject({
      model: "test-model",
      max_tokens: 321,
      messages: [{ role: "user", content: request.prompt }],
    });
  });

  it("retries once after 429, honoring Retry-After", async () => {
    server = await startImitation(
      "openai",
      sequence(
        { kind: "raw", status: 429, body: '{"error":"slow down"}', headers: { "retry-after": "1" } },
        { kind: "summary", text: "<summary>ok src/a.ts</summary>" },
      ),
    );
    const t0 = Date.now();
    expect(await openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request)).toBe("ok src/a.ts");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });

  it("retries once after a 5xx, and fails after a second one", async () => {
    server = await startImitation(
      "openai",
      sequence(
        { kind: "raw", status: 503, body: "busy", headers: { "retry-after": "0" } },
        { kind: "summary", text: "<summary>ok</summary>" },
      ),
    );
    expect(await openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request)).toBe("ok");
    await server.close();
    server = await startImitation(
      "openai",
      sequence({ kind: "raw", status: 500, body: "boom", headers: { "retry-after": "0" } }),
    );
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect(e.message).toContain("HTTP 500");
    expect(e.message).toContain("after one retry");
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 400", async () => {
    server = await startImitation("openai", sequence({ kind: "raw", status: 400, body: '{"error":"bad model"}' }));
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect(e.message).toContain("HTTP 400");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a dropped connection (network error)", async () => {
    server = await startImitation(
      "openai",
      sequence({ kind: "destroy" }, { kind: "summary", text: "<summary>ok</summary>" }),
    );
    expect(await openAISummarizer({ baseUrl: server.url, timeoutMs: 5000, retryDelayMs: 20 }).summarize(request)).toBe(
      "ok",
    );
    expect(server.requests).toHaveLength(2);
  });

  it("times out", async () => {
    server = await startImitation("openai", sequence({ kind: "hang" }));
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 200 }).summarize(request));
    expect(e.message).toContain("timed out after 200 ms");
  });

  it("stops when the caller aborts", async () => {
    server = await startImitation("openai", sequence({ kind: "hang" }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const e = await failure(
      openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize({ ...request, signal: ac.signal }),
    );
    expect(e.message).toContain("aborted");
  });

  it.each([
    ["no tag", "Just a summary without tags", "has no <summary>...</summary> block"],
    ["empty tag", "<summary>  </summary>", "block is empty"],
    ["unclosed tag", "<summary>half", "not closed"],
  ])("rejects an answer with %s", async (_n, text, message) => {
    server = await startImitation("openai", sequence({ kind: "summary", text }));
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect(e.message).toContain(message);
  });

  it("rejects an empty or malformed body", async () => {
    server = await startImitation("openai", sequence({ kind: "raw", status: 200, body: '{"choices":[]}' }));
    expect(
      (await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request))).message,
    ).toContain("no choices");
    await server.close();
    server = await startImitation("openai", sequence({ kind: "raw", status: 200, body: "not json" }));
    expect(
      (await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request))).message,
    ).toContain("invalid JSON");
  });
});

describe("Anthropic summarizer over HTTP", () => {
  it("posts to /v1/messages with key, version, model, max_tokens and extracts the tagged text", async () => {
    server = await startImitation(
      "anthropic",
      sequence({ kind: "summary", text: "<summary>Edited src/a.ts.</summary>" }),
    );
    const s = anthropicSummarizer({ baseUrl: server.url, apiKey: "ak-test", timeoutMs: 5000 });
    expect(await s.summarize(request)).toBe("Edited src/a.ts.");
    const [req] = server.requests;
    expect(req.url).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe("ak-test");
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.body).toMatchObject({
      model: "test-model",
      max_tokens: 321,
      messages: [{ role: "user", content: request.prompt }],
    });
  });

  it("retries once on 529 overloaded", async () => {
    server = await startImitation(
      "anthropic",
      sequence(
        { kind: "raw", status: 529, body: '{"type":"error"}', headers: { "retry-after": "0" } },
        { kind: "summary", text: "<summary>ok</summary>" },
      ),
    );
    expect(await anthropicSummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request)).toBe("ok");
  });

  it("rejects an empty answer", async () => {
    server = await startImitation("anthropic", sequence({ kind: "raw", status: 200, body: '{"content":[]}' }));
    expect(
      (await failure(anthropicSummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request))).message,
    ).toContain("empty");
  });
});

describe("Retry-After parsing", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterSeconds("3")).toBe(3);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds("soon")).toBeUndefined();
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterSeconds("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5);
  });
});
