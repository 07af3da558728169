// The store's byte counts (the byte budget's, max_request_bytes): left uncounted by a load until
// something reads them, then kept incrementally by appends, splices (a summary in place of a
// stretch) and clearing (a placeholder in place of a result), never recounted; after any sequence
// of them, whenever the counts are first read, the total and the per-message counts are what
// counting every message again (messageBytes) gives. A decision without a byte budget never reads them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { clearedMessage } from "../../src/engine/run/clearing.ts";
import { storeDueBy } from "../../src/engine/run/plan.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { summaryMessage } from "../../src/model/message.ts";
import { messageBytes } from "../../src/model/message-bytes.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

/** A user turn, one call and its result of `chars` characters. */
function round(k: number, chars: number): Message[] {
  return [
    { role: "user", content: `turn ${k}` },
    { role: "assistant", content: "", toolCalls: [{ id: `c${k}`, name: "read", arguments: `{"k":${k}}` }] },
    { role: "tool", toolCallId: `c${k}`, content: "é".repeat(chars) },
  ];
}

const recount = (s: ConversationStore) => s.messages.map(messageBytes);

describe("the store's byte counts", () => {
  it("follow appends, splices and clearing exactly, without recounting, whenever first read", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.constantFrom("append", "splice", "clear"), fc.nat(1000), fc.nat(400)), { maxLength: 12 }),
        fc.nat(13),
        (sizes, ops, firstRead) => {
          const store = new ConversationStore(
            charCounter(),
            sizes.flatMap((n, k) => round(k, n)),
          );
          let next = sizes.length;
          for (const [k, [op, a, b]] of ops.entries()) {
            const ms = store.messages;
            if (op === "append") for (const m of round(next++, b)) store.append(m);
            else if (op === "splice") {
              // a whole round (user, call, result) is a coherent stretch
              const r = a % Math.floor(ms.length / 3);
              const start = 3 * r + 1;
              if (ms[start]?.role === "assistant" && ms[start + 1]?.role === "tool")
                store.commitSplice(store.view(), start, start + 2, summaryMessage("x".repeat(b)));
            } else {
              const i = ms.findIndex((m, k) => k >= a % ms.length && m.role === "tool" && m.clearedFrom === undefined);
              const m = ms[i];
              if (m?.role === "tool") {
                const next = clearedMessage(m, "[cleared: {chars} chars]");
                store.commitClearing(store.view(), [{ index: i, message: next, tokens: 1 }]);
              }
            }
            // before the first read the counts are not made (a view's byte entries would make them)
            if (k < firstRead) {
              expect(store.countedBytes()).toBeUndefined();
              continue;
            }
            expect(store.byteCountsList()).toEqual(recount(store));
            expect(store.totalBytes).toBe(recount(store).reduce((x, y) => x + y, 0));
            expect(store.view().totalBytes).toBe(store.totalBytes);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("are not counted by a decision without a byte budget, and counted with one", async () => {
    const ms = Array.from({ length: 40 }, (_, k) => round(k, 300)).flat();
    const none = parseConfig({ token_threshold: 2000 });
    const store = new ConversationStore(charCounter(), ms);
    expect(storeDueBy(store, none)).toBe("tokens");
    expect(store.countedBytes()).toBeUndefined();
    const budget = parseConfig({ token_threshold: 1_000_000, max_request_bytes: 20_000 });
    expect(storeDueBy(store, budget)).toBe("request bytes");
    expect(store.countedBytes()).toEqual(ms.map(messageBytes));
    // the dry run's report is the same whether the counts were made or not
    const summarizer = offlineSummarizer(charCounter());
    const dry = await compactMessages(ms, none, { dryRun: true, counter: charCounter(), summarizer });
    expect(dry.report.plannedStretch).toBeDefined();
    expect(dry.report.bytes).toBeUndefined();
    const withBytes = await compactMessages(ms, budget, { dryRun: true, counter: charCounter(), summarizer });
    expect(withBytes.report.bytes?.before).toBe(ms.map(messageBytes).reduce((x, y) => x + y, 0));
  });

  it("count UTF-8 bytes, and a cleared result no longer counts what it replaced", () => {
    const store = new ConversationStore(charCounter(), round(0, 1000));
    const before = store.totalBytes;
    const m = store.messages[2];
    if (m.role !== "tool") throw new Error("a tool result expected");
    // "é" is two bytes in UTF-8: the result's 1000 characters are 2000 bytes
    expect(messageBytes(m)).toBeGreaterThanOrEqual(2000);
    store.commitClearing(store.view(), [{ index: 2, message: clearedMessage(m, "[cleared]"), tokens: 1 }]);
    expect(before - store.totalBytes).toBeGreaterThan(1900);
  });
});
