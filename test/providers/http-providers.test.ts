import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, SummarizerError } from "../../src/model/errors.ts";
import type { SummaryRequest } from "../../src/model/summarizer.ts";
import { anthropicSummarizer } from "../../src/providers/anthropic-summarizer.ts";
import { maxAnswerBytes, retryAfterSeconds } from "../../src/providers/http.ts";
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

  // One request per call: whether and when to retry is the engine's retry policy
  // (test/faults/http-summarizer.test.ts); the failure carries what that policy needs.
  it("makes one request on a 429 and hands its status and Retry-After to the caller", async () => {
    server = await startImitation(
      "openai",
      sequence(
        { kind: "raw", status: 429, body: '{"error":"slow down"}', headers: { "retry-after": "7" } },
        { kind: "summary", text: "<summary>ok src/a.ts</summary>" },
      ),
    );
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect(e.message).toContain("HTTP 429");
    expect([e.status, e.retryAfterSeconds, e.transient]).toEqual([429, 7, true]);
    expect(server.requests).toHaveLength(1);
  });

  it("makes one request on a 5xx (transient) and on a 400 (not transient)", async () => {
    server = await startImitation("openai", sequence({ kind: "raw", status: 500, body: "boom" }));
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect([e.message.includes("HTTP 500"), e.status, e.transient]).toEqual([true, 500, true]);
    expect(server.requests).toHaveLength(1);
    await server.close();
    server = await startImitation("openai", sequence({ kind: "raw", status: 400, body: '{"error":"bad model"}' }));
    const e4 = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect([e4.message.includes("HTTP 400"), e4.status, e4.transient]).toEqual([true, 400, false]);
    expect(server.requests).toHaveLength(1);
  });

  it("reports a dropped connection as a transient network error after one request", async () => {
    server = await startImitation(
      "openai",
      sequence({ kind: "destroy" }, { kind: "summary", text: "<summary>ok</summary>" }),
    );
    const e = await failure(openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect(e.message).toContain("network error");
    expect(e.transient).toBe(true);
    expect(server.requests).toHaveLength(1);
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

  it("makes one request on 529 overloaded (transient, with its status)", async () => {
    server = await startImitation(
      "anthropic",
      sequence(
        { kind: "raw", status: 529, body: '{"type":"error"}', headers: { "retry-after": "0" } },
        { kind: "summary", text: "<summary>ok</summary>" },
      ),
    );
    const e = await failure(anthropicSummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request));
    expect([e.status, e.retryAfterSeconds, e.transient]).toEqual([529, 0, true]);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects an empty answer", async () => {
    server = await startImitation("anthropic", sequence({ kind: "raw", status: 200, body: '{"content":[]}' }));
    expect(
      (await failure(anthropicSummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request))).message,
    ).toContain("empty");
  });
});

/**
 * A server on 127.0.0.1 answering every request with `total` bytes of a JSON string, in 64 KiB
 * chunks with backpressure (chunked, or with a Content-Length when `declare`), counting the bytes
 * it managed to write before the client went away.
 */
async function hugeAnswerServer(total: number, declare: boolean) {
  let onClosed: () => void = () => {};
  const written = { bytes: 0, closed: new Promise<void>((r) => (onClosed = r)) };
  const srv = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, {
        "content-type": "application/json",
        ...(declare ? { "content-length": String(total) } : {}),
      });
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (written.bytes < total && !res.destroyed) {
          const n = Math.min(chunk.length, total - written.bytes);
          written.bytes += n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on("close", () => onClosed());
      pump();
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
  const close = () =>
    new Promise<void>((r) => {
      srv.closeAllConnections();
      srv.close(() => r());
    });
  return { url, written, close };
}

// A bad summarizer is cheap: an answer far above max_tokens is refused without downloading it whole.
describe("answer size cap", () => {
  // 64 MB, so that what loopback socket buffers take in before the client hangs up (a few MB) is
  // clearly told apart from a download of the whole answer
  const HUGE = 64 * 1024 * 1024;
  it.each([false, true])(
    "a 64 MB answer (Content-Length declared: %s) is refused after reading at most the cap",
    async (declare) => {
      const big = await hugeAnswerServer(HUGE, declare);
      try {
        const e = await failure(openAISummarizer({ baseUrl: big.url, timeoutMs: 20_000 }).summarize(request));
        const cap = maxAnswerBytes(request.maxTokens);
        expect(e.message).toContain(`than the ${cap} bytes an answer within max_tokens may take: refused`);
        await big.written.closed;
        // what the server got out before the client hung up: the cap plus what socket buffers hold (about 4 MB here)
        expect(big.written.bytes).toBeLessThan(HUGE / 4);
      } finally {
        await big.close();
      }
    },
  );

  it("an answer within the cap is read whole", async () => {
    server = await startImitation(
      "openai",
      sequence({ kind: "summary", text: `<summary>${"x".repeat(request.maxTokens * 4)}</summary>` }),
    );
    const text = await openAISummarizer({ baseUrl: server.url, timeoutMs: 5000 }).summarize(request);
    expect(text).toHaveLength(request.maxTokens * 4);
  });
});

// Both providers take a base URL with or without the API version (/v1), or the endpoint's whole URL.
describe("base URLs", () => {
  const ok = { kind: "summary", text: "<summary>ok</summary>" } as const;
  it.each([
    ["openai", "", "/v1/chat/completions"],
    ["openai", "/", "/v1/chat/completions"],
    ["openai", "/v1", "/v1/chat/completions"],
    ["openai", "/v1/", "/v1/chat/completions"],
    ["openai", "/proxy/v1", "/proxy/v1/chat/completions"],
    ["openai", "/api/chat/completions", "/api/chat/completions"],
    ["anthropic", "", "/v1/messages"],
    ["anthropic", "/v1", "/v1/messages"],
    ["anthropic", "/v1/", "/v1/messages"],
    ["anthropic", "/gw/v1/messages", "/gw/v1/messages"],
  ] as const)("%s with base path %j posts to %s", async (api, path, expected) => {
    server = await startImitation(api, sequence(ok));
    const origin = server.url.replace(/\/v1$/, "");
    const make = api === "openai" ? openAISummarizer : anthropicSummarizer;
    expect(await make({ baseUrl: `${origin}${path}`, timeoutMs: 5000 }).summarize(request)).toBe("ok");
    expect(server.requests.map((r) => r.url)).toEqual([expected]);
  });

  it.each(["notaurl", "ftp://x/", "http//missing-colon"])("refuses %j when the summarizer is made", (bad) => {
    for (const make of [openAISummarizer, anthropicSummarizer]) {
      expect(() => make({ baseUrl: bad })).toThrow(ConfigError);
      expect(() => make({ baseUrl: bad })).toThrow(/base_url: must be an http:\/\/ or https:\/\/ URL/);
    }
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
