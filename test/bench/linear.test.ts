// Growth checks on the CI sizes: planning must stay linear in the number of messages and an
// append must not depend on the history's length. Timing on a shared two-core machine is noisy,
// so the harness (bench/measure.ts, planning.ts, append.ts) measures CPU time, warms up, gives
// every sample the same amount of work and memory, and takes several samples; the bound (3x) is
// far above the noise seen in practice (ratios 0.6-1.4x) and far below what the failures we
// guard against produce (about 10x for a quadratic step between 1k and 10k). The last two tests prove that: the same
// harness and bound flag a quadratic planning step and a ledger that re-reads the history.
import { describe, expect, it } from "vitest";
import { type Appendable, type AppendTiming, appendBySize } from "../../bench/append.ts";
import { type PlanningOp, type SizeTiming, timeBySize, timeOpsBySize } from "../../bench/planning.ts";
import { kernelViews } from "../../src/engine/store/views.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";

const SMALL = 1_000;
const LARGE = 10_000;
const BOUND = 3;
const REPS = { warmup: 1, reps: 7 };

/**
 * Growth of the per-message (or per-append) cost from the small to the large size. Both the
 * median and the fastest sample are estimators of the true cost; interference from other
 * processes only ever inflates a sample, so the smaller of the two ratios is the one less
 * disturbed, and a real quadratic cost inflates both.
 */
function growth(small: { med: number; min: number }, large: { med: number; min: number }): number {
  return Math.min(large.med / small.med, large.min / small.min);
}
const perMessage = (t: SizeTiming) => ({ med: t.perMessageNs, min: t.minPerMessageNs });
const perAppend = (t: AppendTiming) => ({ med: t.perAppendNs, min: t.minPerAppendNs });

function describeTimings(ts: readonly SizeTiming[]): string {
  return ts
    .map(
      (t) =>
        `${t.n}: ${t.perMessageNs.toFixed(1)} ns/msg (samples ${t.samplesMs.map((x) => x.toFixed(1)).join(", ")} ms)`,
    )
    .join("; ");
}

// A planning step with a classic accidental quadratic: each tool result looks for its call by
// scanning the history from the start.
const quadraticViews: PlanningOp = (snap) => {
  const ms = snap.messages;
  let found = 0;
  for (let j = 0; j < ms.length; j++) {
    const m = ms[j];
    if (m.role !== "tool") continue;
    for (let i = 0; i < j; i++) {
      const a = ms[i];
      if (a.role === "assistant" && a.toolCalls.some((c) => c.id === m.toolCallId)) {
        found++;
        break;
      }
    }
  }
  return found + kernelViews(ms).userTurns;
};

// A ledger that keeps counts but recomputes its total from the whole history on each append.
function recountingLedger(history: readonly Message[]): Appendable {
  const counter = charCounter();
  const counts = history.map((m) => messageTokens(counter, m));
  let total = 0;
  return {
    append(m: Message) {
      counts.push(messageTokens(counter, m));
      total = 0;
      for (const c of counts) total += c;
    },
    get total() {
      return total;
    },
  };
}

describe("planning is linear in the number of messages", () => {
  it(`per-message planning time at ${LARGE} messages is < ${BOUND}x that at ${SMALL}`, () => {
    const t = timeBySize([SMALL, LARGE], ["planStep", "views"], 100_000, REPS);
    for (const part of ["planStep", "views"] as const) {
      const [s, l] = t.get(part) ?? [];
      expect(s?.n).toBe(SMALL);
      expect(l?.n).toBe(LARGE);
      const g = growth(perMessage(s), perMessage(l));
      expect(g, `${part}: ${describeTimings([s, l])}`).toBeLessThan(BOUND);
    }
  });

  it("the same harness and bound flag a quadratic planning step", () => {
    const t = timeOpsBySize([SMALL, LARGE], new Map([["quadratic", quadraticViews]]), 20_000, { warmup: 1, reps: 3 });
    const [s, l] = t.get("quadratic") ?? [];
    const g = growth(perMessage(s), perMessage(l));
    expect(g, describeTimings([s, l])).toBeGreaterThan(BOUND);
  });
});

describe("appending one message does not depend on the history's length", () => {
  it(`ledger.append and store.append cost at ${LARGE} messages is < ${BOUND}x that at ${SMALL}`, () => {
    for (const [path, appends] of [
      ["ledger-chars", 20_000],
      ["store-bpe", 500],
    ] as const) {
      const [s, l] = appendBySize([SMALL, LARGE], path, appends, REPS);
      const g = growth(perAppend(s), perAppend(l));
      expect(
        g,
        `${path}: ${s.perAppendNs.toFixed(0)} ns at ${SMALL}, ${l.perAppendNs.toFixed(0)} ns at ${LARGE}`,
      ).toBeLessThan(BOUND);
    }
  });

  it("the same harness and bound flag a ledger that re-reads the history on each append", () => {
    const [s, l] = appendBySize([SMALL, LARGE], recountingLedger, 5_000, { warmup: 1, reps: 3 });
    const g = growth(perAppend(s), perAppend(l));
    expect(g, `${s.perAppendNs.toFixed(0)} ns at ${SMALL}, ${l.perAppendNs.toFixed(0)} ns at ${LARGE}`).toBeGreaterThan(
      BOUND,
    );
  });
});
