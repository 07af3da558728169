// The overflow retry of the AI SDK hook and of the session helpers, in agent loops against
// loopback servers answering with each provider's real overflow body: overflowRetry (a language
// model middleware) around a model calling Google's, Anthropic's and an 8k OpenAI-compatible
// server in a generateText tool loop; sessionBeforeStep's overflowRetry on a session; sessionCall
// with the `openai` SDK. The first call overflows, the prompt (or session) is compacted, the one
// retry succeeds and the agent's next step goes on from the compacted history; a second overflow
// is an OverflowRetryError naming what was tried.
import { generateText, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from "ai";
import OpenAI from "openai";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { overflowRetry } from "../../src/library/ai-sdk.ts";
import { type OverflowRetry, OverflowRetryError } from "../../src/library/overflow-retry.ts";
import type { Json } from "../../src/model/json.ts";
import { sessionCall } from "../../src/session/agent-step.ts";
import { sessionBeforeStep } from "../../src/session/ai-sdk-session.ts";
import { openSession } from "../../src/session/open.ts";
import { logBackend, removeFresh } from "../session/backends.ts";
import { buildLog, serverPool } from "../support/agent-overflow-server.ts";
import { httpAgentModel } from "../support/http-agent-model.ts";

const pool = serverPool();
const serve = pool.serve;
afterEach(pool.closeAll);
afterAll(removeFresh);

const log = buildLog;

/** An AI SDK agent's history: `rounds` tool calls, each answered by a log of `chars`. */
function history(rounds: number, chars: number): ModelMessage[] {
  const ms: ModelMessage[] = [{ role: "user", content: "Build the project and tell me when it is green." }];
  for (let i = 0; i < rounds; i++) {
    ms.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "run", input: {} }] });
    ms.push({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: `c${i}`, toolName: "run", output: { type: "text", value: log(i, chars) } },
      ],
    });
  }
  ms.push({ role: "user", content: "Is it green now?" });
  return ms;
}

const CONFIG = { provider: "offline" } as const;
const tools = { ls: tool({ inputSchema: z.object({}), execute: async () => "a.ts b.ts" }) };

describe("overflowRetry (AI SDK middleware)", () => {
  for (const [api, window] of [
    ["google", 8000],
    ["anthropic", 8000],
    ["vllm", 8192],
  ] as const) {
    it(`${api}: the agent's call overflows, is compacted, retried once, and the loop goes on compacted`, async () => {
      const server = await serve(api, window);
      const retries: OverflowRetry[] = [];
      const model = wrapLanguageModel({
        model: httpAgentModel(api, server.url, "ls", "all green"),
        middleware: overflowRetry(CONFIG, { onRetry: (r) => retries.push(r) }),
      });
      const result = await generateText({
        model,
        system: "You are a build agent.",
        messages: history(24, 2000),
        tools,
        stopWhen: stepCountIs(3),
      });
      expect(result.text).toBe("all green");
      // step 1: refused, retried compacted; step 2: sent compacted at once
      expect(server.requests.map((q) => q.status)).toEqual([400, 200, 200]);
      expect(server.requests[0]?.promptTokens).toBeGreaterThan(window);
      expect(server.requests[1]?.promptTokens).toBeLessThanOrEqual(window);
      expect(server.requests[2]?.promptTokens).toBeLessThanOrEqual(window);
      expect(retries).toHaveLength(1);
      expect(retries[0]?.overflow).toMatchObject({
        contextWindow: window,
        promptTokens: server.requests[0]?.promptTokens,
      });
      expect(JSON.stringify(server.requests[1]?.body)).toContain("You are a build agent.");
    });
  }

  it("a second overflow is an OverflowRetryError naming what was tried", async () => {
    const server = await serve("google", 400);
    const model = wrapLanguageModel({
      model: httpAgentModel("google", server.url, "ls", "all green"),
      middleware: overflowRetry(CONFIG),
    });
    const messages = [...history(24, 2000), { role: "user" as const, content: log(99, 2400) }];
    const e = await generateText({ model, messages, tools, maxRetries: 0 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OverflowRetryError);
    expect(server.requests.map((q) => q.status)).toEqual([400, 400]);
    const m = (e as Error).message;
    expect(m).toMatch(/overflowed twice: first google HTTP 400 \(\d+ tokens > 400\)/);
    expect(m).toMatch(/took it from \d+ to \d+ tokens, cleared \d+ tool results/);
  });
});

describe("session helpers", () => {
  it("sessionBeforeStep's overflowRetry compacts the session and the loop goes on from it", async () => {
    const server = await serve("vllm", 8192);
    const s = await openSession(logBackend.fresh(), { format: "ai-sdk" });
    const retries: OverflowRetry[] = [];
    // no trigger fires on the way: only the provider's refusal makes the run due
    const hook = sessionBeforeStep(s, { ...CONFIG, token_threshold: 1_000_000 }, { onRetry: (r) => retries.push(r) });
    const messages = await hook.start(history(24, 2000));
    const model = wrapLanguageModel({
      model: httpAgentModel("vllm", server.url, "ls", "all green"),
      middleware: hook.overflowRetry,
    });
    const result = await generateText({
      model,
      messages,
      tools,
      stopWhen: stepCountIs(3),
      prepareStep: hook.prepareStep,
    });
    await hook.finish(result.response.messages);
    expect(result.text).toBe("all green");
    expect(server.requests.map((q) => q.status)).toEqual([400, 200, 200]);
    expect(server.requests[2]?.promptTokens).toBeLessThanOrEqual(8192);
    expect(retries).toHaveLength(1);
    expect((await s.compactions()).length).toBe(1);
    const context = await s.context();
    expect(JSON.stringify(context)).toContain("all green");
    await s.close();
  });

  it("sessionCall: an overflow compacts the session and the one retry succeeds; a second is named", async () => {
    const server = await serve("openai", 8192);
    const client = new OpenAI({ baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });
    const s = await openSession(logBackend.fresh(), { format: "openai" });
    const items: Json[] = [{ role: "user", content: "Build it." }];
    for (let i = 0; i < 24; i++) {
      items.push({
        role: "assistant",
        content: null,
        tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "run", arguments: "{}" } }],
      });
      items.push({ role: "tool", tool_call_id: `call_${i}`, content: log(i, 2000) });
    }
    items.push({ role: "user", content: "Is it green now?" });
    const call = (ms: Json[]) =>
      client.chat.completions.create({
        model: "gpt-4o-mini",
        messages: ms as unknown as OpenAI.ChatCompletionMessageParam[],
      });
    const r = await sessionCall(s, items, call, { ...CONFIG, token_threshold: 1_000_000 });
    expect(server.requests.map((q) => q.status)).toEqual([400, 200]);
    expect(r.result.choices[0]?.message.content).toContain("green");
    expect(r.retry?.overflow.provider).toBe("openai");
    expect(r.items).toEqual(await s.context());
    expect(r.items.length).toBeLessThan(items.length);
    // the next turn: far over any window again, the last message alone: the retry is named
    const big = { role: "user", content: log(100, 40_000) };
    const e = await sessionCall(s, [big], call, { ...CONFIG, token_threshold: 1_000_000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OverflowRetryError);
    expect((e as Error).message).toMatch(/openai HTTP 400/);
    await s.close();
  });
});
