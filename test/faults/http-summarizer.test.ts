// Summarizer faults over real HTTP: a node:http server on 127.0.0.1 imitates the OpenAI chat
// completions and Anthropic messages APIs (test/support/http-imitation.ts) and misbehaves in one
// way per case. The library is driven end to end on wire-format histories (compactOpenAIMessages /
// compactAnthropicMessages, the summarizer built from the configuration's provider and base_url).
// Each case asserts the outcome (unchanged, or compacted after a successful retry), that nothing
// was lost (deep equality with a clone taken before; for compactions the laws' runtime
// counterparts), and that the reason is reported.
import { afterEach, describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import type { Message } from "../../src/model/message.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import {
  type Behavior,
  factfulAnswer,
  type Imitation,
  type RecordedRequest,
  startImitation,
} from "../support/http-imitation.ts";
import { expectLawsHold } from "../support/laws.ts";

type Api = "openai" | "anthropic";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WINDOW = 6;

/**
 * The configuration every case uses: the provider under test at the imitation's URL, summarizing
 * only (no clearing run before), one stretch per call (batch_tokens 0: the cases count the
 * requests of one stretch's step; batches have their own tests, test/engine/batch-run.test.ts).
 */
function config(api: Api, url: string, extra: ConfigInput = {}): ConfigInput {
  return {
    strategy: "summarize",
    provider: api,
    base_url: url,
    model: api === "openai" ? "gpt-4o-mini" : "claude-haiku-4-5",
    token_threshold: 2_000,
    retention_window: WINDOW,
    timeout_ms: 5_000,
    batch_tokens: 0,
    ...extra,
  };
}

/** A wire-format history of the API's shape, big enough that compaction is due. */
function history(api: Api): { system?: Json; messages: JsonObject[] } {
  if (api === "openai") return { messages: openAIConversation({ turns: 6, seed: 11 }) };
  const a = anthropicConversation({ turns: 6, seed: 13 });
  return { system: a.system, messages: a.messages };
}

function toModel(api: Api, h: { system?: Json; messages: readonly Json[] }): Message[] {
  return api === "openai" ? readOpenAIMessages([...h.messages]) : readAnthropicMessages([...h.messages], h.system);
}

/** Runs a compaction against an imitation scripted by `script`; returns everything a case checks. */
async function run(api: Api, script: (n: number, req: RecordedRequest) => Behavior, extra: ConfigInput = {}) {
  server = await startImitation(api, script);
  const input = history(api);
  const before = structuredClone(input);
  const t0 = Date.now();
  let out: { system?: Json; messages: JsonObject[]; report: CompactionReport };
  if (api === "openai") {
    out = await compactOpenAIMessages(input.messages, config(api, server.url, extra), { env: {} });
  } else {
    out = await compactAnthropicMessages(
      { system: input.system, messages: input.messages },
      config(api, server.url, extra),
      { env: {} },
    );
  }
  return { input, before, out, report: out.report, requests: server.requests, ms: Date.now() - t0 };
}

type Outcome = Awaited<ReturnType<typeof run>>;

/** A failed run: nothing changed, input untouched, the failure and its reason reported. */
function expectUnchanged(api: Api, r: Outcome, reason: RegExp): void {
  expect(r.input).toEqual(r.before); // the caller's objects are never mutated
  expect(r.out.messages).toEqual(r.before.messages); // the conversation comes back exactly as it was
  if (api === "anthropic") expect(r.out.system).toEqual(r.before.system);
  expect(r.report.outcome).toBe("degraded");
  expect(r.report.stretches).toHaveLength(0);
  expect(r.report.tokensAfter).toBe(r.report.tokensBefore);
  expect(r.report.messagesAfter).toBe(r.report.messagesBefore);
  expect(r.report.reason).toMatch(reason);
  expect(r.report.reason).toMatch(/left unchanged/);
}

/** A successful run: compacted, input untouched, every law's runtime counterpart holds. */
function expectCompacted(api: Api, r: Outcome): void {
  expect(r.input).toEqual(r.before);
  expect(r.report.outcome).toBe("compacted");
  expect(r.report.stretches.length).toBeGreaterThan(0);
  expect(r.report.reason).not.toBe("");
  const beforeModel = toModel(api, r.before);
  const afterModel = toModel(api, r.out);
  expect(afterModel.some((m) => m.role === "summary")).toBe(true);
  expect(afterModel.length).toBeLessThan(beforeModel.length);
  expectLawsHold(beforeModel, afterModel, WINDOW, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  // the engine's own law checks agree
  expect(r.report.laws.filter((l) => !l.ok)).toEqual([]);
}

const good = (_n: number, req: RecordedRequest): Behavior => ({ kind: "summary", text: factfulAnswer(req) });

/** An answer that is valid JSON for the API but carries `text` as the model's reply. */
function replyBody(api: Api, text: string | null): string {
  if (api === "openai")
    return JSON.stringify({
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    });
  return JSON.stringify({ type: "message", role: "assistant", content: text === null ? [] : [{ type: "text", text }] });
}

describe.each(["openai", "anthropic"] as const)("%s summarizer faults", (api) => {
  it("times out (server never answers): unchanged, reason names the timeout", async () => {
    // 1.5 s, not less: on a loaded machine the second request can take longer than a short timeout
    // to reach the server, and the count below would then miss it
    const r = await run(api, () => ({ kind: "hang" }), { timeout_ms: 1_500, retry_delay_ms: 10 });
    expectUnchanged(api, r, /timed out after 1500 ms/);
    // one request per attempt: a timeout is retried by the engine's policy only
    expect(r.requests).toHaveLength(SETTINGS.max_attempts.default);
  });

  it("answers HTTP 500 every time: unchanged, reason names the status, exactly max_attempts requests", async () => {
    // one retry policy (the engine's): before it the provider's retry and the engine's stacked (4 requests)
    const r = await run(api, () => ({ kind: "raw", status: 500, body: '{"error":{"message":"boom"}}' }), {
      retry_delay_ms: 10,
    });
    expectUnchanged(api, r, /HTTP 500/);
    expect(r.requests).toHaveLength(SETTINGS.max_attempts.default);
    expect(r.report.summarizerCalls).toBe(SETTINGS.max_attempts.default);
  });

  it("answers 429 with Retry-After: 120: not retried (no request 51 ms later), the reason names the wait", async () => {
    const r = await run(api, () => ({
      kind: "raw",
      status: 429,
      body: '{"error":"rate limited"}',
      headers: { "retry-after": "120" },
    }));
    expectUnchanged(api, r, /HTTP 429/);
    expect(r.requests).toHaveLength(1);
    expect(r.report.reason).toMatch(/asked to wait 120 s \(Retry-After\), more than max_retry_wait_ms \(30000 ms\)/);
    expect(r.ms).toBeLessThan(10_000);
  });

  it("answers 429 with a Retry-After HTTP date beyond the cap: not retried, the reason names the wait", async () => {
    const at = new Date(Date.now() + 600_000).toUTCString();
    const r = await run(api, () => ({ kind: "raw", status: 429, body: "slow", headers: { "retry-after": at } }));
    expectUnchanged(api, r, /asked to wait (59\d|600) s \(Retry-After\)/);
    expect(r.requests).toHaveLength(1);
  });

  it("answers 429 with Retry-After: 1 every time: each retry waits the second it was told", async () => {
    const at: number[] = [];
    const r = await run(api, () => {
      at.push(Date.now());
      return { kind: "raw", status: 429, body: '{"error":"rate limited"}', headers: { "retry-after": "1" } };
    });
    expectUnchanged(api, r, /HTTP 429/);
    expect(at).toHaveLength(SETTINGS.max_attempts.default);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(950);
  });

  it.each([400, 401, 403, 404])("answers HTTP %i: sent once, never retried", async (status) => {
    const r = await run(api, () => ({ kind: "raw", status, body: '{"error":"no"}' }));
    expectUnchanged(api, r, new RegExp(`HTTP ${status}.*not retried`));
    expect(r.requests).toHaveLength(1);
    expect(r.report.summarizerCalls).toBe(1);
  });

  it("answers HTTP 500 once, then well: compacted after the retry", async () => {
    const r = await run(api, (n, req) => (n === 0 ? { kind: "raw", status: 500, body: "overloaded" } : good(n, req)));
    expectCompacted(api, r);
    expect(r.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("answers HTTP 503 once: the retry resends the same request (no rejection named in it)", async () => {
    const r = await run(api, (n, req) => (n === 0 ? { kind: "raw", status: 503, body: "busy" } : good(n, req)), {
      retry_delay_ms: 10,
    });
    expectCompacted(api, r);
    expect(r.requests[1].body).toEqual(r.requests[0].body);
    expect(r.report.stretches[0].attempts).toBe(2);
  });

  it("answers 429 with Retry-After: 1, then well: waits, retries, compacts", async () => {
    const at: number[] = [];
    const r = await run(api, (n, req) => {
      at.push(Date.now());
      return n === 0
        ? { kind: "raw", status: 429, body: '{"error":"rate limited"}', headers: { "retry-after": "1" } }
        : good(n, req);
    });
    expectCompacted(api, r);
    expect(at.length).toBeGreaterThanOrEqual(2);
    // Retry-After was honored: the retry came about a second later, not at once
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(900);
  });

  it("answers an empty reply: unchanged, reason says so", async () => {
    const r = await run(api, () => ({ kind: "raw", status: 200, body: replyBody(api, api === "openai" ? "" : null) }));
    expectUnchanged(api, r, /empty|no <summary>/);
  });

  it("answers an empty summary block: unchanged, reason says it is empty", async () => {
    const r = await run(api, () => ({ kind: "raw", status: 200, body: replyBody(api, "<summary>   </summary>") }));
    expectUnchanged(api, r, /block is empty/);
  });

  it("answers an over-long summary: unchanged, reason names the limit", async () => {
    const r = await run(api, (_n, req) => {
      const padding = " and then the agent kept working on it".repeat(2_000);
      return { kind: "summary", text: factfulAnswer(req).replace("</summary>", `${padding}</summary>`) };
    });
    expectUnchanged(api, r, /exceeds max_tokens|not shorter than what it replaces/);
  });

  it("answers without the summary tag: unchanged, reason names the missing tag", async () => {
    const r = await run(api, () => ({ kind: "summary", text: "The agent read some files and fixed a bug." }));
    expectUnchanged(api, r, /no <summary>\.\.\.<\/summary> block/);
  });

  it("drops required facts every time: unchanged, reason lists a missing fact; stops after max_rejected_summaries answers", async () => {
    const r = await run(api, () => ({
      kind: "summary",
      text: "<summary>The agent read some files and fixed a bug.</summary>",
    }));
    expectUnchanged(api, r, /dropped required facts: "/);
    // a bad summarizer is cheap: the kernel's stop rule ends the run after that many rejected summaries in a row
    expect(r.requests).toHaveLength(SETTINGS.max_rejected_summaries.default);
    expect(r.report.summarizerCalls).toBe(SETTINGS.max_rejected_summaries.default);
    expect(r.report.reason).toMatch(/stopped after 4 summaries in a row failed validation \(max_rejected_summaries\)/);
  });

  it("max_rejected_summaries: 1 stops at the first rejected summary, before its second chance", async () => {
    const r = await run(api, () => ({ kind: "summary", text: "<summary>Nothing kept.</summary>" }), {
      max_rejected_summaries: 1,
    });
    expectUnchanged(api, r, /max_rejected_summaries/);
    expect(r.requests).toHaveLength(1);
  });

  it("drops facts once, then answers well: compacted on the engine's retry, which named the problem", async () => {
    const r = await run(api, (n, req) =>
      n === 0 ? { kind: "summary", text: "<summary>Some work was done.</summary>" } : good(n, req),
    );
    expectCompacted(api, r);
    expect(r.report.stretches[0].attempts).toBe(2);
    const secondPrompt = JSON.stringify(r.requests[1].body);
    expect(secondPrompt).toContain("Your previous answer was rejected");
    expect(secondPrompt).toContain("dropped required facts");
  });

  it("answers with invalid JSON: unchanged, reason says so", async () => {
    const r = await run(api, () => ({ kind: "raw", status: 200, body: "<html>gateway</html>" }));
    expectUnchanged(api, r, /invalid JSON/);
  });

  it("drops the connection every time: unchanged, reason names the network error", async () => {
    const r = await run(api, () => ({ kind: "destroy" }));
    expectUnchanged(api, r, /network error/);
  });
});
