import { describe, expect, it } from "vitest";
import { readAnthropicMessages, writeAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import { anthropicConversation } from "../support/generate.ts";

describe("Anthropic adapter", () => {
  it("round-trips a generated conversation exactly (system, tool_use, tool_result)", () => {
    const { system, messages } = anthropicConversation({ turns: 5 });
    const model = readAnthropicMessages(messages, system);
    expect(model[0]).toMatchObject({ role: "system", content: system });
    expect(model.some((m) => m.role === "tool")).toBe(true);
    expect(writeAnthropicMessages(model)).toEqual({ system, messages });
  });

  it("splits a user message into tool results then text, and merges them back", () => {
    const wire: JsonObject[] = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "calling" },
          { type: "tool_use", id: "t1", name: "ls", input: { d: "." } },
          { type: "tool_use", id: "t2", name: "cat", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "a.ts" },
          { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "boom" }], is_error: true },
          { type: "text", text: "and then?" },
        ],
      },
    ];
    const model = readAnthropicMessages(wire, undefined);
    expect(model.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(model[3]).toMatchObject({ role: "tool", toolCallId: "t2", content: "boom", isError: true });
    expect(model[1]).toMatchObject({
      toolCalls: [
        { id: "t1", name: "ls", arguments: '{"d":"."}' },
        { id: "t2", name: "cat", arguments: "{}" },
      ],
    });
    expect(writeAnthropicMessages(model).messages).toEqual(wire);
    // when the tool results are summarized away, the kept user text keeps its own blocks
    const kept = [model[0], { role: "summary" as const, content: "listed files" }, model[4]];
    expect(writeAnthropicMessages(kept).messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: "<summary>\nlisted files\n</summary>" },
      { role: "user", content: [{ type: "text", text: "and then?" }] },
    ]);
  });

  it("writes messages from another format in Anthropic shape", () => {
    const out = writeAnthropicMessages([
      { role: "system", content: "sys" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "", toolCalls: [{ id: "c", name: "f", arguments: '{"a":1}' }] },
      { role: "tool", toolCallId: "c", content: "r" },
      { role: "user", content: "next" },
    ]);
    expect(out).toEqual({
      system: "sys",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "c", name: "f", input: { a: 1 } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c", content: "r" },
            { type: "text", text: "next" },
          ],
        },
      ],
    });
  });

  it("names a bad top-level system", () => {
    expect(() => readAnthropicMessages([], 5)).toThrow(
      "system: expected a string or an array of text blocks, got a number",
    );
  });

  it.each([
    [[{ role: "developer", content: "x" }], 'messages[0].role: unknown role "developer"'],
    [
      [{ role: "system", content: 5 }],
      "messages[0].content: expected a string or an array of text blocks, got a number",
    ],
    [
      [{ role: "user", content: [{ type: "video" }] }],
      'messages[0].content[0].type: unknown content block type "video"',
    ],
    [
      [{ role: "user", content: 1 }],
      "messages[0].content: expected a string or an array of content blocks, got a number",
    ],
    [
      [{ role: "assistant", content: [{ type: "tool_use", id: "a", name: "f", input: [] }] }],
      `${"messages[0].input".replace("input", "content[0].input")}: expected an object, got an array`,
    ],
    [
      [{ role: "user", content: [{ type: "tool_result", content: "x" }] }],
      "messages[0].content[0].tool_use_id: expected a string",
    ],
  ])("names the JSON path of a bad shape: %j", (wire, message) => {
    expect(() => readAnthropicMessages(wire as Json, undefined)).toThrow(InputError);
    expect(() => readAnthropicMessages(wire as Json, undefined)).toThrow(message);
  });

  // what the SDK's MessageParam allows: a system-role message (SystemMessageParam) and a
  // tool_search_tool_result block (a server tool result, like web_search_tool_result)
  it("reads a system-role message in place and writes it back where it was", () => {
    const wire: JsonObject[] = [
      { role: "user", content: "hi" },
      { role: "system", content: [{ type: "text", text: "be brief" }] },
      { role: "assistant", content: "ok" },
    ];
    const model = readAnthropicMessages(wire, "top");
    expect(model.map((m) => [m.role, m.content])).toEqual([
      ["system", "top"],
      ["user", "hi"],
      ["system", "be brief"],
      ["assistant", "ok"],
    ]);
    const out = writeAnthropicMessages(model);
    expect(out).toEqual({ system: "top", messages: wire });
    expect(out.messages[1]).toBe(wire[1]);
  });

  it("accepts tool_search_tool_result blocks, and tool_reference blocks in a tool result", () => {
    const search = {
      type: "tool_search_tool_result",
      tool_use_id: "srv_1",
      content: {
        type: "tool_search_tool_search_result",
        tool_references: [{ type: "tool_reference", tool_name: "f" }],
      },
    };
    const wire: JsonObject[] = [
      { role: "user", content: "find a tool" },
      {
        role: "assistant",
        content: [
          { type: "server_tool_use", id: "srv_1", name: "tool_search_tool_regex", input: { query: "f" } },
          search,
          { type: "tool_use", id: "t1", name: "f", input: {} },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "tool_reference", tool_name: "f" }] }],
      },
    ];
    const model = readAnthropicMessages(wire, undefined);
    expect(model.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(writeAnthropicMessages(model)).toEqual({ messages: wire });
  });
});
