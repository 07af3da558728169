// The clearing tier through the engine (L13): the strategy setting, what is kept, clear_at_least,
// exclude_tools, results cleared already, dry runs, and a usage report carried across a clearing.
import { describe, expect, it } from "vitest";
import { readOpenAIMessages, writeOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { placeholderPattern, placeholderText } from "../../src/engine/run/clearing.ts";
import { checkLaws } from "../../src/engine/run/law-checks.ts";
import { applyClearing, callsToClear } from "../../src/kernel/clearing.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { AssistantMessage, Message, ToolMessage } from "../../src/model/message.ts";
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { openAIConversation } from "../support/generate.ts";

const conversation = (turns: number) => readOpenAIMessages(openAIConversation({ turns }));
const base = { token_threshold: 8000, tokenizer: "chars" as const };

function counting(): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    name: "counting",
    requests,
    async summarize(r) {
      requests.push(r);
      return `Summary. ${r.requiredFacts.join(" ; ")}`;
    },
  };
}

const isTool = (m: Message): m is ToolMessage => m.role === "tool";

describe("strategy", () => {
  it('"summarize" never clears and reports no clearing', async () => {
    const r = await compactMessages(conversation(20), { ...base, strategy: "summarize" });
    expect(r.report.clearing).toBeUndefined();
    expect(r.report.stretches.length).toBeGreaterThan(0);
  });

  it('the default is "clear-then-summarize" with clear_at_least 2000 (bench/RESULTS.md, "Clearing tool results")', async () => {
    const input = conversation(20);
    const byDefault = await compactMessages(input, base);
    const spelled = await compactMessages(input, { ...base, strategy: "clear-then-summarize", clear_at_least: 2000 });
    expect(byDefault.report.clearing?.results).toBeGreaterThan(0);
    expect(byDefault.report.clearing?.tokensFreed).toBeGreaterThanOrEqual(2000);
    // the same run (the summarizer calls' wall-clock durations apart)
    const untimed = (r: typeof byDefault.report) => ({
      ...r,
      calls: r.calls.map((c) => ({ ...c, durationMs: 0 })),
      callTotals: { ...r.callTotals, durationMs: 0 },
    });
    expect(untimed(byDefault.report)).toEqual(untimed(spelled.report));
    expect(byDefault.messages).toEqual(spelled.messages);
  });

  it('"clear" clears old results without a summarizer call, keeping the window, the kept tail and the current step', async () => {
    const input = conversation(20);
    const s = counting();
    const r = await compactMessages(input, { ...base, strategy: "clear", clear_keep: 3 }, { summarizer: s });
    expect(s.requests).toHaveLength(0);
    const k = r.report.clearing;
    expect(k?.results).toBeGreaterThan(0);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expect(r.report.tokensAfter).toBe((r.report.tokensBefore ?? 0) - (k?.tokensFreed ?? 0));
    const pattern = placeholderPattern("[tool result cleared: {chars} chars]");
    const changed = r.messages.flatMap((m, i) => (m !== input[i] ? [i] : []));
    expect(changed).toEqual(k?.records.map((c) => c.index));
    const toolIdx = input.flatMap((m, i) => (isTool(m) ? [i] : []));
    for (const i of changed) {
      const was = input[i] as ToolMessage;
      const now = r.messages[i] as ToolMessage;
      expect(now.content).toBe(placeholderText("[tool result cleared: {chars} chars]", was.content.length));
      expect(now.content).toMatch(pattern);
      expect({ ...now, content: was.content, clearedFrom: undefined }).toEqual({ ...was, clearedFrom: undefined });
      // not in the last 6 messages, and 3 tool results after it at least
      expect(i).toBeLessThan(input.length - 6);
      expect(toolIdx.filter((t) => t > i).length).toBeGreaterThanOrEqual(3);
    }
    // the store's in-place clearing is the kernel's applyClearing over the same marks
    const mask = input.map((_, i) => changed.includes(i));
    expect(applyClearing(input, mask, r.messages)).toEqual(r.messages);
    expect(applyClearing(input, mask, r.messages).filter((m, i) => !mask[i] && m !== input[i])).toEqual([]);
    // oldest first: the cleared ones are the oldest tool results
    expect(changed).toEqual(toolIdx.slice(0, changed.length));
  });

  it('"clear-then-summarize" sends the summarizer far less than "summarize", in no more calls, and ends under the trigger', async () => {
    const a = counting();
    const b = counting();
    const input = conversation(30);
    const summarize = await compactMessages(input, { ...base, strategy: "summarize" }, { summarizer: a });
    // one request per stretch tried: used, or skipped
    expect(a.requests.length).toBe(summarize.report.stretches.length + summarize.report.skipped.length);
    const both = await compactMessages(input, { ...base, strategy: "clear-then-summarize" }, { summarizer: b });
    expect(both.report.clearing?.results).toBeGreaterThan(0);
    // the run summarizes down to its target after clearing (summarizesAfterClearing), so it may
    // ask as often, but for stretches whose old tool results are placeholders now
    const sent = (r: SummaryRequest[]) => r.reduce((sum, q) => sum + q.replacedTokens, 0);
    expect(b.requests.length).toBeLessThanOrEqual(a.requests.length);
    expect(sent(b.requests) * 2).toBeLessThan(sent(a.requests));
    expect(both.report.dueAfter).toBe(false);
    expect(both.report.laws.every((l) => l.ok)).toBe(true);
  });
});

describe("what clearing keeps", () => {
  it("clear_at_least: a run that cannot free that much clears nothing", async () => {
    const r = await compactMessages(conversation(20), { ...base, strategy: "clear", clear_at_least: 10_000_000 });
    expect(r.report.clearing?.results).toBe(0);
    expect(r.report.clearing?.reason).toContain("clear_at_least");
    expect(r.report.outcome).toBe("still-due");
  });

  it("clear_at_least raises how much one run frees beyond what the low-water target needs", async () => {
    const input = conversation(20);
    // a target just under the trigger (95%): reaching it takes little
    const near = { ...base, token_threshold: 20_000, target_percent: 95, strategy: "clear" as const };
    const small = await compactMessages(input, near);
    const big = await compactMessages(input, { ...near, clear_at_least: 8000 });
    expect(small.report.clearing?.tokensFreed).toBeLessThan(8000);
    expect(big.report.clearing?.tokensFreed).toBeGreaterThanOrEqual(8000);
  });

  it("clear_exclude_tools: an excluded tool's results are never cleared", async () => {
    const input = conversation(20);
    const r = await compactMessages(input, { ...base, strategy: "clear", clear_exclude_tools: ["read_file"] });
    const names = new Map(input.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => [c.id, c.name]) : [])));
    const records = r.report.clearing?.records ?? [];
    expect(records.length).toBeGreaterThan(0);
    for (const c of records) expect(names.get(c.toolCallId)).not.toBe("read_file");
  });

  it("a result cleared by an earlier run is not cleared again, after a round trip through the format", async () => {
    const first = await compactMessages(conversation(20), { ...base, strategy: "clear" });
    const again = readOpenAIMessages(writeOpenAIMessages(first.messages));
    const second = await compactMessages(again, { ...base, token_threshold: 2000, strategy: "clear" });
    const before = new Set(first.report.clearing?.records.map((c) => c.toolCallId));
    for (const c of second.report.clearing?.records ?? []) expect(before.has(c.toolCallId)).toBe(false);
  });

  it("a clearing run frees down to the low-water target, as a summarizing run would", async () => {
    const input = conversation(20);
    const r = await compactMessages(input, { ...base, token_threshold: 20_000, strategy: "clear" });
    // target_percent 50 of the trigger: 10,000 tokens
    expect(r.report.tokensBefore).toBeGreaterThan(20_000);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(10_000);
  });

  it('"clear-then-summarize" summarizes the rest of the way down when clearing stops above the target', async () => {
    const input = conversation(20);
    // about 21k tokens; clearing alone reaches about 4k: under the trigger (8000), above the target (35%: 2800)
    const near = { ...base, target_percent: 35 };
    const cleared = await compactMessages(input, { ...near, strategy: "clear" });
    expect(cleared.report.dueAfter).toBe(false);
    expect(cleared.report.tokensAfter).toBeGreaterThan(2800);
    const s = counting();
    const r = await compactMessages(input, { ...near, strategy: "clear-then-summarize" }, { summarizer: s });
    expect(r.report.clearing?.results).toBe(cleared.report.clearing?.results);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.report.tokensAfter).toBeLessThan(cleared.report.tokensAfter ?? 0);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    // where clearing alone reaches the target (35% of 20000: 7000), no summarizer call
    const far = { ...near, token_threshold: 20_000 };
    const alone = await compactMessages(input, { ...far, strategy: "clear" });
    expect(alone.report.tokensAfter).toBeLessThanOrEqual(7000);
    const none = counting();
    const both = await compactMessages(input, { ...far, strategy: "clear-then-summarize" }, { summarizer: none });
    expect(none.requests).toHaveLength(0);
    expect(both.messages).toEqual(alone.messages);
  });

  it("a dry run says what it would clear and changes nothing", async () => {
    const input = conversation(20);
    const r = await compactMessages(input, { ...base, strategy: "clear" }, { dryRun: true });
    expect(r.messages.every((m, i) => m === input[i])).toBe(true);
    expect(r.report.clearing?.reason).toMatch(/^would clear \d+ tool results/);
  });

  it("a usage report whose prefix held cleared results is carried across: it falls by exactly what was freed", async () => {
    const input = conversation(20);
    const r = await compactMessages(
      input,
      { ...base, strategy: "clear" },
      { usage: { promptTokens: 30_000, messages: input.length } },
    );
    const k = r.report.clearing;
    expect(k?.results).toBeGreaterThan(0);
    expect(r.report.usage?.dropped).toBe(false);
    expect(r.report.usage?.judgedTokensAfter).toBe(30_000 - (k?.tokensFreed ?? 0));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});

describe("clear_inputs", () => {
  it("clears the cleared results' call arguments, the kernel's callsToClear marks, and the L6 replay needs the records", async () => {
    const input = conversation(20);
    const c = { ...base, strategy: "clear" as const, clear_inputs: true };
    const r = await compactMessages(input, c);
    const k = r.report.clearing;
    expect(k?.inputs).toBeGreaterThan(0);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    const records = k?.records ?? [];
    const callOf = input.map((m) =>
      m.role === "tool"
        ? input.findIndex((a) => a.role === "assistant" && a.toolCalls.some((x) => x.id === m.toolCallId))
        : -1,
    );
    const mask = input.map((_, i) => records.some((x) => x.index === i));
    const calls = callsToClear(callOf, mask, true);
    r.messages.forEach((m, i) => {
      if (input[i].role !== "assistant") return;
      expect(m !== input[i], `message ${i}`).toBe(calls[i]);
      if (m.role !== "assistant" || m === input[i]) return;
      const cleared = new Set(records.filter((x) => x.arguments?.index === i).map((x) => x.toolCallId));
      expect(cleared.size).toBeGreaterThan(0);
      const was = input[i] as AssistantMessage;
      m.toolCalls.forEach((call, j) => {
        expect({ id: call.id, name: call.name }).toEqual({ id: was.toolCalls[j].id, name: was.toolCalls[j].name });
        expect(call.arguments).toBe(cleared.has(call.id) ? "{}" : was.toolCalls[j].arguments);
      });
      expect(m.content).toBe(was.content);
    });
    // the replay of L6 applies the records: without their arguments the result is not explained
    const bare = records.map(({ arguments: _, ...x }) => x);
    const tokens = { before: r.report.tokensBefore, after: r.report.tokensAfter, dueBefore: true };
    const l6 = (cleared: typeof records) =>
      checkLaws(input, r.messages, [], parseConfig(c), tokens, { cleared }).find((l) => l.law === "L6")?.ok;
    expect(l6(records)).toBe(true);
    expect(l6(bare)).toBe(false);
  });

  it("a usage report is carried across cleared arguments too: it falls by exactly what was freed", async () => {
    const input = conversation(20);
    const r = await compactMessages(
      input,
      { ...base, strategy: "clear", clear_inputs: true },
      { usage: { promptTokens: 30_000, messages: input.length } },
    );
    const k = r.report.clearing;
    expect(k?.inputs).toBeGreaterThan(0);
    expect(r.report.usage?.judgedTokensAfter).toBe(30_000 - (k?.tokensFreed ?? 0));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});
