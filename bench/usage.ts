// Reported usage: what a "not due" check costs when a provider's usage report covers the history,
// with the BPE counter. The store leaves the messages the report covers uncounted (no decision
// needs their counts when the run is not due); before, its load counted every message. Both are
// timed in the same run, against the same conversations.
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { compactStore } from "../src/engine/run/compact.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { compactMessages } from "../src/library/compact-messages.ts";
import type { Config } from "../src/model/config.ts";
import type { Message } from "../src/model/message.ts";
import { type TokenCounter, tokenCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { generateConversation } from "./conversation.ts";
import { collect, consume, cpuMs, median, sinkValue, sizesFromArgs } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

/** The sizes of the full bench's table; its CI run takes the first only. */
export const USAGE_SIZES: readonly number[] = [10_000, 100_000];
/** Samples per figure (after one warm-up). */
export const USAGE_REPS = 5;
/** Messages after the report's prefix in the "report covers all but the last messages" column. */
const UNCOVERED = 100;
/** The reported prompt tokens: far below the threshold, so the run is not due. */
const REPORTED = 50_000;

/** One size's timings: CPU milliseconds of one not-due dry run, medians. */
export interface UsageTiming {
  readonly n: number;
  /** compactMessages without usage: every message counted (the trigger judges the counted total) */
  readonly noUsageMs: number;
  /** with usage, on a store that counts every message at load (what the engine did before) */
  readonly eagerMs: number;
  /** compactMessages with usage covering every message */
  readonly lazyMs: number;
  /** compactMessages with usage covering all but the last UNCOVERED messages (those are counted) */
  readonly lazyTailMs: number;
}

/** Median CPU milliseconds of `run` over `reps` samples after one warm-up, collecting garbage before each. */
async function timeAsync(run: () => Promise<number>, reps: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i <= reps; i++) {
    collect();
    const t0 = cpuMs();
    consume(await run());
    if (i > 0) ms.push(cpuMs() - t0);
  }
  return median(ms);
}

/** The engine's path before lazy counting: a store that counts every message at load, then the run with usage. */
async function eagerRun(ms: readonly Message[], c: Config, counter: TokenCounter): Promise<number> {
  const store = new ConversationStore(counter, ms);
  const r = await compactStore(store, c, {
    summarizer: offlineSummarizer(counter),
    dryRun: true,
    usage: { reported: REPORTED, end: ms.length },
  });
  return r.usage?.judgedTokensBefore ?? -1;
}

/**
 * Times a not-due `compactMessages(..., { dryRun: true, usage })` with the BPE counter at each
 * size, against the same run without usage and against the store counting every message at load.
 * `reps` samples per figure after a warm-up (the counter's caches are warm from then on).
 */
export async function usageBySize(sizes: readonly number[], reps: number): Promise<UsageTiming[]> {
  const c = parseConfig({ token_threshold: 1_000_000_000, tokenizer: "bpe" });
  const counter = tokenCounter("bpe");
  const summarizer = offlineSummarizer(counter);
  const out: UsageTiming[] = [];
  for (const n of sizes) {
    const ms = generateConversation(n, { seed: 11 });
    const dry = async (usage?: { promptTokens: number; messages?: number }) => {
      const r = await compactMessages(ms, c, { dryRun: true, counter, summarizer, ...(usage ? { usage } : {}) });
      if (r.report.outcome !== "nothing-to-do") throw new Error(`the bench's run is due: ${r.report.reason}`);
      return r.report.usage?.judgedTokensBefore ?? r.report.tokensBefore ?? -1;
    };
    out.push({
      n,
      noUsageMs: await timeAsync(() => dry(), reps),
      eagerMs: await timeAsync(() => eagerRun(ms, c, counter), reps),
      lazyMs: await timeAsync(() => dry({ promptTokens: REPORTED }), reps),
      lazyTailMs: await timeAsync(() => dry({ promptTokens: REPORTED, messages: n - UNCOVERED }), reps),
    });
  }
  return out;
}

function usageTable(u: readonly UsageTiming[]): string {
  return table(
    [
      "messages",
      "no usage (ms)",
      "usage, store counting every message (before) (ms)",
      "usage covering all (after) (ms)",
      "before / after",
      `usage covering all but the last ${UNCOVERED} (ms)`,
    ],
    u.map((x) => [
      fmtN(x.n),
      fmt(x.noUsageMs),
      fmt(x.eagerMs),
      fmt(x.lazyMs),
      fmtRatio(x.eagerMs / x.lazyMs),
      fmt(x.lazyTailMs),
    ]),
  );
}

/** The section of `npm run bench`'s results about reported usage (heading, method, table). */
export function usageSection(u: readonly UsageTiming[], reps: number): string[] {
  return [
    "## Reported usage: a not-due check",
    "",
    'CPU time of one `compactMessages(messages, { tokenizer: "bpe", token_threshold: 10^9 }, { dryRun: true, usage })`',
    `that is not due, with the BPE counter (o200k_base, caches warm), median of ${reps} samples after a warm-up. Before:`,
    "the same run with usage on a store that counts every message at load (`new ConversationStore(counter, messages)`",
    "then `compactStore`), which is what the engine did before the store learned to leave the reported prefix uncounted.",
    `The last column's report covers all but the last ${UNCOVERED} messages: only those are counted. What the run with`,
    "usage still costs is the load without counting (shape and pairing checks, the id table, the kernel views), the item",
    "map, the nesting check and the law checks on the result.",
    "",
    usageTable(u),
    "",
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `npx tsx bench/usage.ts [sizes...]` prints the table alone (the full bench's sizes by default)
  const u = await usageBySize(sizesFromArgs(USAGE_SIZES), USAGE_REPS);
  process.stdout.write(`${usageTable(u)}\n(sink ${sinkValue()})\n`);
}
