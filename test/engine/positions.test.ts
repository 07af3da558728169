// Report positions in the input's own messages: InputPositions against a brute-force replay, and
// the file-message mappings (an Anthropic message is one message however many parts it reads as).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { fileIndexes, fileMessageCount, internalWindow } from "../../src/engine/file-messages.ts";
import type { JsonObject } from "../../src/engine/json.ts";
import type { Message } from "../../src/engine/message.ts";
import { InputPositions } from "../../src/engine/positions.ts";

const plain = (n: number): Message[] => Array.from({ length: n }, (_, i) => ({ role: "user", content: `m${i}` }));

describe("InputPositions", () => {
  it("maps every splice, forward or not, to the input messages it replaced (brute-force replay)", () => {
    const splices = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 5 })), { maxLength: 30 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), splices, (n, ops) => {
        const pos = new InputPositions(plain(n));
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
    const pos = new InputPositions(plain(5));
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

  it("an Anthropic message is one file message; the top-level system is none", () => {
    expect(ms.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user", "assistant"]);
    expect(Array.from(fileIndexes(ms).of)).toEqual([-1, 0, 1, 2, 2, 2, 3]);
    expect(fileMessageCount(ms)).toBe(4);
  });

  it("the retention window covers whole file messages", () => {
    expect([1, 2, 3, 4, 5, 9].map((w) => internalWindow(ms, w))).toEqual([1, 4, 5, 6, 7, 9]);
    expect(internalWindow(plain(9), 4)).toBe(4);
    expect(internalWindow([], 6)).toBe(6);
  });
});
