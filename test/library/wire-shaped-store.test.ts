// ConversationStore takes safecut's own messages; given a provider's wire messages it says so and
// names the readers (issue 34, part 6), instead of an error about one field.
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { charCounter } from "../../src/model/tokens.ts";

const cases: [string, unknown[], string][] = [
  [
    "OpenAI chat",
    [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "a", content: "x" },
    ],
    "messages[1]: this is an OpenAI chat message",
  ],
  [
    "Anthropic",
    [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    "messages[0]: this is a provider's message with content blocks",
  ],
  [
    "OpenAI Responses",
    [{ type: "function_call", call_id: "a", name: "f", arguments: "{}" }],
    "messages[0]: this is an OpenAI Responses item",
  ],
];

describe("ConversationStore given wire-shaped messages", () => {
  it.each(cases)("%s: says it is a provider's shape and names the readers", (_n, messages, says) => {
    expect(() => new ConversationStore(charCounter(), messages as never)).toThrow(says);
    expect(() => new ConversationStore(charCounter(), messages as never)).toThrow(
      /readOpenAIMessages or readAnthropicMessages/,
    );
  });

  it("a malformed message of safecut's own shape keeps its field's error", () => {
    expect(() => new ConversationStore(charCounter(), [{ role: "user", content: 3 }] as never)).toThrow(
      "messages[0].content: expected a string",
    );
  });
});
