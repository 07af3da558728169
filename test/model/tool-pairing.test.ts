// The one tool-pairing rule (src/model/tool-pairing.ts): the incremental index accepts exactly
// the sequences the whole-list check accepts, answers each result with its call's position, and
// the whole-list check words each problem once, naming where both sides are.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertPairing, type PairingEvent, ToolPairing } from "../../src/model/tool-pairing.ts";

const event = fc.record({
  kind: fc.constantFrom("call" as const, "result" as const),
  id: fc.constantFrom("a", "b", "c"),
});

describe("tool pairing", () => {
  it("the incremental index and the whole-list check give the same verdict", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (raw) => {
        const events: PairingEvent[] = raw.map((e, i) => ({ ...e, path: `items[${i}]` }));
        const index = new ToolPairing();
        const calledAt = new Map<string, number>();
        let ok = true;
        events.forEach((e, i) => {
          if (!ok) return;
          if (e.kind === "call") {
            ok = index.addCalls([e], i);
            calledAt.set(e.id, i);
          } else {
            const at = index.answer(e.id);
            ok = at >= 0;
            // a result is answered with the position of the call it answers
            if (ok) expect(at).toBe(calledAt.get(e.id));
          }
        });
        if (ok) expect(() => assertPairing(events)).not.toThrow();
        else expect(() => assertPairing(events)).toThrow();
      }),
    );
  });

  it.each([
    [
      [
        ["call", "a"],
        ["call", "a"],
      ],
      'items[1]: duplicate tool call id "a" (already used at items[0])',
    ],
    [[["result", "a"]], 'items[0]: orphan tool result: no tool call has id "a"'],
    [
      [
        ["result", "a"],
        ["call", "a"],
      ],
      'items[0]: tool result for "a" comes before its call at items[1]',
    ],
    [
      [
        ["call", "a"],
        ["result", "a"],
        ["result", "a"],
      ],
      'items[2]: second tool result for "a" (first at items[1])',
    ],
  ] as const)("words each problem once: %j", (raw, message) => {
    const events = raw.map(([kind, id], i) => ({ kind, id, path: `items[${i}]` }));
    expect(() => assertPairing(events)).toThrow(message);
  });

  it("reports what a result would break without changing the index", () => {
    const index = new ToolPairing();
    expect(index.resultProblem("a")).toBe("orphan");
    index.addCalls([{ id: "a" }, { id: "b" }], 4);
    expect(index.firstDuplicate([{ id: "c" }, { id: "c" }])).toBe("c");
    expect(index.firstDuplicate([{ id: "b" }])).toBe("b");
    expect(index.resultProblem("a")).toBeNull();
    expect(index.answer("a")).toBe(4);
    expect(index.resultProblem("a")).toBe("second");
    expect(index.answer("a")).toBe(-1);
  });

  it("keeps calls of earlier messages: waiting ones answerable, answered ones a second result", () => {
    const index = new ToolPairing();
    index.addCalls([{ id: "a" }, { id: "b" }], 1);
    expect(index.answer("a")).toBe(1);
    // a later message's calls: "b" still waits, "a" was answered
    index.addCalls([{ id: "c" }], 3);
    expect(index.resultProblem("a")).toBe("second");
    expect(index.resultProblem("b")).toBeNull();
    expect(index.resultProblem("d")).toBe("orphan");
    expect(index.firstDuplicate([{ id: "a" }])).toBe("a");
    expect(index.answer("b")).toBe(1);
    expect(index.resultProblem("b")).toBe("second");
    expect(index.answer("b")).toBe(-1);
    expect(index.answer("c")).toBe(3);
    expect(index.addCalls([{ id: "b" }], 5)).toBe(false);
  });
});
