// The item mapping of the adapters whose items are not one-to-one with engine messages: the
// retention window in items turned into engine messages, and report positions turned into items.
import { describe, expect, it } from "vitest";
import { engineWindow, type ItemMap, itemReport } from "../../src/adapters/item-map.ts";
import type { CompactionReport, ReplacedStretch } from "../../src/engine/report.ts";

// items 0..4; item 1 gave two engine messages (a tool message with two results), items 2 and 3
// share one (a reasoning item and its call)
const MAP: ItemMap = {
  items: 5,
  spans: [
    { first: 0, last: 0 },
    { first: 1, last: 1 },
    { first: 1, last: 1 },
    { first: 2, last: 3 },
    { first: 4, last: 4 },
  ],
};

/** A stretch [start, end) of the engine's step positions, standing for input messages first..last. */
function stretch(start: number, end: number, first: number, last: number): ReplacedStretch {
  return {
    start,
    end,
    replacedMessages: end - start,
    replacedTokens: 100,
    summaryTokens: 10,
    attempts: 1,
    decision: "commit",
    summary: "s",
    input: { first, last },
    trigger: "tokens/messages/turns",
  };
}

function report(stretches: ReplacedStretch[], before: number, after: number): CompactionReport {
  return {
    outcome: "compacted",
    reason: "",
    tokensBefore: 1000,
    tokensAfter: 100,
    messagesBefore: before,
    messagesAfter: after,
    dueBefore: true,
    dueAfter: false,
    stretches,
    skipped: [],
    watermark: 0,
    summarizer: "offline",
    tokenizer: "chars",
    laws: [],
  };
}

describe("engineWindow", () => {
  it("keeps every engine message holding one of the last N items", () => {
    expect(engineWindow(MAP, 1)).toBe(1); // item 4
    expect(engineWindow(MAP, 2)).toBe(2); // item 3 shares its message with item 2
    expect(engineWindow(MAP, 3)).toBe(2);
    expect(engineWindow(MAP, 4)).toBe(4); // item 1: both of its messages
    expect(engineWindow(MAP, 9)).toBe(5);
  });
});

describe("itemReport", () => {
  it("counts items, and places each stretch in the items of its moment", () => {
    // step 1 replaces engine messages 1..2 (all of item 1); step 2 then replaces the summary and
    // the grouped message (engine 1..2 of the new list: the summary and items 2-3)
    // (the engine reports input messages 1..2, then 1..3: the second rolls up the first's range)
    const r = itemReport(report([stretch(1, 3, 1, 2), stretch(1, 3, 1, 3)], 5, 3), MAP);
    expect(r.messagesBefore).toBe(5);
    expect(r.stretches.map((s) => [s.input.first, s.input.last])).toEqual([
      [1, 1],
      [1, 3],
    ]);
    expect(r.stretches.map((s) => [s.start, s.end])).toEqual([
      [1, 3],
      [1, 3],
    ]); // the step positions L6 replays stay
    expect(r.messagesAfter).toBe(3); // item 0, the summary, item 4
  });

  it("a stretch that cuts an item leaves the rest of it as an item of its own", () => {
    // only the first engine message of item 1 is replaced: the summary and the rest of item 1
    const r = itemReport(report([stretch(1, 2, 1, 1)], 5, 5), MAP);
    expect(r.stretches.map((s) => [s.input.first, s.input.last])).toEqual([[1, 1]]);
    expect(r.messagesAfter).toBe(6);
  });
});
