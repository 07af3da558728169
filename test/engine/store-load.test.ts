// The store reads a conversation in one pass (shape, pairing, counts, views) and lets
// assertWellFormed word the error only when that pass rejects. Its verdict and its error must be
// assertWellFormed's on every conversation, and what it builds must equal what message-by-message
// construction builds. Ids come from a pool of three, so duplicates, orphans, results before
// their call and second results are all common.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertWellFormed } from "../../src/engine/boundary/wellformed.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { kernelViews } from "../../src/engine/store/views.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";

const id = fc.constantFrom("a", "b", "c");
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.constantFrom<Message>(
    { role: "user", content: "u" },
    { role: "system", content: "s" },
    { role: "summary", content: "old" },
  ),
  fc.array(id, { maxLength: 3 }).map(
    (ids): Message => ({
      role: "assistant",
      content: "x",
      toolCalls: ids.map((i) => ({ id: i, name: "f", arguments: "{}" })),
    }),
  ),
  id.map((i): Message => ({ role: "tool", toolCallId: i, content: "r" })),
);

function errorOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe("the store's one-pass load", () => {
  it("accepts and rejects what assertWellFormed does, with its error, and builds the same views and counts", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (ms) => {
        const expected = errorOf(() => assertWellFormed(ms));
        let store: ConversationStore | undefined;
        const got = errorOf(() => {
          store = new ConversationStore(charCounter(), ms);
        });
        expect(got).toBe(expected);
        if (store === undefined) return;
        accepted++;
        const v = store.view().views;
        expect({
          roles: v.roles,
          callOf: v.callOf,
          lastAnswer: v.lastAnswer,
          ongoing: v.ongoing,
          userTurns: v.userTurns,
        }).toEqual(kernelViews(ms));
        expect(store.tokenCounts()).toEqual(ms.map((m) => messageTokens(charCounter(), m)));
        expect(store.messages).toEqual(ms);
        expect(store.messages).not.toBe(ms);
      }),
      { numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it("leaves waiting calls answerable by appends, and rejects what appends must reject", () => {
    const ms: Message[] = [
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "f", arguments: "" },
          { id: "b", name: "f", arguments: "" },
        ],
      },
      { role: "tool", toolCallId: "a", content: "r" },
    ];
    const store = new ConversationStore(charCounter(), ms);
    expect(errorOf(() => store.append({ role: "tool", toolCallId: "a", content: "again" }))).toBe(
      'messages[3]: second tool result for "a"',
    );
    expect(
      errorOf(() =>
        store.append({ role: "assistant", content: "", toolCalls: [{ id: "b", name: "f", arguments: "" }] }),
      ),
    ).toBe('messages[3]: duplicate tool call id "b"');
    store.append({ role: "tool", toolCallId: "b", content: "r" });
    const v = store.view().views;
    expect({
      roles: v.roles,
      callOf: v.callOf,
      lastAnswer: v.lastAnswer,
      ongoing: v.ongoing,
      userTurns: v.userTurns,
    }).toEqual(kernelViews(store.messages));
  });

  it("builds its views when first read (after an append, a splice or a clearing too): the same as message-by-message construction", () => {
    const plain = (v: ReturnType<typeof kernelViews>) => ({
      roles: [...v.roles],
      callOf: [...v.callOf],
      lastAnswer: [...v.lastAnswer],
      ongoing: [...v.ongoing],
      userTurns: v.userTurns,
    });
    let changed = 0;
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), message, fc.nat(3), (ms, next, how) => {
        let store: ConversationStore;
        try {
          store = new ConversationStore(charCounter(), ms);
        } catch {
          return;
        }
        // read before the views exist: the load's own count
        expect(store.userTurns).toBe(kernelViews(ms).userTurns);
        if (how === 0) {
          if (errorOf(() => store.append(next)) !== undefined) return;
        } else if (how === 1) {
          // a caller's own summary over the first message (then the views are rebuilt and re-checked)
          if (ms.length === 0 || ms[0].role !== "user") return;
          store.commitSplice(store.view(), 0, 1, { role: "summary", content: "s" });
        } else if (how === 2) {
          const t = ms.findIndex((m) => m.role === "tool");
          if (t < 0) return;
          const m = ms[t];
          const cleared: Message = { ...m, content: "[cleared]" };
          store.commitClearing({ version: store.version, length: ms.length }, [
            { index: t, message: cleared, tokens: 1 },
          ]);
        }
        changed++;
        expect(store.userTurns).toBe(kernelViews(store.messages).userTurns);
        expect(plain(store.view().views)).toEqual(plain(kernelViews(store.messages)));
      }),
      { numRuns: 3_000 },
    );
    expect(changed).toBeGreaterThan(150);
  });
});
