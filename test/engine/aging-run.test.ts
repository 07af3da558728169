// A run whose work stretches cannot reach its target ages old summaries: each summary between two
// user messages (L2 keeps the user messages, L6 one summary per stretch) is re-summarized in place
// under a budget below its size, in the same batch call as the work stretches, validated on its
// own; one that cannot fit its budget goes to the memory of stretches known not to shrink.
import { describe, expect, it } from "vitest";
import { UnshrinkableMemory } from "../../src/engine/store/unshrinkable.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";
import { expectLawsHold } from "../support/laws.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";
import { summaryHistory, summaryText } from "../support/summary-history.ts";

const counter = charCounter();
const text = summaryText;

const history = summaryHistory;

/** A summarizer that answers each request within its budget (maxTokens, less a summary message's own overhead), or `over` tokens over it. */
function budgeted(over = -4) {
  return recordingSummarizer((r) => text(r.previousSummary?.split(" ")[0] ?? "new", r.maxTokens + over));
}

const config = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 8_000,
  target_percent: 60,
  retention_window: 2,
};

describe("summary aging", () => {
  it("ages the oldest summaries in one batch call, each under its budget, down to the target; every law holds", async () => {
    const input = history();
    const before = input.reduce((t, m) => t + messageTokens(counter, m), 0);
    expect(before).toBeGreaterThan(8_000);
    const { summarizer, calls } = budgeted();
    const r = await compactMessages(input, config, { summarizer });
    expect(r.report.tokensAfter).toBeLessThanOrEqual(4_800);
    const aged = r.report.stretches.filter((s) => s.aged === true);
    expect(aged.length).toBe(r.report.stretches.length);
    // each frees about half of ~400 tokens: 18 of the 20 reach the target
    expect(aged.length).toBe(18);
    // in place: one message for one, the oldest first, each strictly shorter and within half its size
    for (const s of aged) {
      expect(s.replacedMessages).toBe(1);
      expect(s.summaryTokens).toBeLessThanOrEqual(Math.floor(s.replacedTokens / 2));
    }
    expect(aged.map((s) => s.start)).toEqual(aged.map((_, k) => 2 + 2 * k));
    expect(calls.batch.length).toBe(1);
    expect(calls.single.length).toBe(0);
    expect(calls.batch[0].parts.every((p) => p.maxTokens < 400)).toBe(true);
    expect(r.messages.length).toBe(input.length);
    expect(r.messages.filter((m) => m.role === "user")).toEqual(input.filter((m) => m.role === "user"));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 2, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("never ages again, in the same run, a summary that run wrote: a target out of reach ends after one batch", async () => {
    // 10% of the trigger is under what 21 user messages and 20 summaries at their aged size hold
    const { summarizer, calls } = budgeted();
    const r = await compactMessages(history(), { ...config, target_percent: 10 }, { summarizer });
    const starts = r.report.stretches.map((s) => s.start);
    // every old summary aged once, none twice (before: each batch re-aged the summaries the one
    // before had just written, halving them again: four batch calls and 74 aging steps here)
    expect(starts).toEqual(Array.from({ length: 20 }, (_, k) => 2 + 2 * k));
    expect(calls.batch.length).toBe(1);
    expect(calls.single.length).toBe(0);
    expect(r.report.tokensAfter).toBeGreaterThan(800);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("ages nothing with age_percent 0: the run finds no stretch (summary-only gaps are not eligible)", async () => {
    const { summarizer, calls } = budgeted();
    const r = await compactMessages(history(), { ...config, age_percent: 0 }, { summarizer });
    expect(r.report.stretches).toEqual([]);
    expect(r.report.outcome).toBe("still-due");
    expect(calls.batch.length + calls.single.length).toBe(0);
  });

  it("ages nothing while summaries hold less than age_share_percent of the context", async () => {
    const { summarizer } = budgeted();
    const r = await compactMessages(history(), { ...config, age_share_percent: 100 }, { summarizer });
    expect(r.report.stretches).toEqual([]);
  });

  it("a summary whose new summary is not shorter is left as it is and remembered: the next run does not ask again", async () => {
    // answers at least as long as the 400-token summaries they would replace
    const { summarizer, calls } = budgeted(250);
    const unshrinkable = new UnshrinkableMemory();
    const first = await compactMessages(history(), config, { summarizer, unshrinkable });
    expect(first.report.stretches).toEqual([]);
    expect(first.report.skipped.length).toBeGreaterThan(0);
    // rejected as not shorter (it cannot shrink), not as a failed summary: the stop rule did not end the run
    expect(first.report.outcome).not.toBe("degraded");
    const asked = calls.batch.length + calls.single.length;
    const second = await compactMessages(history(), config, { summarizer, unshrinkable });
    expect(second.report.stretches).toEqual([]);
    expect(calls.batch.length + calls.single.length).toBe(asked);
  });
});

describe("an aged summary that fails validation", () => {
  it("is asked for once, does not count toward the stop rule, and is remembered", async () => {
    // each summary names a file path (a required fact); the summarizer drops it from aged summaries
    const input = history().map((m) =>
      m.role === "summary" ? summaryMessage(`src/mod${/turn(\d+)/.exec(m.content)?.[1]}.ts ${m.content}`) : m,
    );
    const calls = { parts: 0, single: 0 };
    const summarizer: Summarizer = {
      name: "drops facts",
      summarize: async (r) => {
        calls.single++;
        return text("lost", r.maxTokens - 4);
      },
      summarizeBatch: async (r) => {
        calls.parts += r.parts.length;
        return r.parts.map((p) => text("lost", p.maxTokens - 4));
      },
    };
    const unshrinkable = new UnshrinkableMemory();
    const first = await compactMessages(input, { ...config, max_rejected_summaries: 1 }, { summarizer, unshrinkable });
    expect(first.report.stretches).toEqual([]);
    expect(first.report.outcome).not.toBe("degraded");
    expect(first.report.skipped.length).toBe(calls.parts);
    expect(first.report.skipped.every((s) => s.reason.includes("dropped required facts"))).toBe(true);
    expect(calls.single).toBe(0);
    const asked = calls.parts;
    await compactMessages(input, { ...config, max_rejected_summaries: 1 }, { summarizer, unshrinkable });
    expect(calls.parts).toBe(asked);
  });
});

/**
 * Old turns holding ~300-token summaries, then three turns of work (a 2,500-token answer each),
 * then a short recent turn: summaries hold under half the context before a run.
 */
function workAfterSummaries(): Message[] {
  const out: Message[] = [{ role: "system", content: "You are a coding agent." }];
  for (let t = 0; t < 20; t++) {
    out.push({ role: "user", content: `step ${t}: go on` });
    out.push(summaryMessage(text(`turn${t}`, 300)));
  }
  for (let t = 0; t < 3; t++) {
    out.push({ role: "user", content: `work ${t}: do it` });
    out.push({ role: "assistant", content: text(`work${t}`, 2_500), toolCalls: [] });
  }
  out.push({ role: "user", content: "last question" });
  out.push({ role: "assistant", content: "last answer", toolCalls: [] });
  return out;
}

/**
 * A summarizer whose summaries keep 40 tokens and a tenth of what they replace, at most the
 * budget their prompt states (as the bench's loopback summarizer), counting calls.
 */
function keepsATenth() {
  const calls = { single: 0, batch: 0 };
  const answer = (r: SummaryRequest) =>
    text("kept", Math.min((r.budgetTokens ?? r.maxTokens) - 4, 40 + Math.ceil(r.replacedTokens / 10)));
  const summarizer: Summarizer = {
    name: "keeps a tenth",
    summarize: async (r) => {
      calls.single++;
      return answer(r);
    },
    summarizeBatch: async (r) => {
      calls.batch++;
      return r.parts.map(answer);
    },
  };
  return { summarizer, calls };
}

describe("a batch whose work stretches fall short of the target", () => {
  it("ages old summaries in the same call: the share is judged on the context the work leaves, and the plan counts what summaries keep", async () => {
    const input = workAfterSummaries();
    const total = input.reduce((t, m) => t + messageTokens(counter, m), 0);
    const summaries = input.filter((m) => m.role === "summary").reduce((t, m) => t + messageTokens(counter, m), 0);
    // under half the context before the run, though the work's own summaries will push it over
    expect(summaries * 2).toBeLessThan(total);
    const { summarizer, calls } = keepsATenth();
    const r = await compactMessages(input, { ...config, token_threshold: 12_000, target_percent: 50 }, { summarizer });
    // one call: the three work stretches and the aged summaries together (before: the work alone,
    // then a second call for the aged summaries once the first fell short of the target)
    expect(calls).toEqual({ single: 0, batch: 1 });
    expect(r.report.summarizerCalls).toBe(1);
    expect(r.report.stretches.filter((s) => s.aged !== true).length).toBe(3);
    expect(r.report.stretches.filter((s) => s.aged === true).length).toBeGreaterThan(0);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(6_000);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 2, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });
});

describe("a summary whose required facts fill its aged budget", () => {
  it("is never asked for (no answer could keep its facts); a summary with room is still aged", async () => {
    // the even turns' summaries list 50 file paths (~250 tokens of facts) in ~400 tokens: over
    // the aged budget of half their size; the odd turns' name one fact
    const dense = (t: number) => Array.from({ length: 50 }, (_, k) => `src/pkg${t}/file${k}.ts`).join(" ");
    const input = history().map((m, i) => {
      const t = (i - 2) / 2;
      return m.role === "summary" && t % 2 === 0 ? summaryMessage(`${dense(t)} ${text("dense", 400 - 250)}`) : m;
    });
    const { summarizer, calls } = budgeted();
    const r = await compactMessages(input, config, { summarizer });
    const parts = calls.batch.flatMap((b) => b.parts);
    // on main every dense summary was asked for and every answer rejected (facts do not fit)
    expect(parts.filter((p) => p.previousSummary?.includes("src/pkg") === true)).toEqual([]);
    expect(r.report.skipped).toEqual([]);
    const aged = r.report.stretches.filter((s) => s.aged === true);
    expect(aged.length).toBeGreaterThan(0);
    expect(aged.length).toBe(parts.length);
    // only the odd turns' summaries (at 4, 8, 12, ...) are aged
    expect(aged.every((s) => s.start % 4 === 0)).toBe(true);
    expect(calls.single.length).toBe(0);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});
