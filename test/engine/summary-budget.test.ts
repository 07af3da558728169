// The budget an ordinary stretch's prompt states follows the stretch (kernel summaryBudget):
// summary_percent of its tokens, at least the tokens of the facts it must keep verbatim plus
// summary_floor_tokens, at most max_tokens; 0 asks for max_tokens. It is a request, not a rule:
// the model's own cap (maxTokens) stays max_tokens and a summary over the stated budget that is
// strictly shorter and within max_tokens is accepted.
import { describe, expect, it } from "vitest";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import type { SummaryRequest } from "../../src/model/summarizer.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";

/** A conversation of `turns` turns: a user message, then one assistant message of about `tokens` tokens (chars / 4). */
function turns(sizes: readonly number[]): Message[] {
  const out: Message[] = [{ role: "system", content: "You are a coding agent." }];
  sizes.forEach((tokens, t) => {
    out.push({ role: "user", content: `step ${t}: go on` });
    out.push({ role: "assistant", content: `work${t} ${"y".repeat(tokens * 4)}`, toolCalls: [] });
  });
  out.push({ role: "user", content: "last question" });
  out.push({ role: "assistant", content: "last answer", toolCalls: [] });
  return out;
}

/** The budget a prompt states ("Use at most N tokens"). */
const stated = (prompt: string) => Number(/Use at most (\d+) tokens/.exec(prompt)?.[1]);

/** A summarizer answering `tokens(r)` tokens naming the stretch's facts, recording every request. */
function recording(tokens: (r: SummaryRequest) => number = () => 20) {
  return recordingSummarizer((r) => `${r.requiredFacts.join(" ")} ${"z".repeat(tokens(r) * 4)}`);
}

// one stretch per step (batch_tokens 0): each request is one stretch's
const steps = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 30_000,
  retention_window: 2,
  batch_tokens: 0,
};

describe("a stretch's summary budget", () => {
  it("a 10k-token stretch's prompt states summary_percent of it, while the model's cap stays max_tokens", async () => {
    const { summarizer, calls } = recording();
    const r = await compactMessages(
      turns([10_000, 10_000, 10_000, 10_000]),
      { ...steps, summary_percent: 5 },
      {
        summarizer,
      },
    );
    expect(r.report.stretches.length).toBeGreaterThan(0);
    for (const q of calls.single) {
      expect(q.replacedTokens).toBeGreaterThan(10_000);
      expect(stated(q.prompt)).toBe(Math.floor((q.replacedTokens * 5) / 100));
      expect(q.budgetTokens).toBe(stated(q.prompt));
      expect(q.maxTokens).toBe(2000);
    }
  });

  it("states less than max_tokens for a 10k-token stretch at the defaults", async () => {
    const { summarizer, calls } = recording();
    await compactMessages(turns([10_000, 10_000, 10_000, 10_000]), steps, { summarizer });
    expect(calls.single.length).toBeGreaterThan(0);
    for (const q of calls.single) expect(stated(q.prompt)).toBeLessThan(2000);
  });

  it("a short stretch gets the floor, a long one max_tokens, and 0 states max_tokens for every stretch", async () => {
    const floor = recording();
    await compactMessages(
      turns([1_000, 1_000, 1_000, 30_000]),
      { ...steps, summary_percent: 5, summary_floor_tokens: 300 },
      {
        summarizer: floor.summarizer,
      },
    );
    const budgets = floor.calls.single.map((q) => stated(q.prompt));
    // 5% of ~1k is ~50: the floor; 5% of ~30k is ~1.5k; max_tokens 1000 below caps nothing here
    expect(budgets.slice(0, 3)).toEqual([300, 300, 300]);
    const capped = recording();
    await compactMessages(
      turns([1_000, 1_000, 1_000, 30_000]),
      { ...steps, summary_percent: 20, max_tokens: 1000 },
      {
        summarizer: capped.summarizer,
      },
    );
    const long = capped.calls.single.find((q) => q.replacedTokens > 30_000);
    expect(long).toBeDefined();
    expect(stated(long?.prompt ?? "")).toBe(1000);
    const off = recording();
    await compactMessages(
      turns([1_000, 1_000, 1_000, 30_000]),
      { ...steps, summary_percent: 0 },
      {
        summarizer: off.summarizer,
      },
    );
    expect(off.calls.single.length).toBeGreaterThan(0);
    for (const q of off.calls.single) expect(stated(q.prompt)).toBe(2000);
  });

  it("a short stretch's budget holds its facts (by the run's counter) plus the floor", async () => {
    const { summarizer, calls } = recording();
    // each turn's assistant names 20 identifiers of its own: facts its summary must keep
    const sizes = [1_000, 1_000, 1_000, 30_000];
    const messages = turns(sizes).map((m, i) =>
      m.role === "assistant" && i < 2 * sizes.length
        ? { ...m, content: `${Array.from({ length: 20 }, (_, k) => `someHelper${i}x${k}y`).join(" ")} ${m.content}` }
        : m,
    );
    await compactMessages(messages, { ...steps, summary_percent: 5, summary_floor_tokens: 40 }, { summarizer });
    const short = calls.single.filter((q) => q.replacedTokens < 2_000);
    expect(short.length).toBeGreaterThan(0);
    for (const q of short) {
      expect(q.requiredFacts.length).toBeGreaterThanOrEqual(20);
      // the chars counter: ceil(chars / 4) of the facts, a space between two
      expect(stated(q.prompt)).toBe(Math.ceil(q.requiredFacts.join(" ").length / 4) + 40);
    }
  });

  it("a summary over its stated budget, strictly shorter and within max_tokens, is accepted at the first answer", async () => {
    // every answer is three times the stated budget
    const { summarizer, calls } = recording((r) => 3 * (r.budgetTokens ?? 0));
    const r = await compactMessages(
      turns([10_000, 10_000, 10_000, 10_000]),
      { ...steps, summary_percent: 5 },
      {
        summarizer,
      },
    );
    expect(r.report.stretches.length).toBe(calls.single.length);
    expect(r.report.skipped).toEqual([]);
    for (const s of r.report.stretches) {
      expect(s.attempts).toBe(1);
      expect(s.summaryTokens).toBeGreaterThan(Math.floor((s.replacedTokens * 5) / 100));
    }
  });

  it("a batch call states each stretch's own budget in its part, and asks for the sum of the parts' caps", async () => {
    const { summarizer, calls } = recording();
    const r = await compactMessages(
      turns([10_000, 1_000, 10_000, 1_000, 10_000]),
      {
        tokenizer: "chars",
        strategy: "summarize",
        token_threshold: 30_000,
        target_percent: 20,
        retention_window: 2,
        summary_percent: 5,
        summary_floor_tokens: 300,
      },
      { summarizer },
    );
    expect(calls.batch.length).toBeGreaterThan(0);
    const parts = calls.batch.flatMap((b) => b.parts);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) {
      expect(stated(p.prompt)).toBe(Math.max(300, Math.floor((p.replacedTokens * 5) / 100)));
      expect(p.budgetTokens).toBe(stated(p.prompt));
    }
    for (const b of calls.batch) expect(b.maxTokens).toBe(b.parts.reduce((t, p) => t + p.maxTokens, 0));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});
