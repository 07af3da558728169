import { describe, expect, it } from "vitest";
import { assertWellFormed } from "../../src/engine/boundary/wellformed.ts";
import { kernelViews } from "../../src/engine/store/views.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Message } from "../../src/model/message.ts";

const call = (id: string): Message => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name: "f", arguments: "{}" }],
});
const result = (id: string): Message => ({ role: "tool", toolCallId: id, content: "r" });
const user: Message = { role: "user", content: "u" };

describe("well-formedness guard", () => {
  it("accepts paired calls and an ongoing call", () => {
    expect(() => assertWellFormed([user, call("a"), result("a"), call("b")])).not.toThrow();
  });
  it.each([
    [[user, result("x")], 'messages[1]: orphan tool result: no tool call has id "x"'],
    [
      [user, call("a"), result("a"), call("a")],
      'messages[3]: duplicate tool call id "a" (already used at messages[1])',
    ],
    [[user, result("a"), call("a")], 'messages[1]: tool result for "a" comes before its call at messages[2]'],
    [[user, call("a"), result("a"), result("a")], 'messages[3]: second tool result for "a" (first at messages[2])'],
  ])("rejects %#", (msgs, message) => {
    expect(() => assertWellFormed(msgs as Message[])).toThrow(InputError);
    expect(() => assertWellFormed(msgs as Message[])).toThrow(message);
  });
  it("names the input position when the message came from a file", () => {
    const m: Message = {
      role: "tool",
      toolCallId: "x",
      content: "",
      source: { format: "openai", index: 7, raw: {}, parts: 1 },
    };
    expect(() => assertWellFormed([m])).toThrow("messages[7]: orphan tool result");
  });
});

describe("kernel views", () => {
  it("maps tool pairing to callOf / lastAnswer / ongoing", () => {
    const two: Message = {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "a", name: "f", arguments: "" },
        { id: "b", name: "g", arguments: "" },
      ],
    };
    const v = kernelViews([user, two, result("a"), result("b"), call("c")]);
    expect(v.roles).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(v.callOf).toEqual([-1, -1, 1, 1, -1]);
    expect(v.lastAnswer).toEqual([-1, 3, -1, -1, -1]);
    expect(v.ongoing).toEqual([false, false, false, false, true]);
    expect(v.userTurns).toBe(1);
  });
});
