// One step of a compaction run: the CPU cost per step of the first steps of a one-shot compaction
// at each history size (a run is linear only if this stays flat as the history grows).

import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { compactStore } from "../src/engine/run/compact.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { generateConversation } from "./conversation.ts";
import { collect, cpuMs, median, successiveRatios } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

/** CPU cost of one step of a compaction run at one history size. */
export interface StepTiming {
  readonly n: number;
  /** median CPU milliseconds per step (replaced or skipped stretch) */
  readonly msPerStep: number;
  readonly steps: number;
}

/**
 * The first `steps` steps of a one-shot compaction (offline summarizer, character heuristic)
 * over a generated history of each size, far above the trigger: a run over a never-compacted
 * history takes a number of steps proportional to its length, so a run is linear only if the
 * cost per step does not grow with n.
 */
export async function compactionStepsBySize(
  sizes: readonly number[],
  steps: number,
  reps: number,
): Promise<StepTiming[]> {
  // the summarize loop's steps (the clearing tier is one O(n) pass per run, before the first step)
  const c = parseConfig({ token_threshold: 60_000, tokenizer: "chars", strategy: "summarize" });
  const once = async (n: number, seed: number): Promise<{ ms: number; steps: number }> => {
    const store = new ConversationStore(charCounter(), generateConversation(n, { seed }));
    collect();
    const t0 = cpuMs();
    const r = await compactStore(store, c, { summarizer: offlineSummarizer(charCounter()), maxSteps: steps });
    const done = r.stretches.length + r.skipped.length;
    return { ms: (cpuMs() - t0) / Math.max(1, done), steps: done };
  };
  await once(1_000, 99); // warm-up
  const out: StepTiming[] = [];
  for (const n of sizes) {
    const runs: Array<{ ms: number; steps: number }> = [];
    for (let k = 0; k < reps; k++) runs.push(await once(n, k + 1));
    out.push({ n, msPerStep: median(runs.map((x) => x.ms)), steps: Math.min(...runs.map((x) => x.steps)) });
  }
  return out;
}

function stepsTable(t: readonly StepTiming[]): string {
  const r = successiveRatios(t.map((x) => x.msPerStep));
  return table(
    ["history (messages)", "CPU per step (ms)", "ratio vs previous size", "steps timed"],
    t.map((x, i) => [fmtN(x.n), fmt(x.msPerStep, 2), fmtRatio(r[i]), String(x.steps)]),
  );
}

/** The section of `npm run bench`'s results about run steps (heading, method, table). */
export function stepsSection(t: readonly StepTiming[], steps: number): string[] {
  return [
    "## One step of a compaction run",
    "",
    `The first ${steps} steps of a one-shot compaction (offline summarizer, character heuristic) over a history far above the`,
    "trigger, median of 2 runs. A never-compacted history needs a number of steps proportional to its length, so the run",
    "is linear only if the cost per step stays flat (ratio near 1); a ratio near 10 per decade means the run is quadratic.",
    "",
    stepsTable(t),
    "",
  ];
}
