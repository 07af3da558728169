// A whole one-shot run finishes, linearly. Three regressions are guarded here, cheaply:
// - a hidden cap on the number of steps: a run stopped at 10,000 steps once left a 100k-message
//   history at 5.2M tokens against a 50,000 trigger with exit 0; a run needing more steps must go on;
// - the final L6 check going quadratic: it used to rebuild the conversation once per recorded
//   splice (O(messages x splices)), half the CPU of a 100k-message run. Its cost per message must
//   stay about the same from 4k to 16k messages (< 2.5x; quadratic is ~4x); the same harness and
//   bound flag the copying replay (from 1k to 4k: it is that slow), so the check can fail;
// - a splice costing O(messages): the store once shifted every pairing index and moved every
//   array's tail at each committed splice, O(messages x steps) in all, 6.9x from 100k to 300k
//   messages. The summarizer's own work per step hides that until ~100k messages, so the store's
//   plan-and-commit loop is timed alone: its cost per message must stay about the same from 4k to
//   32k messages (< 2.5x; the O(messages) splice measured 7.4x); the same harness and bound flag
//   planning on a copy at every step.
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { cpuMs, median } from "../../bench/measure.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { checkLaws, replaySplices } from "../../src/engine/run/law-checks.ts";
import { planStep } from "../../src/engine/run/plan.ts";
import type { ReplacedStretch } from "../../src/engine/run/report.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";

describe("a whole run", () => {
  it("goes on past 10,000 steps while a stretch is eligible (no hidden cap)", async () => {
    const ms: Message[] = [];
    for (let i = 0; i < 10_010; i++) {
      ms.push(
        { role: "user", content: "u" },
        {
          role: "assistant",
          content: `step ${i}: ${"reading the file and thinking about what to change next. ".repeat(3)}`,
          toolCalls: [],
        },
      );
    }
    // no floor: each of these ~45-token stretches is worth a call here
    const r = await compactMessages(ms, {
      token_threshold: 100,
      tokenizer: "chars",
      retention_window: 1,
      min_stretch_tokens: 0,
    });
    // every assistant message but the one in the retention window is its own stretch
    expect(r.report.stretches.length).toBe(10_009);
    expect(r.report.outcome).toBe("compacted-still-due");
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  }, 120_000);
});

const c = parseConfig({ retention_window: 1, token_threshold: 1 });

/** n messages and a run's worth of forward splices: every 4 messages, 3 replaced by a summary. */
function spliced(n: number): { before: Message[]; stretches: ReplacedStretch[]; after: Message[] } {
  const before: Message[] = Array.from({ length: n }, (_, i) => ({
    role: "assistant",
    content: `m${i}`,
    toolCalls: [],
  }));
  const stretches: ReplacedStretch[] = [];
  for (let k = 0; 4 * k + 4 <= n - 1; k++) {
    // positions after the earlier splices: each earlier one shortened the conversation by 2
    const start = 4 * k - 2 * k;
    stretches.push({
      start,
      end: start + 3,
      replacedMessages: 3,
      replacedTokens: 9,
      summaryTokens: 1,
      attempts: 1,
      decision: "commit",
      summary: `s${k}`,
      input: { first: 4 * k, last: 4 * k + 2 },
      trigger: "tokens",
    });
  }
  const after = replaySplices(before, stretches);
  if (typeof after === "string") throw new Error(after);
  return { before, stretches, after };
}

/**
 * Median and fastest CPU nanoseconds per message of `op` over 5 samples (after a warm-up); each
 * sample runs `op` on ⌈work / n⌉ copies' worth of repetitions, so every size does the same work
 * if `op` is linear and no sample is too short to time.
 */
function perMessage(
  n: number,
  work: number,
  op: (x: ReturnType<typeof spliced>) => boolean,
): { med: number; min: number } {
  const x = spliced(n);
  const reps = Math.ceil(work / n);
  op(x);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = cpuMs();
    for (let r = 0; r < reps; r++) if (!op(x)) throw new Error("the replay does not match");
    samples.push(((cpuMs() - t0) * 1e6) / (n * reps));
  }
  return { med: median(samples), min: Math.min(...samples) };
}

/** Growth of the per-message cost; interference only inflates samples, so the smaller ratio is the less disturbed. */
function growth(op: (x: ReturnType<typeof spliced>) => boolean, small_ = 4_000, factor = 4): number {
  const small = perMessage(small_, factor * small_, op);
  const large = perMessage(factor * small_, factor * small_, op);
  return Math.min(large.med / small.med, large.min / small.min);
}

const lawsHold = ({ before, stretches, after }: ReturnType<typeof spliced>) =>
  checkLaws(before, after, stretches, c, { before: 10, after: 5, dueBefore: true }).find((l) => l.law === "L6")?.ok ===
  true;

function copyingReplay({ before, stretches, after }: ReturnType<typeof spliced>): boolean {
  let r: readonly Message[] = before;
  for (const s of stretches) r = [...r.slice(0, s.start), summaryMessage(s.summary), ...r.slice(s.end)];
  return isDeepStrictEqual(r, after);
}

describe("the final law check", () => {
  it("L6 costs about the same per message at 16k messages as at 4k (< 2.5x)", () => {
    const g = growth(lawsHold);
    expect(g, `per-message growth ${g.toFixed(2)}x`).toBeLessThan(2.5);
  }, 60_000);

  // 8x the messages, so the quadratic replay's ~8x growth clears the bound even when the
  // machine is loaded (at 4x it measured 2.41x once under a load average of 15)
  it("the same harness and bound flag the copying replay (one copy per splice; 1k to 8k messages, to stay cheap)", () => {
    const g = growth(copyingReplay, 1_000, 8);
    expect(g, `per-message growth ${g.toFixed(2)}x`).toBeGreaterThan(2.5);
  }, 60_000);
});

/** n messages in rounds of four (a user turn, a tool call, its result, a reply): one stretch a round. */
function rounds(n: number): Message[] {
  const ms: Message[] = [];
  for (let i = 0; ms.length < n; i++) {
    ms.push(
      { role: "user", content: `u${i}` },
      { role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "read", arguments: "{}" }] },
      { role: "tool", toolCallId: `c${i}`, content: `r${i}` },
      { role: "assistant", content: `a${i}`, toolCalls: [] },
    );
  }
  return ms.slice(0, n);
}

const everyStep = parseConfig({ token_threshold: 1, retention_window: 1, tokenizer: "chars" });

/**
 * What a one-shot run does between summarizer calls, over the whole history: plan a step on the
 * store's view from the previous stretch's start, commit its splice; true when every round was
 * replaced (the last one's reply, in the retention window, excepted). `copy` plans on a fresh copy of the history instead (O(messages) a step).
 */
function planAndCommitAll(ms: readonly Message[], copy = false): boolean {
  const store = new ConversationStore(charCounter(), ms);
  let from = 0;
  let steps = 0;
  for (;;) {
    const view = store.view();
    const plan = copy ? planStep(store.snapshot(), everyStep, from) : planStep(view, everyStep, from);
    if (plan.stretch === undefined) break;
    if (store.commitSplice(view, plan.stretch.start, plan.stretch.end, summaryMessage("s")).decision !== "commit")
      return false;
    from = plan.stretch.start;
    steps++;
  }
  return steps === Math.ceil(ms.length / 4);
}

/** Growth of the per-message cost of `op` over rounds(n), from `small` to `factor` times as many messages. */
function storeGrowth(op: (ms: readonly Message[]) => boolean, small = 4_000, factor = 4): number {
  const sample = (n: number) => {
    const ms = rounds(n);
    const reps = Math.ceil((factor * small) / n);
    op(ms);
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = cpuMs();
      for (let r = 0; r < reps; r++) if (!op(ms)) throw new Error("the run did not replace every round");
      samples.push(((cpuMs() - t0) * 1e6) / (n * reps));
    }
    return { med: median(samples), min: Math.min(...samples) };
  };
  const s = sample(small);
  const l = sample(factor * small);
  return Math.min(l.med / s.med, l.min / s.min);
}

describe("the store's splices", () => {
  it("planning and committing every step costs about the same per message at 32k messages as at 4k (< 2.5x)", () => {
    const g = storeGrowth((ms) => planAndCommitAll(ms), 4_000, 8);
    expect(g, `per-message growth ${g.toFixed(2)}x`).toBeLessThan(2.5);
  }, 60_000);

  it("the same harness and bound flag planning on a copy of the history at every step", () => {
    // 2k to 16k: from 500 to 4k messages the fixed cost per step hid the copies (2.7-3.5x, and
    // once at most 2.5x on CI); from 2k the quadratic term shows (5.2-5.6x here)
    const g = storeGrowth((ms) => planAndCommitAll(ms, true), 2_000, 8);
    expect(g, `per-message growth ${g.toFixed(2)}x`).toBeGreaterThan(2.5);
    // the quadratic side is slow by design (32 s of CPU here); the bound is on CPU time,
    // so a loaded machine changes only the wall time, which the timeout must allow for
  }, 300_000);
});
