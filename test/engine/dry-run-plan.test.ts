// A dry run shows the whole plan before anything is paid for (issue 34, part 4): what clearing
// would free, every stretch the run would summarize, the calls that would send them with their
// prompt and answer tokens, the summarizer's model, the total it would leave, and whether it would
// end still due. The plan is the run's own: a real run with the same settings summarizes exactly
// the planned stretches in its first batch, in the planned number of calls.
import { describe, expect, it } from "vitest";
import { generateConversation } from "../../bench/conversation.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

const counter = charCounter();
const messages = generateConversation(1_500, { seed: 3 });
const config = { token_threshold: 60_000, tokenizer: "chars" as const, batch_tokens: 40_000, model: "gpt-4o-mini" };

/** The offline summarizer counting its batch calls. */
function counting(): Summarizer & { batches: number } {
  const inner = offlineSummarizer(counter);
  const s = {
    name: inner.name,
    batches: 0,
    summarize: (r: SummaryRequest) => inner.summarize(r),
    summarizeBatch: (r: BatchSummaryRequest) => {
      s.batches++;
      if (inner.summarizeBatch === undefined) throw new Error("the offline summarizer summarizes batches");
      return inner.summarizeBatch(r);
    },
  };
  return s;
}

describe("--dry-run's whole plan", () => {
  it("lists clearing, every stretch and the calls; the real run summarizes those stretches in those calls", async () => {
    const dry = await compactMessages(messages, config, {
      summarizer: offlineSummarizer(counter),
      counter,
      dryRun: true,
    });
    const plan = dry.report.plan;
    expect(plan).toBeDefined();
    if (plan === undefined) return;
    expect(dry.report.clearing?.reason).toMatch(/^would clear \d+ tool results/);
    expect(plan.model).toBe("gpt-4o-mini");
    expect(plan.stretches.length).toBeGreaterThan(3);
    // every stretch in exactly one call, in order
    expect(plan.calls.flatMap((c) => c.stretches)).toEqual(plan.stretches.map((_, k) => k));
    expect(plan.calls.length).toBeGreaterThan(1);
    for (const c of plan.calls) {
      const stretchTokens = c.stretches.reduce((t, k) => t + plan.stretches[k].replacedTokens, 0);
      expect(c.inputTokens).toBeGreaterThan(stretchTokens);
      expect(c.outputTokens).toBeGreaterThan(0);
    }
    expect(plan.expectedTokensAfter).toBeLessThan(plan.tokens);
    expect(plan.stillDueBy).toBe("none");
    expect(dry.messages).toEqual(messages);

    const summarizer = counting();
    const real = await compactMessages(messages, config, { summarizer, counter });
    const firstBatch = real.report.stretches.slice(0, plan.stretches.length).map((s) => s.input);
    expect(firstBatch).toEqual(plan.stretches.map((s) => s.input));
    // one batch brought it under the target (as the plan expected): its calls were the plan's
    expect(real.report.stretches.length).toBe(plan.stretches.length);
    expect(summarizer.batches).toBe(plan.calls.length);
  }, 60_000);

  it("says when the run would end still due", async () => {
    // the newest messages hold almost everything and no stretch may touch them
    const dry = await compactMessages(
      messages,
      { ...config, strategy: "summarize", retention_window: 1_400 },
      { summarizer: offlineSummarizer(counter), counter, dryRun: true },
    );
    const plan = dry.report.plan;
    expect(plan?.stillDueBy).toBe("tokens");
    expect(dry.report.reason).toContain("would end still due (tokens)");
  }, 60_000);
});
