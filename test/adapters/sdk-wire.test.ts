// compactOpenAIMessages and compactAnthropicMessages on histories typed with the official SDKs'
// own types (ChatCompletionMessageParam, MessageParam): no casts in, the SDK's types out, the
// caller's own objects back where nothing changed. The compile-time side is sdk-types.typecheck.ts.
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions/completions";
import { describe, expect, it } from "vitest";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";

const long = (tag: string) => `${tag}: ${"output line of src/app.ts\n".repeat(60)}`;

function chatHistory(): ChatCompletionMessageParam[] {
  const h: ChatCompletionMessageParam[] = [{ role: "developer", content: [{ type: "text", text: "Be careful." }] }];
  for (let k = 0; k < 8; k++) {
    h.push({ role: "user", content: `step ${k}` });
    h.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id: `c${k}`, type: "function", function: { name: "read", arguments: `{"k":${k}}` } }],
    });
    h.push({ role: "tool", tool_call_id: `c${k}`, content: [{ type: "text", text: long(`c${k}`) }] });
    h.push({ role: "assistant", content: `done ${k}`, refusal: null });
  }
  return h;
}

function anthropicHistory(): MessageParam[] {
  const h: MessageParam[] = [];
  for (let k = 0; k < 8; k++) {
    h.push({ role: "user", content: [{ type: "text", text: `step ${k}`, cache_control: { type: "ephemeral" } }] });
    h.push({ role: "assistant", content: [{ type: "tool_use", id: `t${k}`, name: "read", input: { k } }] });
    h.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${k}`, content: long(`t${k}`) }] });
    h.push({ role: "assistant", content: `done ${k}` });
  }
  return h;
}

describe("SDK-typed histories through the wire-format entry points", () => {
  it("OpenAI ChatCompletionMessageParam[]: compacted, untouched messages are the caller's objects", async () => {
    const h = chatHistory();
    const r = await compactOpenAIMessages(h, { token_threshold: 1500, tokenizer: "chars" });
    expect(r.report.outcome).toBe("compacted");
    expect(r.messages[0]).toBe(h[0]);
    for (let k = 1; k <= 6; k++) expect(r.messages[r.messages.length - k]).toBe(h[h.length - k]);
    expect(
      r.messages.some(
        (m) => m.role === "assistant" && typeof m.content === "string" && m.content.startsWith("<summary>"),
      ),
    ).toBe(true);
  });

  it("Anthropic MessageParam[]: compacted, the system and untouched messages are the caller's objects", async () => {
    const system = [{ type: "text" as const, text: "Be careful.", cache_control: { type: "ephemeral" as const } }];
    const messages = anthropicHistory();
    const r = await compactAnthropicMessages({ system, messages }, { token_threshold: 1500, tokenizer: "chars" });
    expect(r.report.outcome).toBe("compacted");
    expect(r.system).toBe(system);
    for (let k = 1; k <= 6; k++) expect(r.messages[r.messages.length - k]).toBe(messages[messages.length - k]);
  });
});
