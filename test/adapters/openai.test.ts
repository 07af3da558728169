import { describe, expect, it } from "vitest";
import { readOpenAIMessages, writeOpenAIMessages } from "../../src/adapters/openai.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Json } from "../../src/model/json.ts";
import type { Message } from "../../src/model/message.ts";
import { openAIConversation } from "../support/generate.ts";

describe("OpenAI adapter", () => {
  it("round-trips a generated conversation exactly", () => {
    const wire = openAIConversation({ turns: 5 });
    const msgs = readOpenAIMessages(wire);
    expect(writeOpenAIMessages(msgs)).toEqual(wire);
    expect(msgs.filter((m) => m.role === "tool").length).toBeGreaterThan(0);
  });

  it("maps roles, tool calls and content parts", () => {
    const msgs = readOpenAIMessages([
      { role: "developer", content: "be brief" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:x" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: '{"dir":"."}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "a.ts" },
      { role: "assistant", content: "<summary>\nearlier work\n</summary>" },
    ]);
    expect(msgs.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "summary"]);
    expect(msgs[1].content).toBe("look");
    const a = msgs[2] as Extract<Message, { role: "assistant" }>;
    expect(a.toolCalls).toEqual([{ id: "c1", name: "ls", arguments: '{"dir":"."}' }]);
    expect(msgs[4].content).toBe("earlier work");
  });

  it("writes new messages in OpenAI shape, summaries wrapped in the tag", () => {
    const out = writeOpenAIMessages(
      [
        { role: "summary", content: "did things" },
        { role: "assistant", content: "", toolCalls: [{ id: "x", name: "f", arguments: "{}" }] },
        { role: "tool", toolCallId: "x", content: "ok" },
      ],
      { summaryTag: "recap" },
    );
    expect(out).toEqual([
      { role: "assistant", content: "<recap>\ndid things\n</recap>" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "x", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "x", content: "ok" },
    ]);
    // and reading them back restores the summary role
    expect(readOpenAIMessages(out as Json, "messages", { summaryTag: "recap" })[0]).toMatchObject({
      role: "summary",
      content: "did things",
    });
  });

  it.each([
    [
      [
        { role: "user", content: "a" },
        { role: "system", content: "b" },
        { role: "x", content: "c" },
        { role: "robot", content: "d" },
      ],
      'messages[2].role: unknown role "x"',
    ],
    [[{ role: 3 }], "messages[0].role: expected a string, got a number"],
    [["hi"], "messages[0]: expected a message object, got a string"],
    [[{ role: "tool", content: "x" }], "messages[0].tool_call_id: expected a string, got nothing (field missing)"],
    [
      [{ role: "assistant", content: null, tool_calls: [{ id: 1, function: { name: "f", arguments: "{}" } }] }],
      "messages[0].tool_calls[0].id: expected a string, got a number",
    ],
    [
      [{ role: "assistant", content: null, tool_calls: [{ id: "a" }] }],
      "messages[0].tool_calls[0].function: expected an object, got nothing (field missing)",
    ],
    [[{ role: "user", content: 5 }], "messages[0].content: expected a string, null or an array of parts, got a number"],
    [
      [{ role: "user", content: [{ type: "text", text: 1 }] }],
      "messages[0].content[0].text: expected a string, got a number",
    ],
  ])("names the JSON path of a bad shape: %j", (wire, message) => {
    expect(() => readOpenAIMessages(wire as Json)).toThrow(InputError);
    expect(() => readOpenAIMessages(wire as Json)).toThrow(message);
  });

  it("names the unknown role like messages[3].role", () => {
    const wire = [
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
      { role: "user", content: "c" },
      { role: "robot", content: "d" },
    ];
    expect(() => readOpenAIMessages(wire)).toThrow('messages[3].role: unknown role "robot"');
  });
});
