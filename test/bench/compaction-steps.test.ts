// A compaction run replaces the earliest eligible stretch, one step at a time, until the history is
// under the trigger; a long history that was never compacted takes a number of steps proportional
// to its length. So each step must cost about the same whatever the history's length, or the whole
// run is quadratic. Each step used to re-snapshot the store (copies of the messages and token
// arrays), rebuild the kernel views over the whole history and splice by copying: O(n) per step.
// Measured then (offline summarizer, chars tokenizer, CPU per step over the first 190 steps): 4k
// messages 0.6-1 ms, 40k 7-9 ms, 400k 135 ms; a one-shot compaction of 16k messages took 1.7 s,
// of 64k 50 s (about 9x per step from 4k to 40k messages; bound 3x). Fixed in 5353544: the store
// keeps the views incrementally, plans on a read-only view and splices in place (about 1.3x now).
import { describe, expect, it } from "vitest";
import { generateConversation } from "../../bench/conversation.ts";
import { cpuMs, median } from "../../bench/measure.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

const STEPS = 100;

/** CPU milliseconds per compaction step over the first STEPS steps of a history of n messages. */
async function msPerStep(n: number, seed: number): Promise<number> {
  const store = new ConversationStore(charCounter(), generateConversation(n, { seed }));
  // the summarize loop's steps (the clearing tier is one O(n) pass per run, before the first step)
  const c = parseConfig({ token_threshold: 60_000, tokenizer: "chars", strategy: "summarize" });
  const t0 = cpuMs();
  const r = await compactStore(store, c, { summarizer: offlineSummarizer(charCounter()), maxSteps: STEPS });
  const t = cpuMs() - t0;
  // the history is far above the trigger: every step replaced a stretch or skipped one too small to summarize
  const steps = r.stretches.length + r.skipped.length;
  expect(steps).toBeGreaterThanOrEqual(STEPS);
  expect(r.stretches.length).toBeGreaterThan(STEPS / 2);
  return t / steps;
}

describe("a compaction run over a long history", () => {
  it(`costs about the same per step at 40k messages as at 4k (< 3x), so the whole run stays linear`, async () => {
    await msPerStep(4_000, 1); // warm-up
    const small = median([await msPerStep(4_000, 2), await msPerStep(4_000, 3), await msPerStep(4_000, 4)]);
    const large = median([await msPerStep(40_000, 5), await msPerStep(40_000, 6), await msPerStep(40_000, 7)]);
    expect(
      large / small,
      `${small.toFixed(2)} ms/step at 4k messages, ${large.toFixed(2)} ms/step at 40k`,
    ).toBeLessThan(3);
  }, 120_000);
});
