import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { parseConfig } from "../../src/engine/config-rules.ts";
import { checkLaws } from "../../src/engine/law-checks.ts";
import type { Message } from "../../src/engine/message.ts";
import type { ReplacedStretch } from "../../src/engine/report.ts";

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
const stretch: ReplacedStretch = { start: 2, end: 5, replacedMessages: 3, replacedTokens: 30, summaryTokens: 5, attempts: 1, decision: "commit", summary: "sum", input: { first: 2, last: 4 }, trigger: "tokens/messages/turns" };
const good: Message[] = [before[0], before[1], { role: "summary", content: "sum" }, before[5], before[6]];
const tokens = { before: 50, after: 25, dueBefore: true };

function failing(after: Message[], stretches = [stretch], t = tokens): string[] {
  return checkLaws(before, after, stretches, c, t).filter((l) => !l.ok).map((l) => l.law);
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
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "f", input: {} }, { type: "tool_use", id: "b", name: "f", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "A" }, { type: "tool_result", tool_use_id: "b", content: "B" }] },
      { role: "assistant", content: "ok" },
    ];
    const ms = readAnthropicMessages(wire, undefined);
    // the last 2 file messages are the last 3 messages read: changing the first tool result breaks L3
    const altered: Message[] = [...ms.slice(0, 2), { ...ms[2], content: "changed" }, ...ms.slice(3)];
    const l3 = (after: Message[]) => checkLaws(ms, after, [], parseConfig({ retention_window: 2 }), { before: 9, after: 9, dueBefore: false }).find((l) => l.law === "L3");
    expect(l3(ms)).toMatchObject({ ok: true, detail: "last 2 messages" });
    expect(l3(altered)?.ok).toBe(false);
  });
  it("catch an orphan tool result (L5)", () => {
    const orphan: Message[] = [before[0], before[1], { role: "summary", content: "sum" }, before[3], before[5], before[6]];
    expect(failing(orphan, [{ ...stretch, end: 3 }])).toContain("L5");
  });
  it("catch a result that is not the recorded splice (L6)", () => {
    expect(failing([before[0], before[1], { role: "summary", content: "other" }, before[5], before[6]])).toContain("L6");
  });
  it("catch tokens not reduced (L8) and a compaction that was not due (L1)", () => {
    expect(failing(good, [stretch], { before: 50, after: 50, dueBefore: true })).toContain("L8");
    expect(failing(good, [stretch], { ...tokens, dueBefore: false })).toContain("L1");
  });
});
