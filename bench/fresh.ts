// Fresh decision: a decision on a history read from scratch with the character heuristic (the
// store's load, the public "is it due" a caller asks each turn (a store and storeDueBy, from the
// package's entry), the per-turn compactMessages and compactOpenAIMessages on a history that is
// not due, the store's view and planStep, and the whole compactMessages dry run), each against
// the bare chars/4 pass over the same messages in the same run.
import { fileURLToPath } from "node:url";
import { writeOpenAIMessages } from "../src/adapters/openai.ts";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { planStep } from "../src/engine/run/plan.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { ConversationStore as PublicStore, storeDueBy } from "../src/index.ts";
import { compactMessages } from "../src/library/compact-messages.ts";
import { compactOpenAIMessages } from "../src/library/compact-wire.ts";
import type { Config } from "../src/model/config.ts";
import type { JsonObject } from "../src/model/json.ts";
import { assertEachNesting } from "../src/model/json-depth.ts";
import type { Message } from "../src/model/message.ts";
import { hasMessageShape } from "../src/model/message-shape.ts";
import { charCounter, messageTokens, type TokenCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { generateConversation } from "./conversation.ts";
import { benchConfig, charsPass } from "./fixtures.ts";
import { collect, consume, cpuMs, measure, median, type Repetitions, sinkValue, sizesFromArgs } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

/** The sizes, work per sample and samples of the full bench's table. */
export const FRESH_SIZES: readonly number[] = [1_000, 10_000, 100_000, 1_000_000];
export const FRESH_WORK = 1_000_000;
export const FRESH_REPS: Repetitions = { warmup: 1, reps: 5 };

/** Cost of a fresh decision at one size, against the bare chars / 4 pass over the same messages. */
export interface FreshTiming {
  readonly n: number;
  /** median CPU nanoseconds per message of: the bare pass, the store's load, load + storeDueBy (the public "is it due"), compactMessages and compactOpenAIMessages on the history under notDueConfig, load + view + planStep, compactMessages dry run */
  readonly baselineNs: number;
  readonly loadNs: number;
  readonly dueNs: number;
  readonly notDueNs: number;
  readonly wireNotDueNs: number;
  readonly decisionNs: number;
  readonly dryRunNs: number;
  /**
   * median CPU nanoseconds per message of what any load as strict as the store's must do, each
   * timed alone: the shape checks, the nesting walk, a Map of every tool call id (the duplicate-id
   * check) and the token counts; and all four in one sample (the nesting walk, then one loop doing
   * the other three), since each sample alone also pays the per-sample costs the bare pass pays
   */
  readonly floor: {
    readonly shapeNs: number;
    readonly nestingNs: number;
    readonly idsNs: number;
    readonly countNs: number;
    readonly togetherNs: number;
  };
}

// The duplicate-id check's table alone: every tool call id into one Map, as the load does.
function idTable(ms: readonly Message[]): number {
  const ids = new Map<string, number>();
  let k = 0;
  for (const m of ms) if (m.role === "assistant") for (const c of m.toolCalls) ids.set(c.id, k++);
  return ids.size;
}

// The least a load as strict as the store's does: the nesting walk, then one loop checking each
// message's shape, entering its tool call ids in one Map and counting its tokens.
function strictFloor(ms: readonly Message[], counter: TokenCounter): number {
  assertEachNesting(ms, "messages");
  const ids = new Map<string, number>();
  let t = 0;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (!hasMessageShape(m)) return -1;
    if (m.role === "assistant") for (const c of m.toolCalls) ids.set(c.id, i);
    t += messageTokens(counter, m);
  }
  return t + ids.size;
}

/**
 * benchConfig with every trigger out of reach (token_threshold and context_window 10^12, and a
 * byte budget of 2^40 for the wire helper, which otherwise takes the provider's request size):
 * the per-turn call on a history that is not due. (benchConfig's generated 1k history, about
 * 209k tokens, is over its 200k context window: due.)
 */
export function notDueConfig(bytes = false): Config {
  return parseConfig({
    token_threshold: 1e12,
    context_window: 1e12,
    reserve_tokens: 16_384,
    keep_recent_tokens: 20_000,
    ...(bytes ? { max_request_bytes: 2 ** 40 } : {}),
  });
}

// Runs one not-due call and refuses to time a run that was due (it would not measure the not-due path).
async function notDue(run: Promise<{ readonly report: { readonly outcome: string } }>): Promise<number> {
  const { outcome } = (await run).report;
  if (outcome !== "nothing-to-do") throw new Error(`the not-due bench ran a history that was due (${outcome})`);
  return 1;
}

/**
 * A fresh decision on histories read from scratch, with the character heuristic: the store's
 * load (shape checks, id table, token counts, which call each result answers), then its view
 * (which builds the kernel views) and planStep (trigger, keep-recent stretch), and the whole `compactMessages(..., { dryRun: true })` (which adds the
 * configuration, the summarizer's construction and the law checks on the result). Each sample
 * covers ⌈workMessages / n⌉ distinct conversations (the same memory at every size).
 */
export async function freshBySize(
  sizes: readonly number[],
  workMessages: number,
  r: Repetitions,
): Promise<FreshTiming[]> {
  const c = benchConfig();
  const summarizer = offlineSummarizer(charCounter());
  const out: FreshTiming[] = [];
  for (const n of sizes) {
    const copies = Math.max(1, Math.ceil(workMessages / n));
    let convs: Message[][] = Array.from({ length: copies }, (_, k) => generateConversation(n, { seed: k + 1 }));
    const perMessage = (ms: number) => (ms * 1e6) / (copies * n);
    const timeSync = (op: (ms: readonly Message[]) => number) =>
      perMessage(
        measure(() => {
          const t0 = cpuMs();
          for (const ms of convs) consume(op(ms));
          return cpuMs() - t0;
        }, r).medianMs,
      );
    const baselineNs = timeSync(charsPass);
    const counter = charCounter();
    const floor = {
      shapeNs: timeSync((ms) => {
        let ok = 0;
        for (let i = 0; i < ms.length; i++) if (hasMessageShape(ms[i])) ok++;
        return ok;
      }),
      nestingNs: timeSync((ms) => {
        assertEachNesting(ms, "messages");
        return ms.length;
      }),
      idsNs: timeSync(idTable),
      countNs: timeSync((ms) => {
        let t = 0;
        for (let i = 0; i < ms.length; i++) t += messageTokens(counter, ms[i]);
        return t;
      }),
      togetherNs: timeSync((ms) => strictFloor(ms, counter)),
    };
    const loadNs = timeSync((ms) => new ConversationStore(charCounter(), ms).totalTokens);
    // what a caller asks each turn, through the package's entry (src/index.ts)
    const dueNs = timeSync((ms) => storeDueBy(new PublicStore(charCounter(), ms), c).length);
    const asyncPerMessage = async (op: (k: number) => Promise<number>) => {
      const samples: number[] = [];
      for (let i = 0; i < r.warmup + r.reps; i++) {
        collect();
        const t0 = cpuMs();
        for (let k = 0; k < convs.length; k++) consume(await op(k));
        if (i >= r.warmup) samples.push(cpuMs() - t0);
      }
      return perMessage(median(samples));
    };
    // the call a stateless caller makes before every model call, when nothing is due
    const quiet = notDueConfig();
    const notDueNs = await asyncPerMessage((k) =>
      notDue(compactMessages(convs[k], quiet, { counter: charCounter(), summarizer })),
    );
    // the same through the README's OpenAI helper, on the same history written as OpenAI messages
    let wire: JsonObject[][] = convs.map((ms) => writeOpenAIMessages(ms));
    const quietWire = notDueConfig(true);
    const wireNotDueNs = await asyncPerMessage((k) =>
      notDue(compactOpenAIMessages(wire[k], quietWire, { counter: charCounter(), summarizer })),
    );
    wire = [];
    consume(wire.length);
    const decisionNs = timeSync(
      (ms) => planStep(new ConversationStore(charCounter(), ms).view(), c).stretch?.end ?? -1,
    );
    const samples: number[] = [];
    for (let i = 0; i < r.warmup + r.reps; i++) {
      collect();
      const t0 = cpuMs();
      for (const ms of convs)
        consume(
          (await compactMessages(ms, c, { dryRun: true, counter: charCounter(), summarizer })).report.plannedStretch
            ?.end ?? -1,
        );
      if (i >= r.warmup) samples.push(cpuMs() - t0);
    }
    out.push({
      n,
      baselineNs,
      loadNs,
      dueNs,
      notDueNs,
      wireNotDueNs,
      decisionNs,
      dryRunNs: perMessage(median(samples)),
      floor,
    });
    convs = [];
    consume(convs.length);
  }
  return out;
}

function freshTable(f: readonly FreshTiming[]): string {
  return table(
    [
      "messages",
      "bare chars/4 pass (ns/msg)",
      "store load (ns/msg)",
      "ratio",
      "is it due: load + storeDueBy (ns/msg)",
      "ratio",
      "ms per decision",
      "compactMessages, not due (ns/msg)",
      "ratio",
      "ms per call",
      "compactOpenAIMessages, not due (ns/msg)",
      "ratio",
      "ms per call",
      "fresh decision: load + planStep (ns/msg)",
      "ratio",
      "compactMessages dry run (ns/msg)",
      "ratio",
    ],
    f.map((x) => [
      fmtN(x.n),
      fmt(x.baselineNs),
      fmt(x.loadNs),
      fmtRatio(x.loadNs / x.baselineNs),
      fmt(x.dueNs),
      fmtRatio(x.dueNs / x.baselineNs),
      fmt((x.dueNs * x.n) / 1e6),
      fmt(x.notDueNs),
      fmtRatio(x.notDueNs / x.baselineNs),
      fmt((x.notDueNs * x.n) / 1e6),
      fmt(x.wireNotDueNs),
      fmtRatio(x.wireNotDueNs / x.baselineNs),
      fmt((x.wireNotDueNs * x.n) / 1e6),
      fmt(x.decisionNs),
      fmtRatio(x.decisionNs / x.baselineNs),
      fmt(x.dryRunNs),
      fmtRatio(x.dryRunNs / x.baselineNs),
    ]),
  );
}

function floorTable(f: readonly FreshTiming[]): string {
  return table(
    [
      "messages",
      "bare chars/4 pass (ns/msg)",
      "shape checks",
      "nesting walk",
      "tool call id Map",
      "token counts",
      "all four in one sample (ns/msg)",
      "ratio",
    ],
    f.map((x) => {
      const { shapeNs, nestingNs, idsNs, countNs, togetherNs } = x.floor;
      return [
        fmtN(x.n),
        fmt(x.baselineNs),
        fmt(shapeNs),
        fmt(nestingNs),
        fmt(idsNs),
        fmt(countNs),
        fmt(togetherNs),
        fmtRatio(togetherNs / x.baselineNs),
      ];
    }),
  );
}

/** The section of `npm run bench`'s results about fresh decisions (heading, method, table). */
export function freshSection(f: readonly FreshTiming[], workMessages: number): string[] {
  return [
    "## Fresh decision",
    "",
    "A decision on a history read from scratch, character heuristic, against the bare linear pass over the same messages (one",
    "loop computing chars/4 per message: content plus tool-call names and arguments). Store load = `new ConversationStore`:",
    "shape checks, the tool-call id table (pairing checks), token counts and which call each result answers in one pass (the",
    "kernel views and each message's request bytes wait for a reader). Is it due = load and `storeDueBy` through the package's entry,",
    "what a caller that keeps no store asks each turn (ms per decision: for the n messages). compactMessages, not due = the",
    "call a stateless caller makes before every model call, `compactMessages(ms, config, { counter, summarizer })` (no dry run)",
    "with token_threshold and context_window at 10^12, so that nothing is due: the nesting check, the load, the item map, the",
    "run's start, its report and law checks, and the result's copy. compactOpenAIMessages, not due = the same call through the",
    "README's OpenAI helper on the same history written as OpenAI messages (and max_request_bytes 2^40: the helper otherwise",
    "judges the provider's request size): it also reads the wire messages, counts each one's request bytes and writes the",
    "result back (its ratio is against the same bare pass over the engine's messages). Fresh decision = load,",
    "`store.view()` (the kernel's Pairing check) and `planStep` (trigger, keep-recent stretch). The dry run is the whole",
    "`compactMessages(..., { dryRun: true })`: the same plus the nesting check, the configuration, the summarizer's construction",
    "and the law checks on the result (on a result that spliced nothing they compare it with the input by reference).",
    `Each sample covers ⌈${fmtN(workMessages)} / n⌉ distinct conversations; ratios are against the bare pass in this run.`,
    "",
    freshTable(f),
    "",
    "What any load as strict as the store's must do, in the same run (ns per message): the shape checks (hasMessageShape),",
    "the nesting walk (assertEachNesting), a Map of every tool call id (the duplicate-id check) and the token counts",
    "(messageTokens, chars/4), each timed alone, then all four in one sample (the walk, then one loop doing the other three).",
    "That sample against the bare pass bounds the ratio any dry run with the same checks can reach.",
    "",
    floorTable(f),
    "",
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `npx tsx bench/fresh.ts [sizes...] [--work=N]` prints the table alone (the full bench's sizes,
  // work per sample and samples by default; --work=N: about N messages per sample, for a loaded machine)
  const work = process.argv.find((a) => /^--work=\d+$/.test(a));
  const f = await freshBySize(
    sizesFromArgs(FRESH_SIZES),
    work === undefined ? FRESH_WORK : Number(work.slice(7)),
    FRESH_REPS,
  );
  process.stdout.write(`${freshTable(f)}\n\n${floorTable(f)}\n(sink ${sinkValue()})\n`);
}
