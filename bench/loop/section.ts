// The agent-loop replay's section of bench/RESULTS.md: one row per session, trigger and
// compactor, then safecut's figures over the baseline's per trigger (all sessions summed).
import { fmt, fmtN, fmtRatio, table } from "../table.ts";
import { BLOCK, billed, type CacheStyle, LOOKBACK, MIN_CACHED, PRICE } from "./cache-bill.ts";
import { BASELINE_KEEP_SHARE, MODEL_CALL_S, SOFT_SHARE } from "./compactors.ts";
import type { FloorPolicy, FloorStats } from "./lawful-floor.ts";
import { emptyStats, type ReplayStats } from "./replay.ts";
import { LATENCY, SUMMARY_BASE, SUMMARY_RATE } from "./summarizer-server.ts";

/** The section's heading: bench:loop replaces the section under it in RESULTS.md. */
export const LOOP_HEADING = "## Agent loop replay";
/** The before/after table of the economy settings, written by hand from bench:loop runs; a full bench keeps it. */
export const LOOP_BEFORE_AFTER_HEADING = "## Agent loop replay: before and after the economy settings (CI size)";

/** One replay's result with what it was a replay of. */
export interface LoopRow {
  readonly session: string;
  readonly trigger: number;
  readonly compactor: string;
  readonly stats: ReplayStats;
}

const k = (n: number) => `${fmt(n / 1000, 1)}k`;
const pct = (x: number) => `${fmt(100 * x, 0)}%`;

type Totals = { -readonly [K in keyof ReplayStats]: number };

function sum(rows: readonly LoopRow[]): Totals {
  const t: Totals = emptyStats();

  for (const { stats } of rows) {
    for (const key of Object.keys(t) as (keyof ReplayStats)[])
      if (key !== "leastUserShare" && key !== "finalSummaryShare") t[key] += stats[key];
    t.leastUserShare = Math.min(t.leastUserShare, stats.leastUserShare);
    t.finalSummaryShare = Math.max(t.finalSummaryShare, stats.finalSummaryShare);
  }
  return t;
}

const ratio = (a: number, b: number) => (b === 0 ? undefined : a / b);

/** One replay of one session with the ideal lawful compactor (lawful-floor.ts) under one policy. */
export interface FloorRow {
  readonly session: string;
  readonly trigger: number;
  readonly policy: FloorPolicy;
  readonly stats: FloorStats;
}

/** A floor policy as the table names it. */
function policyName(p: FloorPolicy): string {
  const how = p.clearing ? `clear, then summarize from ${fmt(100 * p.summarizeFrom, 0)}% of the trigger` : "summarize";
  const keeps = [
    ...(p.keeps?.keepRecentTokens === undefined ? [] : [`keep recent ${p.keeps.keepRecentTokens}`]),
    ...(p.keeps?.keepSummaries === true ? ["age 0%"] : []),
  ];
  return [how, ...keeps].join(", ");
}

/** The ideal compactor's calls and main-model input per trigger and policy, all sessions, against the baseline's and safecut's at its defaults. */
function floorTable(rows: readonly LoopRow[], floors: readonly FloorRow[]): string {
  const out: string[][] = [];
  for (const t of [...new Set(floors.map((r) => r.trigger))]) {
    const base = sum(rows.filter((r) => r.trigger === t && r.compactor === "baseline"));
    const shipped = sum(rows.filter((r) => r.trigger === t && r.compactor === "safecut, defaults"));
    const of = (x: number, b: number) => `${x} (${fmtRatio(ratio(x, b))})`;
    out.push([
      fmtN(t),
      "safecut, defaults",
      of(shipped.summarizerCalls, base.summarizerCalls),
      fmtRatio(ratio(shipped.mainInput, base.mainInput)),
    ]);
    for (const name of [...new Set(floors.map((r) => policyName(r.policy)))]) {
      const mine = floors.filter((r) => r.trigger === t && policyName(r.policy) === name);
      const calls = mine.reduce((a, r) => a + r.stats.calls, 0);
      const main = mine.reduce((a, r) => a + r.stats.mainInput, 0);
      out.push([fmtN(t), `ideal: ${name}`, of(calls, base.summarizerCalls), fmtRatio(ratio(main, base.mainInput))]);
    }
  }
  return table(["trigger", "compactor", "summarizer calls (vs baseline)", "main-model input (vs baseline)"], out);
}

/** What one compactor's replays (or the ideal's) cost in dollars, summed over sessions: the fields the bill reads. */
type Billable = Pick<
  ReplayStats,
  | "summarizerInput"
  | "summarizerOutput"
  | "anthropicBill"
  | "anthropicBusts"
  | "anthropicRewritten"
  | "openaiBill"
  | "openaiBusts"
  | "openaiRewritten"
> & { readonly summarizerCalls: number };

/** A bill's parts for one provider style: main model (cached input), summarizer (input 1x, output at the style's multiple), busts and tokens re-written per bust. */
function bill(x: Billable, style: CacheStyle) {
  const main = style === "anthropic" ? x.anthropicBill : x.openaiBill;
  const busts = style === "anthropic" ? x.anthropicBusts : x.openaiBusts;
  const rewritten = style === "anthropic" ? x.anthropicRewritten : x.openaiRewritten;
  const summarizer = x.summarizerInput + PRICE.output[style] * x.summarizerOutput;
  return { main, summarizer, total: main + summarizer, busts, perBust: busts === 0 ? 0 : rewritten / busts };
}

/** The ideal's replays under one policy, summed, as a Billable. */
function floorTotals(floors: readonly FloorRow[]): Billable {
  const t = { summarizerCalls: 0, summarizerInput: 0, summarizerOutput: 0, ...billed() };
  for (const { stats } of floors) {
    t.summarizerCalls += stats.calls;
    for (const key of Object.keys(t) as (keyof typeof t)[]) if (key !== "summarizerCalls") t[key] += stats[key];
  }
  return t;
}

/** The dollar table of one provider style: per trigger, the baseline, the ideal's policies and each safecut configuration. */
function dollarTable(rows: readonly LoopRow[], floors: readonly FloorRow[], style: CacheStyle): string {
  const out: string[][] = [];
  for (const t of [...new Set(rows.map((r) => r.trigger))]) {
    const base = bill(sum(rows.filter((r) => r.trigger === t && r.compactor === "baseline")), style);
    const line = (name: string, x: Billable) => {
      const b = bill(x, style);
      out.push([
        fmtN(t),
        name,
        String(x.summarizerCalls),
        `${k(b.main)} (${fmtRatio(ratio(b.main, base.main))})`,
        `${k(b.summarizer)} (${fmtRatio(ratio(b.summarizer, base.summarizer))})`,
        `${k(b.total)} (${fmtRatio(ratio(b.total, base.total))})`,
        String(b.busts),
        k(b.perBust),
      ]);
    };
    for (const c of [...new Set(rows.map((r) => r.compactor))])
      line(c, sum(rows.filter((r) => r.trigger === t && r.compactor === c)));
    for (const name of [...new Set(floors.map((r) => policyName(r.policy)))])
      line(`ideal: ${name}`, floorTotals(floors.filter((r) => r.trigger === t && policyName(r.policy) === name)));
  }
  return table(
    [
      "trigger",
      "compactor",
      "summarizer calls",
      "main-model bill (vs baseline)",
      "summarizer bill (vs baseline)",
      "total (vs baseline)",
      "cache busts",
      "tokens re-written per bust",
    ],
    out,
  );
}

/** The dollar part of the section: how the bill is modelled, then one table per provider style. */
export function dollarLines(rows: readonly LoopRow[], floors: readonly FloorRow[]): string[] {
  return [
    "Dollars, with prompt caching as the providers bill it (bench/loop/cache-bill.ts), in input-token equivalents",
    "(tokens times the price multiple of the model's uncached input; all sessions summed). Main model: every request",
    `of the replay. Anthropic style: a cached read costs ${PRICE.read}x, a cache write ${PRICE.write}x; the agent marks the system`,
    "prompt and the context's last message with a breakpoint; safecut's and the ideal's requests also carry the one the",
    "adapters add (src/adapters/cache-breakpoint.ts: on the last message before the first one compaction changed);",
    `a request reads the longest earlier entry it still has at one of its breakpoints or up to ${LOOKBACK} messages before one,`,
    `and entries are written only for prefixes of at least ${MIN_CACHED} tokens. OpenAI style: the longest prefix shared with`,
    `the request before, in ${BLOCK}-token blocks from ${MIN_CACHED} tokens, costs ${PRICE.read}x. Summarizer calls are uncached: input at`,
    `1x, output at ${PRICE.output.anthropic}x (Anthropic) or ${PRICE.output.openai}x (OpenAI). The main model's output (the recorded replies) is the`,
    "same for every compactor and left out. A cache bust is a request that changed a message the request before it had",
    "sent; tokens re-written are what such a request writes (Anthropic) or pays in full (OpenAI). `safecut, defaults,",
    `background\` is safecut at its defaults with soft_token_threshold at ${fmt(SOFT_SHARE, 2)} of the trigger (BackgroundCompaction`,
    `on a store; each model call takes ${MODEL_CALL_S} modelled seconds while a run goes on). The ideal's summarizer bill is what`,
    "its calls would read (the gaps) and write (the least summaries), without a prompt.",
    "",
    "Anthropic style:",
    "",
    dollarTable(rows, floors, "anthropic"),
    "",
    "OpenAI style:",
    "",
    dollarTable(rows, floors, "openai"),
    "",
  ];
}

/** The section's lines. */
export function loopSection(
  rows: readonly LoopRow[],
  command: string,
  scale: number,
  floors: readonly FloorRow[] = [],
): string[] {
  const detail = rows.map(({ session, trigger, compactor, stats: s }) => [
    session,
    fmtN(trigger),
    compactor,
    String(s.modelCalls),
    String(s.events),
    `${s.summarizerCalls} (${s.summaries})`,
    k(s.summarizerInput),
    k(s.summarizerOutput),
    k(s.mainInput),
    fmt(s.waitSeconds, 0),
    `${pct(s.callsWithEveryUser / Math.max(1, s.modelCalls))} (least ${pct(s.leastUserShare)})`,
    `${s.finalSummaries} (${pct(s.finalSummaryShare)})`,
    `${k(s.finalTokens)} (${k(s.finalUserSystem)})`,
    String(s.repeatedUnshrinkable),
  ]);
  const triggers = [...new Set(rows.map((r) => r.trigger))];
  const compactors = [...new Set(rows.map((r) => r.compactor))].filter((c) => c !== "baseline");
  const ratios: string[][] = [];
  for (const t of triggers) {
    const base = sum(rows.filter((r) => r.trigger === t && r.compactor === "baseline"));
    for (const c of compactors) {
      const x = sum(rows.filter((r) => r.trigger === t && r.compactor === c));
      ratios.push([
        fmtN(t),
        c,
        fmtRatio(ratio(x.events, base.events)),
        fmtRatio(ratio(x.summarizerCalls, base.summarizerCalls)),
        fmtRatio(ratio(x.summarizerInput, base.summarizerInput)),
        fmtRatio(ratio(x.summarizerOutput, base.summarizerOutput)),
        fmtRatio(ratio(x.mainInput, base.mainInput)),
        fmtRatio(ratio(x.waitSeconds, base.waitSeconds)),
        fmtRatio(ratio(x.sequentialSeconds, base.sequentialSeconds)),
        `${pct(x.callsWithEveryUser / Math.max(1, x.modelCalls))} vs ${pct(base.callsWithEveryUser / Math.max(1, base.modelCalls))}`,
        `${x.finalSummaries} (${pct(x.finalSummaryShare)}) vs ${base.finalSummaries} (${pct(base.finalSummaryShare)})`,
        String(x.repeatedUnshrinkable),
      ]);
    }
  }
  return [
    LOOP_HEADING,
    "",
    `\`${command}\` (bench/loop/) replays each session as a live agent loop: before every model call (each recorded`,
    "assistant message) the compactor runs on the context, the context is sent (its tokens are the main model's input),",
    "and the recorded reply and the tool results after it join the context. Summaries come from a summarizer on a loopback",
    "HTTP server (127.0.0.1) reached through safecut's OpenAI provider, answering by a length model (",
    `${SUMMARY_BASE} tokens + ${SUMMARY_RATE} of the excerpt and of the earlier summary it folds in, at most the budget its prompt states, holding the prompt's required facts) after a modelled`,
    `latency of ${LATENCY.baseS} s + ${LATENCY.perKInputS} s per 1k input tokens + ${LATENCY.perOutputS} s per output token, slept ${scale}x faster. Waits are`,
    "modelled seconds: calls the library had in flight together (a batch's calls, up to batch_calls) overlap, calls made one",
    'after another add up (read from when each call really ran); "sequential wait" adds up every call instead. Tokens by',
    "the character heuristic. `safecut` runs `compactMessages` with `token_threshold` = trigger, `strategy` summarize and",
    "every other setting at its default; `safecut, age 0%` the same without summary aging (the summary share before aging);",
    "`safecut, defaults` every setting at its default (`strategy` clear-then-summarize too); `safecut, stateless` as",
    "`safecut` with no memory passed between calls (only what the messages carry: the summaries' markers); `safecut,",
    "keep recent 5000` as `safecut` with `keep_recent_tokens` 5000. The baseline (written in",
    `the bench) summarizes everything before a keep-recent cut (${fmt(BASELINE_KEEP_SHARE, 2)} of the trigger, moved back to a turn start) in one`,
    "call, with the same prompt, when the context reaches the trigger. Events: compactions that replaced something.",
    "Summarizer calls: HTTP requests (a batch of stretches in one request is one call), with the summaries used in",
    "parentheses. Repeated attempts: stretches sent to the summarizer",
    "again though an earlier compaction of the replay had found no summary of them shorter (same messages).",
    "",
    table(
      [
        "session",
        "trigger",
        "compactor",
        "model calls",
        "events",
        "summarizer calls (summaries used)",
        "summarizer input",
        "summarizer output",
        "main-model input",
        "wait (modelled s)",
        "contexts with every user message",
        "summaries in the last context (token share)",
        "last context tokens (user + system)",
        "repeated attempts at unshrinkable stretches",
      ],
      detail,
    ),
    "",
    "Over all sessions, per trigger, against the baseline in the same run (user messages: contexts holding every one,",
    "compactor vs baseline):",
    "",
    table(
      [
        "trigger",
        "compactor",
        "events",
        "summarizer calls",
        "summarizer input",
        "summarizer output",
        "main-model input",
        "wait",
        "sequential wait",
        "contexts with every user message",
        "summaries in the last contexts (largest share)",
        "repeated attempts at unshrinkable stretches",
      ],
      ratios,
    ),
    "",
    ...(floors.length === 0
      ? []
      : [
          "The least the laws allow (bench/loop/lawful-floor.ts): an ideal compactor replayed on the same sessions, with no",
          "summarizer, that whenever the context reaches the trigger keeps only what the laws keep (every user and system",
          "message, the retention window) and one summary per gap between them holding nothing but that gap's required facts",
          "(the shortest summary safecut's validation accepts), in one call; with clearing, it first clears every tool result",
          "before the retention window (no call) and summarizes only when that leaves at least the share named. One call",
          "frees no more than its summarizing does, so a compactor that only summarizes is due at least as often (up to a few",
          "tokens of rounding per summary); clearing trades calls for main-model input:",
          "",
          floorTable(rows, floors),
          "",
          ...dollarLines(rows, floors),
        ]),
  ];
}

/**
 * An exploratory run's sweep: per trigger and compactor, over all sessions, what each cost in
 * absolute figures and against the baseline (events, calls, summaries used, rejected answers and failed calls,
 * summarizer input and output, the agent's wait, main-model input).
 */
export function sweepLines(rows: readonly LoopRow[]): string[] {
  const out: string[][] = [];
  for (const t of [...new Set(rows.map((r) => r.trigger))]) {
    const base = sum(rows.filter((r) => r.trigger === t && r.compactor === "baseline"));
    for (const c of [...new Set(rows.map((r) => r.compactor))]) {
      const x = sum(rows.filter((r) => r.trigger === t && r.compactor === c));
      const vs = (a: number, b: number) => `${k(a)} (${fmtRatio(ratio(a, b))})`;
      out.push([
        fmtN(t),
        c,
        String(x.events),
        `${x.summarizerCalls} (${x.summaries})`,
        `${x.rejectedAnswers} (${x.failedCalls})`,
        vs(x.summarizerInput, base.summarizerInput),
        vs(x.summarizerOutput, base.summarizerOutput),
        `${fmt(x.waitSeconds, 0)} (${fmtRatio(ratio(x.waitSeconds, base.waitSeconds))})`,
        vs(x.mainInput, base.mainInput),
      ]);
    }
  }
  return [
    table(
      [
        "trigger",
        "compactor",
        "events",
        "summarizer calls (summaries used)",
        "rejected answers (failed calls)",
        "summarizer input (vs baseline)",
        "summarizer output (vs baseline)",
        "wait, modelled s (vs baseline)",
        "main-model input (vs baseline)",
      ],
      out,
    ),
  ];
}
