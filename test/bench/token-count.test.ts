// Counting a message's tokens must cost time proportional to its length: the ledger counts every
// appended message once, so one message whose count is superlinear stalls the agent at append.
// Tool outputs with long unbroken runs of letters (DNA sequences, "aaaa..." fill, words glued
// without spaces) are where the default BPE counter (o200k_base through gpt-tokenizer) goes
// superlinear: one pre-token of n letters is merged in about n^1.8 time (measured: 10k letters
// 0.14 s, 40k 1.3 s, 100k 8.4 s). The test compares the CPU time per character of counting one
// 60k-letter message against thirty 2k-letter ones (the same total): linear counting gives ~1x;
// the bound 2x leaves room for noise. Before src/model/tokens.ts counted long unbroken runs in
// bounded pieces this was about 20x (1.5 s against 0.07 s); with the pieces it is about 1x.
import { describe, expect, it } from "vitest";
import { cpuMs, median } from "../../bench/measure.ts";
import type { Message } from "../../src/model/message.ts";
import { bpeCounter, messageTokens } from "../../src/model/tokens.ts";

/** A deterministic run of lowercase letters with no spaces or punctuation. */
function letters(n: number, seed: number): string {
  let x = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push("acgt"[(x >>> 16) % 4]);
  }
  return out.join("");
}

const toolOutput = (content: string): Message => ({ role: "tool", toolCallId: "c1", content });

/** CPU milliseconds to count the tokens of each message once (callers pass texts never counted before: the tokenizer caches). */
function countCpuMs(ms: readonly Message[]): number {
  const counter = bpeCounter();
  const t0 = cpuMs();
  let total = 0;
  for (const m of ms) total += messageTokens(counter, m);
  const t = cpuMs() - t0;
  expect(total).toBeGreaterThan(0);
  return t;
}

describe("token counting is linear in the message length", () => {
  it("one 60k-letter tool output costs < 2x per character what thirty 2k-letter ones cost", () => {
    const TOTAL = 60_000;
    // fresh texts for every sample: gpt-tokenizer caches what it has counted
    const smallBatch = (round: number) =>
      Array.from({ length: 30 }, (_, k) => toolOutput(letters(TOTAL / 30, 1_000 * round + k + 1)));
    countCpuMs(smallBatch(0)); // warm-up
    const smallMs = median([countCpuMs(smallBatch(1)), countCpuMs(smallBatch(2)), countCpuMs(smallBatch(3))]);
    const largeMs = countCpuMs([toolOutput(letters(TOTAL, 99))]);
    expect(
      largeMs / smallMs,
      `one 60k-letter message: ${largeMs.toFixed(0)} ms; thirty 2k-letter ones: ${smallMs.toFixed(0)} ms`,
    ).toBeLessThan(2);
  }, 60_000);
});
