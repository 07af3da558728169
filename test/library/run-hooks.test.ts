// What a run cost and the hooks around it (issue 20, item 7), over real HTTP: the OpenAI and
// Anthropic summarizers talk to a node:http imitation on 127.0.0.1 (test/support/http-imitation.ts)
// whose answers carry usage as each API reports it. The report lists each call with its duration
// and the provider's usage; the hooks before a run (instructions, cancel), after it and on failure
// are options of the library entries.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import type { RunFailure, SummarizerCallEvent } from "../../src/engine/run/run-hooks.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import type { Json } from "../../src/model/json.ts";
import { openSession } from "../../src/session/open.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import {
  type Behavior,
  factfulAnswer,
  type Imitation,
  promptOf,
  type RecordedRequest,
  startImitation,
} from "../support/http-imitation.ts";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function config(api: "openai" | "anthropic", url: string): ConfigInput {
  return {
    provider: api,
    base_url: url,
    model: api === "openai" ? "gpt-4o-mini" : "claude-haiku-4-5",
    token_threshold: 2_000,
    retention_window: 6,
    timeout_ms: 5_000,
    max_attempts: 1,
  };
}

const OPENAI_USAGE = { prompt_tokens: 1200, completion_tokens: 80, prompt_tokens_details: { cached_tokens: 1000 } };
const ANTHROPIC_USAGE = {
  input_tokens: 50,
  cache_read_input_tokens: 1000,
  cache_creation_input_tokens: 200,
  output_tokens: 70,
};

/** The generated Anthropic conversation compacted through the summarizer at `url`. */
function compactAnthropic(url: string) {
  const a = anthropicConversation({ turns: 6, seed: 13 });
  return compactAnthropicMessages({ system: a.system, messages: a.messages }, config("anthropic", url), { env: {} });
}

describe("each summarizer call's usage and duration in the report", () => {
  it("OpenAI: prompt tokens (cached included), completion tokens, cached tokens", async () => {
    server = await startImitation("openai", (_n: number, req: RecordedRequest): Behavior => {
      return { kind: "summary", text: factfulAnswer(req), delayMs: 40, usage: OPENAI_USAGE };
    });
    const out = await compactOpenAIMessages(openAIConversation({ turns: 6, seed: 11 }), config("openai", server.url), {
      env: {},
    });
    const r = out.report;
    expect(r.stretches.length).toBeGreaterThan(0);
    expect(r.calls).toHaveLength(server.requests.length);
    expect(r.calls).toHaveLength(r.summarizerCalls);
    for (const c of r.calls) {
      expect(c.answered).toBe(true);
      expect(c.usage).toEqual({ inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1000 });
      expect(c.durationMs).toBeGreaterThanOrEqual(35); // the imitation answers after 40 ms
    }
    const n = r.calls.length;
    expect(r.callTotals).toMatchObject({
      inputTokens: 1200 * n,
      outputTokens: 80 * n,
      cacheReadTokens: 1000 * n,
      cacheWriteTokens: 0,
    });
    expect(r.callTotals.durationMs).toBeCloseTo(
      r.calls.reduce((t, c) => t + c.durationMs, 0),
      6,
    );
  });

  it("Anthropic: input counts the cache reads and writes, both also reported apart", async () => {
    server = await startImitation("anthropic", (_n: number, req: RecordedRequest): Behavior => {
      return { kind: "summary", text: factfulAnswer(req), usage: ANTHROPIC_USAGE };
    });
    const out = await compactAnthropic(server.url);
    expect(out.report.calls.length).toBeGreaterThan(0);
    for (const c of out.report.calls)
      expect(c.usage).toEqual({ inputTokens: 1250, outputTokens: 70, cacheReadTokens: 1000, cacheWriteTokens: 200 });
  });

  it("Anthropic with server-side compaction: usage.iterations summed, its compaction steps recorded apart, in the report and a session's records", async () => {
    // the top-level counts are the message step's; the compaction step's are only in iterations
    const usage = {
      ...ANTHROPIC_USAGE,
      iterations: [
        {
          type: "compaction",
          input_tokens: 3000,
          output_tokens: 400,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
        { type: "message", ...ANTHROPIC_USAGE },
      ],
    };
    server = await startImitation("anthropic", (_n: number, req: RecordedRequest): Behavior => {
      return { kind: "summary", text: factfulAnswer(req), usage };
    });
    const expected = {
      inputTokens: 4250,
      outputTokens: 470,
      cacheReadTokens: 1000,
      cacheWriteTokens: 200,
      compactionSteps: 1,
      compactionInputTokens: 3000,
      compactionOutputTokens: 400,
    };
    const out = await compactAnthropic(server.url);
    expect(out.report.calls.length).toBeGreaterThan(0);
    for (const c of out.report.calls) expect(c.usage).toEqual(expected);
    expect(out.report.callTotals.inputTokens).toBe(4250 * out.report.calls.length);
    // persisted in a session's compaction records and read back
    const at = join(mkdtempSync(join(tmpdir(), "safecut-iterations-")), "s.jsonl");
    const session = await openSession(at, { format: "anthropic" });
    await session.append(anthropicConversation({ turns: 6, seed: 13 }).messages as unknown as Json[]);
    await session.compact(config("anthropic", server.url), { env: {} });
    await session.close();
    const again = await openSession(at);
    const calls = (await again.compactions()).flatMap((r) => r.calls ?? []);
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c.usage).toEqual(expected);
    await again.close();
  });

  it("a call that failed is recorded too, unanswered and without usage", async () => {
    server = await startImitation("openai", () => ({ kind: "raw", status: 500, body: "{}" }));
    const out = await compactOpenAIMessages(openAIConversation({ turns: 6, seed: 11 }), config("openai", server.url), {
      env: {},
    });
    expect(out.report.outcome).toBe("degraded");
    expect(out.report.calls).toHaveLength(server.requests.length);
    expect(out.report.calls.every((c) => !c.answered && c.usage === undefined)).toBe(true);
  });
});

describe("hooks around a run", () => {
  const messages = () => openAIConversation({ turns: 6, seed: 11 });
  const good = (_n: number, req: RecordedRequest): Behavior => ({ kind: "summary", text: factfulAnswer(req) });

  it("before adds instructions to every prompt of the run; after gets the report", async () => {
    server = await startImitation("openai", good);
    const seen: { trigger: string; tokens: number; messages: number }[] = [];
    const after: CompactionReport[] = [];
    const out = await compactOpenAIMessages(messages(), config("openai", server.url), {
      env: {},
      hooks: {
        before: (info) => {
          seen.push(info);
          return { instructions: "Mention the ticket SAFE-42." };
        },
        after: (r) => after.push(r),
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].trigger).toBe("tokens");
    expect(seen[0].tokens).toBe(out.report.tokensBefore);
    expect(seen[0].messages).toBe(out.report.messagesBefore);
    expect(server.requests.length).toBeGreaterThan(0);
    for (const req of server.requests) expect(promptOf(req).endsWith("\n\nMention the ticket SAFE-42.")).toBe(true);
    expect(after).toEqual([out.report]);
    expect(out.report.outcome).toBe("compacted");
  });

  it("before may cancel: no call, nothing changed, the report says why", async () => {
    server = await startImitation("openai", good);
    const input = messages();
    const out = await compactOpenAIMessages(input, config("openai", server.url), {
      env: {},
      hooks: { before: async () => ({ cancel: "the user is typing" }) },
    });
    expect(server.requests).toHaveLength(0);
    expect(out.messages).toEqual(input);
    expect(out.report.outcome).toBe("still-due");
    expect(out.report.reason).toContain("the user is typing");
    expect(out.report.calls).toEqual([]);
    expect(out.report.laws.filter((l) => !l.ok)).toEqual([]);
  });

  it("before is not asked when the run is not due", async () => {
    server = await startImitation("openai", good);
    let asked = 0;
    const out = await compactOpenAIMessages(
      messages(),
      { ...config("openai", server.url), token_threshold: 10_000_000 },
      {
        env: {},
        hooks: { before: () => void asked++ },
      },
    );
    expect(asked).toBe(0);
    expect(out.report.outcome).toBe("nothing-to-do");
  });

  it("failure gets a degraded run's report, and a thrown error (thrown on)", async () => {
    server = await startImitation("openai", () => ({ kind: "raw", status: 500, body: "{}" }));
    const failures: RunFailure[] = [];
    const out = await compactOpenAIMessages(messages(), config("openai", server.url), {
      env: {},
      hooks: { failure: (f) => failures.push(f) },
    });
    expect(failures).toEqual([{ report: out.report }]);
    const boom = new Error("hook broke");
    await expect(
      compactOpenAIMessages(messages(), config("openai", server.url), {
        env: {},
        hooks: {
          before: () => {
            throw boom;
          },
          failure: (f) => failures.push(f),
        },
      }),
    ).rejects.toBe(boom);
    expect(failures[1]).toEqual({ error: boom });
  });

  it("call is told of each summarizer call: the record the report lists, and the stretches it asked for", async () => {
    server = await startImitation("openai", (_n: number, req: RecordedRequest): Behavior => {
      return { kind: "summary", text: factfulAnswer(req), usage: OPENAI_USAGE };
    });
    const events: SummarizerCallEvent[] = [];
    const out = await compactOpenAIMessages(
      messages(),
      { ...config("openai", server.url), batch_tokens: 0 },
      {
        env: {},
        hooks: { call: (e) => events.push(e) },
      },
    );
    expect(out.report.calls.length).toBeGreaterThan(0);
    expect(events.map((e) => e.record)).toEqual(out.report.calls);
    events.forEach((e, k) => {
      expect(e.record).toBe(out.report.calls[k]);
      expect(e.parts).toHaveLength(1);
      expect(e.parts[0].stretch.length).toBeGreaterThan(0);
    });
  });
});
