// The message shape check at every public entry that takes the engine's message model: exact
// error wording (path, field, what was found), the caller's objects kept as they are, and the
// entries beyond compact() and ConversationStore.append that the bad-input corpus does not reach.
import { describe, expect, it } from "vitest";
import { assertWellFormed } from "../../src/engine/boundary/wellformed.ts";
import { TokenLedger } from "../../src/engine/store/ledger.ts";
import {
  ConversationStore,
  charCounter,
  compact,
  readOpenAIMessages,
  requiredFacts,
  writeAnthropicMessages,
  writeConversationFile,
  writeOpenAIMessages,
} from "../../src/index.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Message } from "../../src/model/message.ts";
import { assertMessage, assertMessages } from "../../src/model/message-shape.ts";

function errorOf(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("no error thrown");
}

// malformed on purpose: what a JavaScript caller can pass whatever the declared type
const bad = (v: unknown) => v as Message[];

describe("assertMessages", () => {
  it.each<[unknown, string]>([
    ["abc", "messages: expected an array of messages, got a string"],
    [[null], "messages[0]: expected a message object, got null"],
    [
      [{ role: "robot", content: "x" }],
      'messages[0].role: unknown role "robot" (expected system, user, assistant, tool or summary)',
    ],
    [
      [{ content: "x" }],
      "messages[0].role: expected a role (system, user, assistant, tool or summary), got nothing (field missing)",
    ],
    [
      [
        { role: "user", content: "a" },
        { role: "user", content: "b" },
        { role: "user", content: "c" },
        { role: "assistant", content: "x" },
      ],
      "messages[3].toolCalls: expected an array, got nothing (field missing)",
    ],
    [
      [{ role: "assistant", content: "x", toolCalls: [{ id: 1, name: "f", arguments: "" }] }],
      "messages[0].toolCalls[0].id: expected a string, got a number",
    ],
    [
      [{ role: "assistant", content: "x", toolCalls: [7] }],
      "messages[0].toolCalls[0]: expected a tool call object, got a number",
    ],
    [[{ role: "tool", content: "r" }], "messages[0].toolCallId: expected a string, got nothing (field missing)"],
    [[{ role: "user", content: Number.NaN }], "messages[0].content: expected a string, got NaN"],
    [
      [{ role: "user", content: "x", source: { format: "xml", index: 0, raw: {}, parts: 1 } }],
      'messages[0].source.format: expected one of "openai", "anthropic", got "xml"',
    ],
  ])("%j -> %s", (value, message) => {
    const e = errorOf(() => assertMessages(value));
    expect(e.message).toBe(message);
    expect(e.kind).toBe("input");
  });

  it("returns the caller's own objects, unfrozen and uncopied, extra fields kept", () => {
    const m = {
      role: "assistant" as const,
      content: "x",
      toolCalls: [{ id: "a", name: "f", arguments: "{}" }],
      extra: 1,
    };
    expect(assertMessage(m, "messages[0]")).toBe(m);
    expect(Object.isFrozen(m) || Object.isFrozen(m.toolCalls)).toBe(false);
    expect(m).toEqual({
      role: "assistant",
      content: "x",
      toolCalls: [{ id: "a", name: "f", arguments: "{}" }],
      extra: 1,
    });
  });

  it("accepts what the adapters produce (source references included)", () => {
    const ms = readOpenAIMessages([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c", content: "r" },
    ]);
    expect(assertMessages(ms)).toBe(ms);
  });
});

describe("every public entry taking messages checks their shape", () => {
  const noCalls = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "x" },
  ];
  const where = /^messages\[1\]\.toolCalls: expected an array/;

  it("compact, assertWellFormed, ConversationStore, TokenLedger", async () => {
    await expect(compact(bad(noCalls), { tokenizer: "chars" })).rejects.toThrow(where);
    expect(() => assertWellFormed(bad(noCalls))).toThrow(where);
    expect(() => new ConversationStore(charCounter(), bad(noCalls))).toThrow(where);
    expect(() => new TokenLedger(charCounter(), bad(noCalls))).toThrow(where);
    const ledger = new TokenLedger(charCounter(), bad(noCalls.slice(0, 1)));
    expect(() => ledger.append(bad(noCalls)[1])).toThrow(where);
    expect(ledger.total).toBe(new TokenLedger(charCounter(), bad(noCalls.slice(0, 1))).total);
  });

  it("the writers and requiredFacts", () => {
    expect(() => writeOpenAIMessages(bad(noCalls))).toThrow(where);
    expect(() => writeAnthropicMessages(bad(noCalls))).toThrow(where);
    expect(() => writeConversationFile(bad(noCalls), { format: "openai", container: "jsonl" })).toThrow(where);
    expect(() => requiredFacts(bad(noCalls), [])).toThrow(/^stretch\[1\]\.toolCalls: expected an array/);
  });

  it("a committed summary must be a summary message", () => {
    const store = new ConversationStore(charCounter(), [
      { role: "user", content: "a" },
      { role: "assistant", content: "b", toolCalls: [] },
    ]);
    const snap = store.snapshot();
    const e = errorOf(() =>
      store.commitSplice(snap, 1, 2, { role: "user", content: "s" } as unknown as Parameters<
        typeof store.commitSplice
      >[3]),
    );
    expect(e.message).toBe('summary.role: expected "summary", got "user"');
    expect(store.messages).toEqual(snap.messages);
  });
});
