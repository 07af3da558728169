import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { checkLaws, replaySplices } from "../../src/engine/run/law-checks.ts";
import type { ReplacedStretch } from "../../src/engine/run/report.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";

// The runtime law checks must catch a wrong result; otherwise the CLI's exit code 4 guard is empty.
const c = parseConfig({ retention_window: 2 });
const before: Message[] = [
  { role: "system", content: "s" },
  { role: "user", content: "u1" },
  { role: "assistant", content: "", toolCalls: [{ id: "a", name: "f", arguments: "{}" }] },
  { role: "tool", toolCallId: "a", content: "long output" },
  { role: "assistant", content: "done", toolCalls: [] },
  { role: "user", content: "u2" },
  { role: "assistant", content: "ok", toolCalls: [] },
];
const stretch: ReplacedStretch = {
  start: 2,
  end: 5,
  replacedMessages: 3,
  replacedTokens: 30,
  summaryTokens: 5,
  attempts: 1,
  decision: "commit",
  summary: "sum",
  input: { first: 2, last: 4 },
  trigger: "tokens",
};
const good: Message[] = [before[0], before[1], { role: "summary", content: "sum" }, before[5], before[6]];
const tokens = { before: 50, after: 25, dueBefore: true };

function failing(after: Message[], stretches = [stretch], t = tokens): string[] {
  return checkLaws(before, after, stretches, c, t)
    .filter((l) => !l.ok)
    .map((l) => l.law);
}

describe("runtime law checks", () => {
  it("pass on a correct result", () => {
    expect(failing(good)).toEqual([]);
  });
  it("catch a reordered or altered user message (L2)", () => {
    expect(failing([before[0], { role: "user", content: "u1!" }, good[2], before[5], before[6]])).toContain("L2");
  });
  it("catch a changed retention window (L3)", () => {
    expect(failing([...good.slice(0, 4), { role: "assistant", content: "changed", toolCalls: [] }])).toContain("L3");
  });
  it("check the retention window in the file's own messages (L3): an Anthropic message is one however many blocks", () => {
    const wire = [
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
        ],
      },
      { role: "assistant", content: "ok" },
    ];
    const ms = readAnthropicMessages(wire, undefined);
    // the last 2 file messages are the last 3 messages read: changing the first tool result breaks L3
    const altered: Message[] = [...ms.slice(0, 2), { ...ms[2], content: "changed" }, ...ms.slice(3)];
    const l3 = (after: Message[]) =>
      checkLaws(ms, after, [], parseConfig({ retention_window: 2 }), { before: 9, after: 9, dueBefore: false }).find(
        (l) => l.law === "L3",
      );
    expect(l3(ms)).toMatchObject({ ok: true, detail: "last 2 messages" });
    expect(l3(altered)?.ok).toBe(false);
  });
  it("catch an orphan tool result (L5)", () => {
    const orphan: Message[] = [
      before[0],
      before[1],
      { role: "summary", content: "sum" },
      before[3],
      before[5],
      before[6],
    ];
    expect(failing(orphan, [{ ...stretch, end: 3 }])).toContain("L5");
  });
  it("catch a result that is not the recorded splice (L6)", () => {
    expect(failing([before[0], before[1], { role: "summary", content: "other" }, before[5], before[6]])).toContain(
      "L6",
    );
  });
  it("catch tokens not reduced (L8) and a compaction that was not due (L1)", () => {
    expect(failing(good, [stretch], { before: 50, after: 50, dueBefore: true })).toContain("L8");
    expect(failing(good, [stretch], { ...tokens, dueBefore: false })).toContain("L1");
  });
  it("on a result that is the input's own messages (nothing spliced), give the full comparison's verdicts and details", () => {
    const equalCopies = before.map((m) => structuredClone(m));
    const unchanged = { before: 50, after: 50, dueBefore: false };
    const full = checkLaws(before, equalCopies, [], c, unchanged); // other objects: every comparison runs
    expect(full.every((l) => l.ok)).toBe(true);
    expect(checkLaws(before, before.slice(), [], c, unchanged)).toEqual(full);
    expect(checkLaws(before, before.slice(), [], c, unchanged, { wellFormed: true })).toEqual(full);
    // the same objects in another order, one missing, or one more are not the input's own list
    const swapped = [before[1], before[0], ...before.slice(2)];
    expect(checkLaws(before, swapped, [], c, unchanged).find((l) => l.law === "L2")?.ok).toBe(false);
    expect(checkLaws(before, before.slice(1), [], c, unchanged).find((l) => l.law === "L2")?.ok).toBe(false);
    expect(checkLaws(before, [...before, before[1]], [], c, unchanged).find((l) => l.law === "L6")?.ok).toBe(false);
    // an unchecked input that is not well-formed still fails L5 when returned unchanged
    const orphan: Message[] = [before[0], before[3]];
    expect(checkLaws(orphan, orphan.slice(), [], c, unchanged).find((l) => l.law === "L5")?.ok).toBe(false);
  });
});

// The plain definition of L6's replay: apply each splice to a fresh copy (O(messages x splices)).
function replayByCopies(ms: readonly Message[], stretches: readonly ReplacedStretch[]): readonly Message[] {
  let r: readonly Message[] = ms;
  for (const s of stretches) r = [...r.slice(0, s.start), summaryMessage(s.summary), ...r.slice(s.end)];
  return r;
}

const splice = (start: number, end: number, summary: string): ReplacedStretch => ({
  ...stretch,
  start,
  end,
  replacedMessages: end - start,
  summary,
});

describe("L6's one-pass replay", () => {
  const msgs = (n: number): Message[] =>
    Array.from({ length: n }, (_, i) => ({ role: "assistant", content: `m${i}`, toolCalls: [] }));

  it("equals applying the splices one by one, for any in-range splices (rolling summaries and backward starts included)", () => {
    const gen = fc.integer({ min: 0, max: 30 }).chain((n) =>
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: 3 })), { maxLength: 12 }).map((raw) => {
        let len = n;
        const ss: ReplacedStretch[] = [];
        raw.forEach(([a, , w], k) => {
          const start = a % (len + 1);
          const end = start + Math.min(w, len - start);
          ss.push(splice(start, end, `s${k}`));
          len = len - (end - start) + 1;
        });
        return { n, ss };
      }),
    );
    fc.assert(
      fc.property(gen, ({ n, ss }) => {
        const before = msgs(n);
        expect(replaySplices(before, ss)).toEqual(replayByCopies(before, ss));
      }),
      { numRuns: 300 },
    );
  });

  it("a wrong splice record still fails L6: shifted, too long, out of range, negative, or another summary", () => {
    const first = splice(2, 5, "sum");
    // a second splice that rolls the first summary into a new one: messages 2..3 of [s, u1, sum, u2, ok]
    const rolled = splice(2, 4, "sum2");
    const after2 = replayByCopies(before, [first, rolled]) as Message[];
    expect(failing(after2, [first, rolled])).not.toContain("L6");
    for (const wrong of [
      [first, splice(3, 4, "sum2")],
      [first, splice(2, 5, "sum2")],
      [first, splice(2, 9, "sum2")],
      [splice(-1, 2, "sum"), rolled],
      [first, splice(2, 4, "other")],
      [rolled, first],
    ]) {
      expect(failing(after2, wrong), JSON.stringify(wrong.map((w) => [w.start, w.end, w.summary]))).toContain("L6");
    }
    const beyond = checkLaws(before, [...before, summaryMessage("sum")], [splice(9, 9, "sum")], c, tokens).find(
      (l) => l.law === "L6",
    );
    expect(beyond?.ok).toBe(false);
    expect(beyond?.detail).toContain("does not fit a conversation of 7 messages");
  });

  it("agrees with the copying replay on the verdict for random records, in range or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })), { maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }),
        (records, pick) => {
          const ss = records.filter(([a, b]) => a <= b).map(([a, b], k) => splice(a, b, `s${k % 2}`));
          // a candidate result: the copying replay of a possibly different record list
          const other = ss.filter((_, k) => !pick.includes(k));
          const after = [...replayByCopies(before, other)];
          const fits = typeof replaySplices(before, ss) !== "string";
          const oneByOne = isDeepStrictEqual(replayByCopies(before, ss), after);
          const l6 = checkLaws(before, after, ss, c, tokens).find((l) => l.law === "L6")?.ok;
          // in range: the same verdict as the definition; out of range: always a failure
          expect(l6).toBe(fits && oneByOne);
        },
      ),
      { numRuns: 500 },
    );
  });
});
