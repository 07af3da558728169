// Measurement harness shared by bench/run.ts and test/bench/linear.test.ts. Absolute times on a
// shared two-core machine are noisy; what is quoted are ratios within one run, so every figure
// is the median of several samples taken after warm-up, each sample does enough work to dwarf
// timer and scheduling noise, and the garbage collector runs between samples (not inside them).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { compactStore } from "../src/engine/compact.ts";
import { compactMessages } from "../src/engine/compact-messages.ts";
import type { Config } from "../src/engine/config.ts";
import { parseConfig } from "../src/engine/config-rules.ts";
import {
  gateFindCutPoint,
  gateRetentionCutoff,
  gateSelectKeepRecent,
  gateSelectStretch,
} from "../src/engine/kernel-gate.ts";
import { TokenLedger } from "../src/engine/ledger.ts";
import type { Message } from "../src/engine/message.ts";
import { dueBy, planStep } from "../src/engine/plan.ts";
import { ConversationStore, type StoreSnapshot } from "../src/engine/store.ts";
import { bpeCounter, bpePieces, charCounter, type TokenCounter } from "../src/engine/tokens.ts";
import { type KernelViews, kernelViews } from "../src/engine/views.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { appendStream, generateConversation } from "./conversation.ts";

// A collector we can call between samples; exposing it at runtime keeps `npm run bench` a plain
// `tsx bench/run.ts` (no node flags to remember).
setFlagsFromString("--expose-gc");
const collect: () => void = (() => {
  const g: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
  return typeof g === "function"
    ? () => {
        (g as () => void)();
      }
    : () => {};
})();

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** How many samples to take. */
export interface Repetitions {
  readonly warmup: number;
  readonly reps: number;
}

/**
 * Milliseconds of CPU time used by this process (user + system, all its threads). The machine
 * is shared (provers and test runs of other sessions load both cores), so wall time mostly
 * measures how often we were descheduled; CPU time counts only work done for us, including
 * the garbage collector's helper threads, which is part of the cost being measured.
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// Results flow into this sink so that the JIT cannot drop a computation whose value is unused.
let sink = 0;
/** Keeps a value alive (see sink). */
export function consume(x: number): void {
  sink = (sink + x) | 0;
}
/** The sink's value (printed once, so it is observable). */
export function sinkValue(): number {
  return sink;
}

/** The benchmark's configuration: the default trigger plus the keep-recent form, so the cut point is planned too. */
export function benchConfig(): Config {
  return parseConfig({
    token_threshold: 60_000,
    context_window: 200_000,
    reserve_tokens: 16_384,
    keep_recent_tokens: 20_000,
  });
}

/** A snapshot of a generated conversation of n messages (counted with the character heuristic: planning cost does not depend on the tokenizer). */
export function snapshotOf(n: number, seed = 1): StoreSnapshot {
  return new ConversationStore(charCounter(), generateConversation(n, { seed })).snapshot();
}

/**
 * The bare linear pass that the fresh decision is compared with: one loop estimating each
 * message's tokens as chars / 4 (its content and its tool calls' names and arguments), the
 * least any decision over the whole history must do.
 */
export function charsPass(messages: readonly Message[]): number {
  let t = 0;
  for (const m of messages) {
    let chars = m.content.length;
    if (m.role === "assistant") for (const c of m.toolCalls) chars += c.name.length + c.arguments.length;
    t += Math.ceil(chars / 4);
  }
  return t;
}

// Views built once per snapshot, for timing the stretch and cut-point gates on their own.
const viewCache = new WeakMap<StoreSnapshot, KernelViews>();
function viewsOf(snap: StoreSnapshot): KernelViews {
  let v = viewCache.get(snap);
  if (v === undefined) {
    v = kernelViews(snap.messages);
    viewCache.set(snap, v);
  }
  return v;
}

/** The planning operations measured, each a function of a snapshot. */
export const PLANNING_PARTS = {
  /** Baseline, not planning: the bare chars / 4 pass (charsPass); planning / baseline isolates the algorithm's own growth from the memory system's. */
  baseline: (snap: StoreSnapshot) => charsPass(snap.messages),
  /** what the engine runs: planStep on a snapshot (views built from its messages, trigger, keep-recent stretch, its tokens) */
  planStep: (snap: StoreSnapshot, c: Config) => {
    const p = planStep(snap, c);
    return p.stretch === undefined ? 0 : p.stretch.end;
  },
  /** planStep's first part on a snapshot: kernelViews, the roles and tool-pairing arrays (a store keeps them incrementally instead) */
  views: (snap: StoreSnapshot) => kernelViews(snap.messages).userTurns,
  /** planStep's second part: the trigger (L1) */
  trigger: (snap: StoreSnapshot, c: Config) =>
    dueBy(c, snap.totalTokens, snap.messages.length, viewsOf(snap).userTurns) === "none" ? 0 : 1,
  /** planStep's third part with the bench's keep_recent_tokens: selectKeepRecent behind its gate, on prebuilt views */
  keepRecent: (snap: StoreSnapshot, c: Config) =>
    gateSelectKeepRecent(viewsOf(snap), snap.tokens, c.retention_window, 0, c.keep_recent_tokens ?? 0).end,
  /** planStep's third part without keep_recent_tokens: selectStretch behind its gate, on prebuilt views */
  stretch: (snap: StoreSnapshot, c: Config) => gateSelectStretch(viewsOf(snap), c.retention_window).end,
  /** a library function the engine does not call: findCutPoint behind its gate, over everything before the retention window */
  cutPoint: (snap: StoreSnapshot, c: Config) => {
    const n = snap.messages.length;
    return gateFindCutPoint(
      viewsOf(snap),
      snap.tokens,
      0,
      gateRetentionCutoff(n, c.retention_window),
      c.keep_recent_tokens ?? 0,
    ).firstKept;
  },
} as const;

/** Per-message and per-call time of one operation at one size. */
export interface SizeTiming {
  readonly n: number;
  /** median CPU milliseconds of one call */
  readonly callMs: number;
  /** median nanoseconds per message (callMs / n) */
  readonly perMessageNs: number;
  /** the fastest sample's nanoseconds per message (the least disturbed by other processes) */
  readonly minPerMessageNs: number;
  readonly samplesMs: readonly number[];
  /** conversations planned per sample */
  readonly iterations: number;
}

/** Median and minimum of a list of sample times, plus the raw samples. */
export interface Estimate {
  readonly medianMs: number;
  readonly minMs: number;
  readonly samplesMs: readonly number[];
}

/**
 * Runs `sample` warmup + reps times, collecting garbage before each, and summarizes the timed
 * milliseconds of the measured ones; `sample` returns the CPU milliseconds it measured itself,
 * so untimed set-up (building a store) can live inside it.
 */
export function measure(sample: () => number, r: Repetitions): Estimate {
  const ms: number[] = [];
  for (let i = 0; i < r.warmup + r.reps; i++) {
    collect();
    const t = sample();
    if (i >= r.warmup) ms.push(t);
  }
  return { medianMs: median(ms), minMs: ms.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY), samplesMs: ms };
}

/** The name of a planning operation. */
export type PlanningPart = keyof typeof PLANNING_PARTS;

/**
 * Times each planning operation on generated conversations of each size. Every sample touches
 * about `workMessages` messages held in distinct conversations: ceil(workMessages / n) of them
 * at size n, each planned once. So the working set is the same at every size and a small size
 * is not flattered by staying in the CPU cache across repetitions (which would make growth look
 * worse than it is), while a quadratic operation still shows: its cost per message grows with n.
 * Sizes are measured one after the other and each size's conversations are dropped before the
 * next are built, so each figure carries the garbage-collection cost of its own heap only.
 */
export function timeBySize(
  sizes: readonly number[],
  parts: readonly PlanningPart[],
  workMessages: number,
  r: Repetitions,
): Map<PlanningPart, SizeTiming[]> {
  const ops = new Map<PlanningPart, PlanningOp>(parts.map((p) => [p, PLANNING_PARTS[p]]));
  return timeOpsBySize(sizes, ops, workMessages, r);
}

/** An operation on a snapshot that planning benchmarks time. */
export type PlanningOp = (snap: StoreSnapshot, c: Config) => number;

/** timeBySize for any operations (the tests time a deliberately quadratic one through it). */
export function timeOpsBySize<K>(
  sizes: readonly number[],
  ops: ReadonlyMap<K, PlanningOp>,
  workMessages: number,
  r: Repetitions,
): Map<K, SizeTiming[]> {
  const c = benchConfig();
  const out = new Map<K, SizeTiming[]>(Array.from(ops.keys(), (k) => [k, []]));
  for (const n of sizes) {
    const copies = Math.max(1, Math.ceil(workMessages / n));
    let snaps: StoreSnapshot[] = Array.from({ length: copies }, (_, k) => snapshotOf(n, k + 1));
    for (const [key, op] of ops) {
      const est = measure(() => {
        const t0 = cpuMs();
        for (const snap of snaps) consume(op(snap, c));
        return cpuMs() - t0;
      }, r);
      const callMs = est.medianMs / copies;
      out.get(key)?.push({
        n,
        callMs,
        perMessageNs: (callMs * 1e6) / n,
        minPerMessageNs: ((est.minMs / copies) * 1e6) / n,
        samplesMs: est.samplesMs,
        iterations: copies,
      });
    }
    snaps = [];
    consume(snaps.length);
  }
  return out;
}

/** A counter that counts the history with the fast heuristic, then the appended messages with `after`. */
function switchingCounter(after: TokenCounter): { counter: TokenCounter; switchNow: () => void } {
  let current: TokenCounter = charCounter();
  const counter: TokenCounter = { name: after.name, count: (t) => current.count(t) };
  return {
    counter,
    switchNow: () => {
      current = after;
    },
  };
}

/** Cost of one append at one history size. */
export interface AppendTiming {
  readonly n: number;
  /**
   * The typical append: median wall nanoseconds of individually timed appends (pooled over all
   * samples). A median is immune both to the odd append that grows an array or an id set
   * (amortized O(1), but that one append copies O(n)) and to being descheduled mid-append.
   */
  readonly perAppendNs: number;
  /** the same over the fastest sample, a second estimator for noisy runs */
  readonly minPerAppendNs: number;
  /** amortized: median over samples of the CPU time of all appends / appends, growth and GC included */
  readonly amortizedNs: number;
  readonly appendsPerSample: number;
}

/** What an append measurement goes through. */
export type AppendPath =
  /** TokenLedger.append with the character heuristic: the ledger's own cost, tokenizer nearly free */
  | "ledger-chars"
  /** ConversationStore.append (validation + ledger) with the default BPE tokenizer: what an agent pays */
  | "store-bpe";

/** Something messages can be appended to: a token ledger or a whole conversation store. */
export interface Appendable {
  append(m: Message): void;
  readonly total: number;
}

// A fresh copy of the history to append to (built untimed).
function freshCopy(
  path: AppendPath | ((history: readonly Message[]) => Appendable),
  history: readonly Message[],
): Appendable {
  if (typeof path === "function") return path(history);
  if (path === "ledger-chars") return new TokenLedger(charCounter(), history);
  const sw = switchingCounter(bpeCounter());
  const store = new ConversationStore(sw.counter, history);
  sw.switchNow();
  return {
    append: (m) => store.append(m),
    get total() {
      return store.totalTokens;
    },
  };
}

/**
 * The cost of appending one message with a history of n messages. Each sample appends
 * `appendsPerSample` messages from one fixed stream (the same texts at every size, so the
 * tokenizer's work is identical). No structure grows by more than 10% of n, so the history
 * stays about n: the appends are spread over fresh copies of the history (built untimed).
 * For the store, history counts are taken with the character heuristic and only the appended
 * messages with BPE (counting a million-message history with BPE takes minutes and is not what
 * is measured).
 */
export function appendBySize(
  sizes: readonly number[],
  path: AppendPath | ((history: readonly Message[]) => Appendable),
  appendsPerSample: number,
  r: Repetitions,
): AppendTiming[] {
  const stream = appendStream(appendsPerSample, "app");
  return sizes.map((n) => {
    const history = generateConversation(n, { seed: 1 });
    const perCopy = Math.max(1, Math.min(appendsPerSample, Math.floor(n / 10)));
    const batches: Message[][] = [];
    for (let done = 0; done < appendsPerSample; ) {
      // a batch never starts with a tool result: its call must be in the same copy
      let next = Math.min(appendsPerSample, done + perCopy);
      while (next < appendsPerSample && stream[next].role === "tool") next++;
      batches.push(stream.slice(done, next));
      done = next;
    }
    const singles: number[] = [];
    const sampleMedians: number[] = [];
    const est = measure(() => {
      // All copies are built before the clock starts and the collector runs in between, so the
      // garbage of building them is not collected (on helper threads, counted in process CPU
      // time) while the appends are being timed.
      const copies = batches.map(() => freshCopy(path, history));
      collect();
      const mine: number[] = [];
      const t0 = cpuMs();
      batches.forEach((batch, k) => {
        const copy = copies[k];
        for (const m of batch) {
          const s0 = performance.now();
          copy.append(m);
          mine.push(performance.now() - s0);
        }
      });
      const t = cpuMs() - t0;
      for (const copy of copies) consume(copy.total);
      for (const x of mine) singles.push(x);
      sampleMedians.push(median(mine));
      return t;
    }, r);
    // the warm-up sample's appends are not part of the figures
    const measured = singles.slice(singles.length - r.reps * appendsPerSample);
    const measuredMedians = sampleMedians.slice(sampleMedians.length - r.reps);
    return {
      n,
      perAppendNs: median(measured) * 1e6,
      minPerAppendNs: Math.min(...measuredMedians) * 1e6,
      amortizedNs: (est.medianMs * 1e6) / appendsPerSample,
      appendsPerSample,
    };
  });
}

/** Ratios between successive entries: xs[i] / xs[i-1] (undefined for the first). */
export function successiveRatios(xs: readonly number[]): Array<number | undefined> {
  return xs.map((x, i) => (i === 0 ? undefined : x / xs[i - 1]));
}

/** Warms the JIT on a small conversation before anything is timed. */
export function warmUp(): void {
  const snap = snapshotOf(2_000, 99);
  const c = benchConfig();
  for (let i = 0; i < 200; i++) {
    for (const op of Object.values(PLANNING_PARTS)) consume(op(snap, c));
  }
  appendBySize([2_000], "ledger-chars", 1_000, { warmup: 2, reps: 0 });
  appendBySize([2_000], "store-bpe", 100, { warmup: 2, reps: 0 });
}

/** Per-message planStep time on adversarial shapes (user input can take any shape). */
export interface AdversarialTiming {
  readonly shape: string;
  readonly n: number;
  readonly perMessageNs: number;
}

/**
 * planStep on each adversarial shape at each size, per message: each sample plans
 * ceil(max(sizes) / n) distinct copies (the same memory at every size), median of `reps` samples
 * after one warm-up. Linear planning gives flat per-message figures.
 */
export function adversarialBySize(
  shapes: ReadonlyArray<readonly [string, (n: number) => Message[]]>,
  sizes: readonly number[],
  reps: number,
): AdversarialTiming[] {
  const c = parseConfig({ token_threshold: 1 });
  const top = Math.max(...sizes);
  const out: AdversarialTiming[] = [];
  for (const [shape, build] of shapes) {
    for (const n of sizes) {
      const copies = Math.max(1, Math.ceil(top / n));
      const snaps = Array.from({ length: copies }, () => new ConversationStore(charCounter(), build(n)).snapshot());
      const est = measure(
        () => {
          const t0 = cpuMs();
          for (const snap of snaps) consume(planStep(snap, c).stretch?.end ?? -1);
          return cpuMs() - t0;
        },
        { warmup: 1, reps },
      );
      out.push({ shape, n, perMessageNs: (est.medianMs * 1e6) / (copies * n) });
    }
  }
  return out;
}

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
  const c = parseConfig({ token_threshold: 60_000, tokenizer: "chars" });
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

/** Cost of a fresh decision at one size, against the bare chars / 4 pass over the same messages. */
export interface FreshTiming {
  readonly n: number;
  /** median CPU nanoseconds per message of: the bare pass, the store's load, load + view + planStep, compactMessages dry run */
  readonly baselineNs: number;
  readonly loadNs: number;
  readonly decisionNs: number;
  readonly dryRunNs: number;
}

/**
 * A fresh decision on histories read from scratch, with the character heuristic: the store's
 * load (shape checks, id table, token counts, views), then its view and planStep (trigger,
 * keep-recent stretch), and the whole `compactMessages(..., { dryRun: true })` (which adds the
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
    const loadNs = timeSync((ms) => new ConversationStore(charCounter(), ms).totalTokens);
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
    out.push({ n, baselineNs, loadNs, decisionNs, dryRunNs: perMessage(median(samples)) });
    convs = [];
    consume(convs.length);
  }
  return out;
}

/** BPE counting cost per token on one set of texts: the counter as it was (gpt-tokenizer on every piece) and as it is. */
export interface BpeTiming {
  readonly texts: string;
  readonly messages: number;
  readonly tokens: number;
  /** median CPU nanoseconds per token */
  readonly beforeNs: number;
  readonly nowNs: number;
  /** whether both counted every text the same */
  readonly identical: boolean;
}

/** The BPE counter as it was before counting by pre-token: gpt-tokenizer's countTokens on each piece (bench reference only). */
function previousBpeCount(text: string): number {
  let total = 0;
  for (const piece of bpePieces(text)) total += countTokens(piece, { disallowedSpecial: new Set<string>() });
  return total;
}

/** Tokens counted per BPE sample at least: a set is counted several times over in one sample if smaller. */
export const BPE_SAMPLE_TOKENS = 1_000_000;

/**
 * Times counting each text with the previous and the current BPE counter, after one warm-up
 * sample (both tokenizers keep caches: gpt-tokenizer its merges, ours pre-token counts). A sample
 * passes over the set as often as it takes to count BPE_SAMPLE_TOKENS: a sample of a few
 * milliseconds measured mostly the machine's load.
 */
export function bpeBySample(sets: ReadonlyArray<readonly [string, readonly string[]]>, r: Repetitions): BpeTiming[] {
  const now = bpeCounter();
  return sets.map(([name, texts]) => {
    let tokens = 0;
    let identical = true;
    for (const t of texts) {
      const a = previousBpeCount(t);
      tokens += a;
      if (now.count(t) !== a) identical = false;
    }
    const passes = Math.ceil(BPE_SAMPLE_TOKENS / tokens);
    const time = (count: (t: string) => number) =>
      measure(() => {
        const t0 = cpuMs();
        for (let p = 0; p < passes; p++) for (const t of texts) consume(count(t));
        return cpuMs() - t0;
      }, r).medianMs;
    const beforeMs = time(previousBpeCount);
    const nowMs = time((t) => now.count(t));
    return {
      texts: name,
      messages: texts.length,
      tokens,
      beforeNs: (beforeMs * 1e6) / (tokens * passes),
      nowNs: (nowMs * 1e6) / (tokens * passes),
      identical,
    };
  });
}
