// The bad-input corpus for the library's main entry, compact(messages) (src/index.ts), which takes
// the engine's own message model ({ role, content, toolCalls, toolCallId }) that a caller builds
// by hand. fast-check builds valid histories, drops their source references, then breaks them the
// same way as the wire corpus (fields deleted, values of the wrong type, ids copied, messages
// replaced by junk, unknown roles). Every case must be a clear error naming messages[i] (and the
// field) or a lawful compaction; the frozen input must be untouched.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { ConversationStore, charCounter, compact } from "../../src/index.ts";
import type { Json } from "../../src/model/json.ts";
import type { Message } from "../../src/model/message.ts";
import { buildOpenAI, step } from "./corpus.ts";
import { attempt, corrupt, corruption, deepFreeze, expectClearError, expectLawfulResult } from "./judge.ts";

const CONFIG = { token_threshold: 60, tokenizer: "chars" as const, retention_window: 2, max_tokens: 400 };

/** A valid model history as a caller would build it: plain objects, no source references. */
function modelHistory(steps: Parameters<typeof buildOpenAI>[0]): Json[] {
  return readOpenAIMessages(buildOpenAI(steps)).map((m) => {
    const { source: _source, ...rest } = m;
    return JSON.parse(JSON.stringify(rest)) as Json;
  });
}

describe("malformed messages given to compact()", () => {
  it("give a clear error naming the message and field, or a lawful compaction; the input is untouched", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 2, maxLength: 16 }),
        fc.array(corruption, { minLength: 1, maxLength: 3 }),
        async (steps, cs) => {
          const msgs = modelHistory(steps);
          corrupt(msgs, cs);
          const input = deepFreeze(msgs);
          const copy = structuredClone(input);
          // malformed on purpose: what a JavaScript caller can pass whatever the declared type
          const r = await attempt(() => compact(input as unknown as Message[], CONFIG));
          expect(input).toEqual(copy);
          if (!r.ok) {
            expectClearError(r.error);
            return;
          }
          expectLawfulResult(copy as unknown as Message[], r.value.messages, r.value.report);
        },
      ),
      { numRuns: 600 },
    );
  });

  it.each<[string, unknown, RegExp]>([
    [
      "an assistant message without toolCalls",
      [
        { role: "user", content: "hi" },
        { role: "assistant", content: "x" },
      ],
      /^messages\[1\]\.toolCalls/,
    ],
    ["a numeric content", [{ role: "user", content: 5 }], /^messages\[0\]\.content/],
    ["an unknown role", [{ role: "robot", content: "x" }], /^messages\[0\]\.role/],
    ["a null message", [null], /^messages\[0\]/],
    ["toolCalls as a string", [{ role: "assistant", content: "x", toolCalls: "abc" }], /^messages\[0\]\.toolCalls/],
    [
      "a tool result without toolCallId",
      [
        { role: "assistant", content: "", toolCalls: [{ id: "a", name: "f", arguments: "{}" }] },
        { role: "tool", content: "r" },
      ],
      /^messages\[1\]\.toolCallId/,
    ],
  ])("%s is a clear error naming messages[i] and the field", async (_label, value, where) => {
    const r = await attempt(() => compact(deepFreeze(value) as Message[], CONFIG));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expectClearError(r.error);
      expect((r.error as Error).message).toMatch(where);
    }
  });

  it("a conversation that is not an array is a clear error", async () => {
    for (const v of ["not an array", 42, null, { messages: [] }]) {
      const r = await attempt(() => compact(v as unknown as Message[], CONFIG));
      expect(r.ok).toBe(false);
      if (!r.ok) expectClearError(r.error);
    }
  });
});

describe("malformed messages given to ConversationStore.append (the incremental API)", () => {
  it.each<[string, unknown, RegExp]>([
    ["an assistant message without toolCalls", { role: "assistant", content: "x" }, /^messages\[1\]\.toolCalls/],
    ["a numeric content", { role: "user", content: 5 }, /^messages\[1\]\.content/],
    ["an unknown role", { role: "robot", content: "x" }, /^messages\[1\]\.role/],
    ["null", null, /^messages\[1\]/],
  ])("%s is refused with an error naming messages[n] and the field; the store is unchanged", (_label, value, where) => {
    const store = new ConversationStore(charCounter(), [{ role: "user", content: "hello" }]);
    const before = structuredClone([...store.messages]);
    const total = store.totalTokens;
    let error: unknown;
    try {
      store.append(deepFreeze(value) as Message);
    } catch (e) {
      error = e;
    }
    expectClearError(error);
    expect((error as Error).message).toMatch(where);
    expect(store.messages).toEqual(before);
    expect(store.totalTokens).toBe(total);
  });
});
