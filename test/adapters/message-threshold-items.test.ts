// message_threshold counts the format's own items, as retention_window and the report do: an
// Anthropic message holding several tool results is one message, an AI SDK tool message with
// several results is one message, a Responses reasoning item and the item after it are two.
import type { ModelMessage } from "ai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactAnthropicMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import type { JsonObject } from "../../src/model/json.ts";

// every trigger but message_threshold off; a window of 1 leaves the rest eligible
const at = (n: number) => ({
  token_threshold: null,
  message_threshold: n,
  retention_window: 1,
  tokenizer: "chars" as const,
});
const long = "a long stretch of work that a summary can shorten. ".repeat(20);

// 6 Anthropic messages, read as 8 engine messages (3 tool results in one user message)
const ANTHROPIC: JsonObject[] = [
  { role: "user", content: "go" },
  {
    role: "assistant",
    content: [
      { type: "text", text: long },
      { type: "tool_use", id: "a", name: "f", input: {} },
      { type: "tool_use", id: "b", name: "f", input: {} },
      { type: "tool_use", id: "c", name: "f", input: {} },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "a", content: long },
      { type: "tool_result", tool_use_id: "b", content: long },
      { type: "tool_result", tool_use_id: "c", content: long },
    ],
  },
  { role: "assistant", content: long },
  { role: "user", content: "next" },
  { role: "assistant", content: "ok" },
];

// 5 AI SDK messages, read as 6 engine messages (2 tool results in one tool message)
const AI_SDK: ModelMessage[] = [
  { role: "user", content: "go" },
  {
    role: "assistant",
    content: [
      { type: "text", text: long },
      { type: "tool-call", toolCallId: "a", toolName: "f", input: {} },
      { type: "tool-call", toolCallId: "b", toolName: "f", input: {} },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "a", toolName: "f", output: { type: "text", value: long } },
      { type: "tool-result", toolCallId: "b", toolName: "f", output: { type: "text", value: long } },
    ],
  },
  { role: "user", content: "next" },
  { role: "assistant", content: "ok" },
];

// 6 Responses items, read as 5 engine messages (a reasoning item travels with its call)
const RESPONSES: ResponseInputItem[] = [
  { role: "user", content: "go" },
  { type: "reasoning", id: "rs_1", summary: [] },
  { type: "function_call", call_id: "a", name: "f", arguments: "{}" },
  { type: "function_call_output", call_id: "a", output: long },
  { type: "message", role: "assistant", content: long },
  { role: "user", content: "next" },
];

describe("message_threshold counts the format's items", () => {
  it("Anthropic: 6 messages are under a threshold of 7", async () => {
    const r = await compactAnthropicMessages({ messages: ANTHROPIC }, at(7));
    expect(r.report.messagesBefore).toBe(6);
    expect(r.report.dueBefore).toBe(false);
    expect(r.report.outcome).toBe("nothing-to-do");
  });

  it("Anthropic: 6 messages reach a threshold of 6", async () => {
    const r = await compactAnthropicMessages({ messages: ANTHROPIC }, at(6));
    expect(r.report.dueBefore).toBe(true);
    expect(r.report.stretches.length).toBeGreaterThan(0);
  });

  it("AI SDK: 5 messages are under a threshold of 6", async () => {
    const r = await compactModelMessages(AI_SDK, at(6));
    expect(r.report.messagesBefore).toBe(5);
    expect(r.report.dueBefore).toBe(false);
    expect(r.messages).toEqual(AI_SDK);
  });

  it("Responses: 6 items reach a threshold of 6", async () => {
    const r = await compactResponsesItems(RESPONSES, at(6));
    expect(r.report.messagesBefore).toBe(6);
    expect(r.report.dueBefore).toBe(true);
  });
});
