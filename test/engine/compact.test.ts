import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { SummarizerError } from "../../src/model/errors.ts";
import type { Message } from "../../src/model/message.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { counted, expectLawsHold } from "../support/laws.ts";

const counter = charCounter();
const conversation = (turns = 12, extra = {}) => readOpenAIMessages(openAIConversation({ turns, ...extra }));
const small = { token_threshold: 3000, tokenizer: "chars" as const };
// the tests of the summarize loop itself (its steps, failures, retries, anchors, concurrent edits):
// under the default clear-then-summarize, clearing alone may bring the conversation under the trigger
const summarizing = { ...small, strategy: "summarize" as const };

function scripted(answers: ((r: SummaryRequest) => string | Error)[]): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    name: "scripted",
    requests,
    async summarize(r) {
      requests.push(r);
      const a = answers[Math.min(requests.length - 1, answers.length - 1)](r);
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

const good = (r: SummaryRequest) => `Summary. ${r.requiredFacts.join(" ; ")}`;

describe("compaction loop", () => {
  it("compacts until under the trigger with the offline summarizer; every law holds", async () => {
    const input = conversation(20);
    const frozen = structuredClone(input);
    const r = await compactMessages(input, { ...summarizing, token_threshold: 8000 });
    expect(input).toEqual(frozen); // the input array is never mutated
    expect(r.report.outcome).toBe("compacted");
    expect(r.report.dueAfter).toBe(false);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(8000);
    expect(r.report.stretches.length).toBeGreaterThan(1);
    expect(counted(r.report.tokensAfter)).toBeLessThan(counted(r.report.tokensBefore));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("a run that ends still above its trigger says so, and where the tokens are", async () => {
    const input = conversation(20);
    // without summary aging: with it, re-summarizing the run's own summaries reaches the trigger
    // here; 2000 tokens: under what the user messages, the retention window and one summary per
    // gap keep (about 2.7k at the default budgets)
    const r = await compactMessages(input, { ...small, token_threshold: 2000, age_percent: 0 });
    expect(r.report.outcome).toBe("compacted-still-due");
    expect(r.report.dueAfter).toBe(true);
    expect(r.report.tokensAfter).toBeGreaterThan(2000);
    expect(r.report.stretches.length).toBeGreaterThan(1);
    const left = r.report.remaining;
    expect(left).toBeDefined();
    if (left === undefined) return;
    // every token of the result is in exactly one part
    expect(left.userSystem + left.summaries + left.retentionWindow + left.other).toBe(r.report.tokensAfter);
    expect(left.summaries).toBeGreaterThan(0);
    expect(left.userSystem).toBeGreaterThan(0);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("a run that can replace nothing while due is still-due, not nothing-to-do", async () => {
    const input: Message[] = [
      { role: "system", content: "s".repeat(400) },
      ...Array.from({ length: 8 }, (_, i): Message => ({ role: "user", content: `question ${i} `.repeat(40) })),
    ];
    const r = await compactMessages(input, { ...small, token_threshold: 100 });
    expect(r.report.outcome).toBe("still-due");
    expect(r.report.stretches).toEqual([]);
    expect(r.report.remaining?.userSystem).toBeGreaterThan(0);
    expect(r.messages).toEqual(input);
  });

  it("does nothing when no trigger is reached", async () => {
    const input = conversation(2);
    const r = await compactMessages(input, { token_threshold: 10_000_000 });
    expect(r.report.outcome).toBe("nothing-to-do");
    expect(r.messages).toEqual(input);
  });

  it("dry run plans and changes nothing", async () => {
    const input = conversation(10);
    const r = await compactMessages(input, small, { dryRun: true });
    expect(r.report.outcome).toBe("dry-run");
    expect(r.report.plannedStretch).toMatchObject({ start: 2 });
    expect(r.messages).toEqual(input);
  });

  it.each([
    ["a timeout", () => new SummarizerError("OpenAI request timed out after 10 ms"), "timed out"],
    ["an HTTP 500", () => new SummarizerError("OpenAI answered HTTP 500: boom"), "HTTP 500"],
  ])(
    "%s stops the run and leaves the conversation exactly as it was, with the reason",
    async (_name, answer, reason) => {
      const input = conversation(10);
      const s = scripted([answer]);
      const r = await compactMessages(input, { ...summarizing, retry_delay_ms: 5 }, { summarizer: s });
      expect(r.report.outcome).toBe("degraded");
      expect(r.report.reason).toContain(reason);
      expect(r.messages).toEqual(input);
      expect(r.report.tokensAfter).toBe(r.report.tokensBefore);
      // the retry policy's max_attempts calls, then give up
      expect(s.requests.length).toBe(SETTINGS.max_attempts.default);
    },
  );

  it.each([
    ["an empty answer", () => "   ", "the summary is empty"],
    [
      "an over-long answer",
      (r: SummaryRequest) => `${good(r)} ${"padding ".repeat(5000)}`,
      "is not shorter than what it replaces",
    ],
    ["dropped facts", () => "All fine, nothing to report.", "dropped required facts"],
  ])(
    "%s on every stretch leaves the conversation exactly as it was, with the reason",
    async (_name, answer, reason) => {
      const input = conversation(10);
      const s = scripted([answer as (r: SummaryRequest) => string | Error]);
      const r = await compactMessages(input, summarizing, { summarizer: s });
      expect(r.report.outcome).toBe("degraded");
      expect(r.report.reason).toContain(reason);
      expect(r.messages).toEqual(input);
      expect(r.report.tokensAfter).toBe(r.report.tokensBefore);
      // each eligible stretch was tried twice (one retry), left unchanged, and the run moved on
      expect(r.report.skipped.length).toBeGreaterThan(1);
      expect(s.requests.length).toBe(2 * r.report.skipped.length);
      const starts = r.report.skipped.map((k) => k.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    },
  );

  it("moves past a stretch too small to summarize (a greeting) and compacts the rest", async () => {
    const input: Message[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "Hello!", toolCalls: [] },
      ...conversation(10).slice(1),
    ];
    const r = await compactMessages(input, { ...summarizing, token_threshold: 6000, min_stretch_tokens: 0 });
    expect(r.report.outcome).toBe("compacted");
    expect(r.report.skipped[0]).toMatchObject({ start: 2, end: 3, reason: expect.stringContaining("not shorter") });
    expect(r.messages[2]).toBe(input[2]);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.report.stretches.every((s) => s.start >= 3)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("over max_tokens is rejected even when shorter than the stretch", async () => {
    const s = scripted([(r) => `${good(r)} ${"word ".repeat(400)}`]);
    const r = await compactMessages(conversation(10), { ...summarizing, max_tokens: 300 }, { summarizer: s });
    expect(r.report.reason).toContain("exceeds max_tokens");
  });

  it("retries once with the reason, and accepts a good second answer", async () => {
    const s = scripted([() => "forgot everything", good]);
    const r = await compactMessages(conversation(10), summarizing, { summarizer: s });
    expect(r.report.outcome).toBe("compacted");
    expect(r.report.stretches[0].attempts).toBe(2);
    expect(s.requests[1].prompt).toContain("Your previous answer was rejected: the summary dropped required facts");
  });

  it("keeps configured anchor phrases", async () => {
    const input = conversation(10);
    const s = scripted([(r) => `Summary. ${r.requiredFacts.filter((f) => f !== "off-by-one").join(" ; ")}`]);
    const r = await compactMessages(input, { ...summarizing, anchors: ["off-by-one"] }, { summarizer: s });
    expect(s.requests[0].requiredFacts).toContain("off-by-one");
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toContain('"off-by-one"');
  });

  it("rolls the previous summary into the next prompt", async () => {
    // one long turn of tool work, compacted; then more work arrives and is compacted again
    const input = readOpenAIMessages(openAIConversation({ turns: 1, stepsPerTurn: 30, callsPerStep: 1 }));
    const config = { tokenizer: "chars" as const, token_threshold: null, message_threshold: 20, retention_window: 6 };
    const first = await compactMessages(input, config);
    expect(first.messages[2].role).toBe("summary");
    const more: Message[] = [...first.messages];
    for (let i = 0; i < 20; i++) {
      more.push({
        role: "assistant",
        content: `step ${i}: checking src/late${i}.ts`,
        toolCalls: [{ id: `late_${i}`, name: "read_file", arguments: `{"path":"src/late${i}.ts"}` }],
      });
      more.push({ role: "tool", toolCallId: `late_${i}`, content: `contents of late file ${i}\n`.repeat(10) });
    }
    const s = scripted([good]);
    const r = await compactMessages(more, config, { summarizer: s });
    expect(r.report.outcome).toBe("compacted");
    expect(s.requests[0].previousSummary).toBe(first.messages[2].content);
    expect(s.requests[0].prompt).toContain(first.messages[2].content);
    expect(s.requests[0].stretch.some((m) => m.role === "summary")).toBe(false);
    expectLawsHold(more, r.messages, 6);
  });

  it("never summarizes an ongoing tool call", async () => {
    const input = conversation(8, { ongoingAtEnd: true });
    const r = await compactMessages(input, { tokenizer: "chars", token_threshold: 100, retention_window: 1 });
    const ongoing = input.filter((m) => m.role === "assistant" && m.toolCalls.length > 0).at(-1);
    expect(r.messages).toContain(ongoing);
    expectLawsHold(input, r.messages, 1);
  });

  it("keep_recent_tokens keeps at least that many recent tokens", async () => {
    const input = conversation(12);
    // summarizing only: keep_recent_tokens is where a summary's cut may fall (clearing, which
    // frees down to the target, has clear_keep and its own tests)
    const r = await compactMessages(input, {
      tokenizer: "chars",
      token_threshold: 7000,
      keep_recent_tokens: 4000,
      strategy: "summarize",
    });
    expect(r.report.outcome).toBe("compacted");
    // the messages after the last summary hold at least keep_recent_tokens
    const last = r.messages.map((m) => m.role).lastIndexOf("summary");
    const kept = r.messages.slice(last + 1).reduce((s, m) => s + counter.count(m.content) + 4, 0);
    const keptCalls = r.messages
      .slice(last + 1)
      .reduce(
        (s, m) =>
          s +
          (m.role === "assistant" ? counter.count(m.toolCalls.map((c) => `${c.name}(${c.arguments})`).join("\n")) : 0),
        0,
      );
    expect(kept + keptCalls).toBeGreaterThanOrEqual(4000 - 10);
    expectLawsHold(input, r.messages, 6);
  });
});

describe("concurrency (L9)", () => {
  it("keeps messages appended while the summarizer runs", async () => {
    const input = conversation(10);
    const store = new ConversationStore(counter, input);
    const late: Message = { role: "user", content: "one more thing" };
    let appended = false;
    const off = offlineSummarizer(counter);
    const s: Summarizer = {
      name: "appending",
      async summarize(r) {
        if (!appended) {
          store.append(late);
          appended = true;
        }
        return off.summarize(r);
      },
    };
    const report = await compactStore(store, parseConfig(summarizing), { summarizer: s });
    expect(report.stretches[0].decision).toBe("rebase");
    expect(store.messages.at(-1)).toBe(late);
    expect(store.messages.filter((m) => m === late)).toHaveLength(1);
  });

  it("rejects the step when the conversation was rewritten meanwhile", async () => {
    const input = conversation(10);
    const store = new ConversationStore(counter, input);
    const s: Summarizer = {
      name: "rewriting",
      async summarize(r) {
        // someone else compacts the same conversation in between
        const snap = store.snapshot();
        store.commitSplice(snap, 2, 4, { role: "summary", content: "x" });
        return good(r);
      },
    };
    const report = await compactStore(store, parseConfig(summarizing), { summarizer: s });
    expect(report.outcome).toBe("superseded");
    expect(report.reason).toContain("another writer committed first");
  });

  it("refuses two overlapping compactions", async () => {
    const store = new ConversationStore(counter, conversation(10));
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow: Summarizer = {
      name: "slow",
      async summarize(r) {
        await gate;
        return good(r);
      },
    };
    const first = compactStore(store, parseConfig(summarizing), { summarizer: slow });
    await expect(compactStore(store, parseConfig(summarizing), { summarizer: slow })).rejects.toThrow(
      "already running",
    );
    release();
    await first;
  });

  it("uses the configuration snapshotted at the start", async () => {
    const config = parseConfig(summarizing);
    const store = new ConversationStore(counter, conversation(10));
    const seen: number[] = [];
    const s: Summarizer = {
      name: "mutating",
      async summarize(r) {
        seen.push(r.maxTokens);
        config.max_tokens = 1; // a change mid-run applies to the next compaction only
        return good(r);
      },
    };
    await compactStore(store, config, { summarizer: s });
    expect(new Set(seen)).toEqual(new Set([2000]));
  });
});
