// The wire helpers' overflow retry against loopback servers that enforce a window and answer with
// each provider's real overflow body: the `openai` SDK against OpenAI's and an 8k OpenAI-compatible
// server's (vLLM's and llama.cpp's wording), the `@anthropic-ai/sdk` against Anthropic's ("prompt is
// too long" and its 413 request_too_large): the first call overflows, the messages are compacted,
// the one retry fits and succeeds; a second overflow is an OverflowRetryError naming what was tried.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterEach, describe, expect, it } from "vitest";
import { retryAnthropicCall, retryOpenAICall } from "../../src/library/compact-wire.ts";
import { OverflowRetryError } from "../../src/library/overflow-retry.ts";
import { buildLog, serverPool } from "../support/agent-overflow-server.ts";

const pool = serverPool();
const serve = pool.serve;
afterEach(pool.closeAll);

const log = buildLog;

/** An agent's history in OpenAI's shape: `rounds` tool calls, each answered by a log of `chars`. */
function openAIHistory(rounds: number, chars: number): ChatCompletionMessageParam[] {
  const ms: ChatCompletionMessageParam[] = [
    { role: "system", content: "You are a build agent." },
    { role: "user", content: "Build the project and tell me when it is green." },
  ];
  for (let i = 0; i < rounds; i++) {
    ms.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "run", arguments: `{"step":${i}}` } }],
    });
    ms.push({ role: "tool", tool_call_id: `call_${i}`, content: log(i, chars) });
  }
  ms.push({ role: "user", content: "Is it green now?" });
  return ms;
}

/** The same history in Anthropic's shape. */
function anthropicHistory(rounds: number, chars: number): Anthropic.MessageParam[] {
  const ms: Anthropic.MessageParam[] = [{ role: "user", content: "Build the project and tell me when it is green." }];
  for (let i = 0; i < rounds; i++) {
    ms.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "run", input: { step: i } }] });
    ms.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: log(i, chars) }] });
  }
  ms.push({ role: "user", content: "Is it green now?" });
  return ms;
}

const CONFIG = { provider: "offline" } as const;

/** The history with the second tool result replaced by one holding a base64 PNG `data`. */
function withImage(messages: Anthropic.MessageParam[], data: string): void {
  messages.splice(4, 1, {
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [{ type: "image", source: { type: "base64", media_type: "image/png", data } }],
      },
    ],
  });
}

/** The agent's call to Anthropic with these messages. */
const sendAnthropic = (client: Anthropic, messages: unknown[]) =>
  client.messages.create({
    model: "claude-haiku-4-5",
    max_tokens: 1024,
    messages: messages as Anthropic.MessageParam[],
  });

describe("retryOpenAICall", () => {
  for (const api of ["openai", "vllm", "llamacpp"] as const) {
    it(`${api}: an overflow compacts the messages and the one retry succeeds`, async () => {
      const server = await serve(api, 8192);
      const client = new OpenAI({ baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });
      const history = openAIHistory(24, 2000);
      const r = await retryOpenAICall(
        history,
        (messages) => client.chat.completions.create({ model: "llama3", messages }),
        CONFIG,
      );
      expect(server.requests.map((q) => q.status)).toEqual([400, 200]);
      const [first, second] = server.requests;
      expect(first?.promptTokens).toBeGreaterThan(8192);
      expect(second?.promptTokens).toBeLessThanOrEqual(8192);
      expect(r.result.choices[0]?.message.content).toContain("green");
      expect(r.retry?.overflow.contextWindow).toBe(8192);
      expect(r.retry?.overflow.promptTokens).toBe(first?.promptTokens);
      expect(r.conversation.length).toBeLessThan(history.length);
      // the retry sent what the helper returned, and the last user turn is kept verbatim
      expect(r.conversation.at(-1)).toBe(history.at(-1));
    });
  }

  it("a call that fits is made once, untouched", async () => {
    const server = await serve("openai", 100_000);
    const client = new OpenAI({ baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });
    const history = openAIHistory(4, 500);
    const r = await retryOpenAICall(
      history,
      (messages) => client.chat.completions.create({ model: "m", messages }),
      CONFIG,
    );
    expect(server.requests.length).toBe(1);
    expect(r.retry).toBeUndefined();
    expect(r.conversation).toEqual(history);
  });

  it("a second overflow is an error naming what was tried", async () => {
    // the last user turn alone is over the window: nothing compaction may touch can make it fit
    const server = await serve("openai", 300);
    const client = new OpenAI({ baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });
    const history = openAIHistory(24, 2000);
    history.push({ role: "user", content: log(99, 2400) });
    const e = await retryOpenAICall(
      history,
      (messages) => client.chat.completions.create({ model: "m", messages }),
      CONFIG,
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OverflowRetryError);
    const err = e as OverflowRetryError;
    expect(server.requests.map((q) => q.status)).toEqual([400, 400]);
    expect(err.message).toMatch(/overflowed twice/);
    expect(err.message).toMatch(/took it from \d+ to \d+ tokens/);
    expect(err.message).toMatch(/cleared \d+ tool results/);
    expect(err.message).toContain("maximum context length is 300 tokens");
    expect(err.retryOverflow?.promptTokens).toBe(server.requests[1]?.promptTokens);
  });

  it("another error is thrown as it is, with no retry", async () => {
    const client = new OpenAI({ baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-test", maxRetries: 0 });
    const e = await retryOpenAICall(
      openAIHistory(2, 100),
      (messages) => client.chat.completions.create({ model: "m", messages }),
      CONFIG,
    ).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(OverflowRetryError);
    expect(e).toBeInstanceOf(OpenAI.APIConnectionError);
  });
});

describe("retryAnthropicCall", () => {
  it('"prompt is too long": compacts and the one retry succeeds', async () => {
    const server = await serve("anthropic", 8000);
    const client = new Anthropic({ baseURL: server.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const conversation = { system: "You are a build agent.", messages: anthropicHistory(24, 2000) };
    const r = await retryAnthropicCall(
      conversation,
      (c) =>
        client.messages.create({
          model: "claude-haiku-4-5",
          max_tokens: 1024,
          ...(c.system === undefined ? {} : { system: c.system }),
          messages: c.messages as Anthropic.MessageParam[],
        }),
      CONFIG,
    );
    expect(server.requests.map((q) => q.status)).toEqual([400, 200]);
    expect(server.requests[1]?.promptTokens).toBeLessThanOrEqual(8000);
    expect(r.retry?.overflow).toMatchObject({ provider: "anthropic", contextWindow: 8000 });
    expect(r.conversation.system).toBe("You are a build agent.");
  });

  it("HTTP 413 request_too_large: an image in an old tool result is compacted away and the retry fits", async () => {
    const image = Buffer.alloc(600_000, 7).toString("base64"); // 800 kB of base64, a handful of tokens to the provider
    const messages = anthropicHistory(12, 800);
    withImage(messages, image);
    const server = await serve("anthropic", 100_000, 500_000);
    const client = new Anthropic({ baseURL: server.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const r = await retryAnthropicCall({ messages }, (c) => sendAnthropic(client, c.messages), CONFIG);
    expect(server.requests.map((q) => q.status)).toEqual([413, 200]);
    expect(server.requests[0]?.bytes).toBeGreaterThan(500_000);
    expect(server.requests[1]?.bytes).toBeLessThanOrEqual(500_000);
    expect(r.retry?.overflow).toMatchObject({ provider: "anthropic", over: "bytes", status: 413 });
  });

  it("max_request_bytes: a conversation over Anthropic's 32 MB is compacted before it is sent, then fits", async () => {
    // 33 MB of base64 image in an old tool result: a few hundred tokens to the provider, over its size
    const image = Buffer.alloc(25 * 1024 * 1024, 7).toString("base64");
    const messages = anthropicHistory(12, 800);
    withImage(messages, image);
    const server = await serve("anthropic", 100_000, 32 * 1024 * 1024);
    const client = new Anthropic({ baseURL: server.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const r = await retryAnthropicCall({ messages }, (c) => sendAnthropic(client, c.messages), CONFIG);
    // one request, sent compacted: the provider never saw the 33 MB one
    expect(server.requests.map((q) => q.status)).toEqual([200]);
    expect(server.requests[0]?.bytes).toBeLessThan(1024 * 1024);
    expect(r.retry?.overflow).toMatchObject({ over: "bytes", status: 0, provider: "anthropic" });
    // the image's tool result went out with the stretch summarized (or the result cleared)
    expect((r.retry?.report.clearing?.results ?? 0) + (r.retry?.report.stretches.length ?? 0)).toBeGreaterThan(0);
    expect(JSON.stringify(r.conversation.messages)).not.toContain(image.slice(0, 1000));
  });

  it("max_request_bytes set by the user: a request over it that compaction cannot bring under is named, never sent", async () => {
    const server = await serve("anthropic", 100_000);
    const client = new Anthropic({ baseURL: server.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const messages = anthropicHistory(12, 800);
    // the newest message (kept by the retention window) holds the bytes
    messages.push({ role: "assistant", content: "ok" }, { role: "user", content: "x".repeat(300_000) });
    const e = await retryAnthropicCall({ messages }, (c) => sendAnthropic(client, c.messages), {
      ...CONFIG,
      max_request_bytes: 200_000,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OverflowRetryError);
    expect((e as Error).message).toMatch(/max_request_bytes 200000/);
    expect(server.requests).toHaveLength(0);
  });
});
