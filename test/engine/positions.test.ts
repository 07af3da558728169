// Report positions in the input's own items: InputPositions against a brute-force replay, and
// the item mappings (an Anthropic message is one item however many parts it reads as).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { type ItemMap, itemMapOf } from "../../src/engine/run/item-map.ts";
import { InputPositions } from "../../src/engine/run/positions.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { InputError } from "../../src/model/errors.ts";
import type { JsonObject } from "../../src/model/json.ts";
import type { Message } from "../../src/model/message.ts";

const plain = (n: number): Message[] => Array.from({ length: n }, (_, i) => ({ role: "user", content: `m${i}` }));

describe("InputPositions", () => {
  it("maps every splice, forward or not, to the input messages it replaced (brute-force replay)", () => {
    const splices = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 5 })), { maxLength: 30 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), splices, (n, ops) => {
        const pos = new InputPositions(itemMapOf(plain(n)));
        // each entry: the input messages [from, to) it stands for
        let now: [number, number][] = Array.from({ length: n }, (_, i) => [i, i + 1]);
        for (const [a, len] of ops) {
          const start = a % now.length;
          const end = Math.min(now.length, start + 1 + len);
          const expected = { first: now[start][0], last: now[end - 1][1] - 1 };
          expect(pos.range(start, end)).toEqual(expected);
          expect(pos.splice(start, end)).toEqual(expected);
          now = [...now.slice(0, start), [expected.first, expected.last + 1], ...now.slice(end)];
        }
      }),
      { numRuns: 300 },
    );
  });

  it("counts messages appended after the start one file message each", () => {
    const pos = new InputPositions(itemMapOf(plain(5)));
    pos.splice(1, 3); // 5 -> 4 messages; then 2 are appended (positions 4, 5)
    expect(pos.range(4, 6)).toEqual({ first: 5, last: 6 });
  });
});

describe("file messages", () => {
  const wire: JsonObject[] = [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "a", name: "f", input: {} },
        { type: "tool_use", id: "b", name: "f", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: "A" },
        { type: "tool_result", tool_use_id: "b", content: "B" },
        { type: "text", text: "next" },
      ],
    },
    { role: "assistant", content: "ok" },
  ];
  const ms = readAnthropicMessages(wire, "the system");

  const window = (m: readonly Message[], w: number) => new InputPositions(itemMapOf(m)).window(m.length, w);

  it("an Anthropic message is one item; the top-level system is none", () => {
    expect(ms.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user", "assistant"]);
    const map = itemMapOf(ms);
    expect(map.spans.map((s) => [s.first, s.last])).toEqual([
      [0, -1],
      [0, 0],
      [1, 1],
      [2, 2],
      [2, 2],
      [2, 2],
      [3, 3],
    ]);
    expect(map.items).toBe(4);
  });

  it("the retention window covers whole items", () => {
    expect([1, 2, 3, 4, 5, 9].map((w) => window(ms, w))).toEqual([1, 4, 5, 6, 7, 9]);
    expect(window(plain(9), 4)).toBe(4);
    expect(window([], 6)).toBe(6);
  });
});

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

describe("items that are not one per message", () => {
  it("keeps every engine message holding one of the last N items in the window", () => {
    const pos = new InputPositions(MAP);
    expect([1, 2, 3, 4, 9].map((w) => pos.window(5, w))).toEqual([1, 2, 2, 4, 9]);
  });

  it("counts items, and places each stretch in the items of its moment", () => {
    const pos = new InputPositions(MAP);
    expect(pos.items(5)).toBe(5);
    // step 1 replaces engine messages 1..2 (all of item 1); step 2 then replaces the summary and
    // the grouped message (engine 1..2 of the new list: the summary and items 2-3)
    expect(pos.splice(1, 3)).toEqual({ first: 1, last: 1 });
    expect(pos.items(4)).toBe(5); // item 0, the summary, items 2-3, item 4
    expect(pos.splice(1, 3)).toEqual({ first: 1, last: 3 });
    expect(pos.items(3)).toBe(3); // item 0, the summary, item 4
    expect(pos.items(5)).toBe(5); // two messages appended since: one item each
  });

  it("counts an item cut in two once on each side of the summary", () => {
    const pos = new InputPositions(MAP);
    // replaces item 0 and the first engine message of item 1: what is left of item 1 is one item
    expect(pos.splice(0, 2)).toEqual({ first: 0, last: 1 });
    expect(pos.items(4)).toBe(5); // the summary, item 1's rest, items 2 and 3, item 4
  });

  it("counts items the same way as a brute-force recount after any splices", () => {
    // random spans (continuations and groups) and random splices, against counting the
    // conversation's items from its messages' input spans after each splice
    const maps = fc
      .array(fc.constantFrom("start", "continue", "group"), { minLength: 1, maxLength: 25 })
      .map((kinds): ItemMap => {
        const spans: { first: number; last: number }[] = [];
        let next = 0;
        kinds.forEach((k, j) => {
          if (k === "continue" && j > 0) spans.push(spans[j - 1]);
          else {
            const size = k === "group" ? 2 : 1;
            spans.push({ first: next, last: next + size - 1 });
            next += size;
          }
        });
        return { items: next, spans };
      });
    fc.assert(
      fc.property(maps, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 4 })), { maxLength: 12 }), (map, ops) => {
        const pos = new InputPositions(map);
        // each entry: a summary, or input message q
        let now: ({ summary: true } | { q: number })[] = map.spans.map((_, q) => ({ q }));
        const recount = () =>
          now.reduce((n, e, p) => {
            if (!("q" in e)) return n + 1;
            const s = map.spans[e.q];
            const prev = p > 0 ? now[p - 1] : undefined;
            return n + (prev !== undefined && "q" in prev ? s.last - map.spans[prev.q].last : s.last - s.first + 1);
          }, 0);
        for (const [a, len] of ops) {
          const start = a % now.length;
          const end = Math.min(now.length, start + 1 + len);
          pos.splice(start, end);
          now = [...now.slice(0, start), { summary: true }, ...now.slice(end)];
          expect(pos.items(now.length)).toBe(recount());
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("compactMessages' items option", () => {
  it.each([
    [{ items: 2, spans: [{ first: 0, last: 0 }] }, "has 1 spans for 2 messages"],
    [
      {
        items: 2,
        spans: [
          { first: 0, last: 0 },
          { first: 2, last: 2 },
        ],
      },
      "spans[1] must start at item 0 or 1",
    ],
    [
      {
        items: 5,
        spans: [
          { first: 0, last: 0 },
          { first: 1, last: 1 },
        ],
      },
      "items must be 2",
    ],
  ])("refuses a map that does not fit the messages: %j", async (items, why) => {
    const run = compactMessages(plain(2), { token_threshold: 1 }, { items });
    await expect(run).rejects.toThrow(InputError);
    await expect(compactMessages(plain(2), { token_threshold: 1 }, { items })).rejects.toThrow(`options.items: ${why}`);
  });
});
