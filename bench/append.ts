// Appending one message: what store.append (validation + ledger, default BPE tokenizer) and
// ledger.append (character heuristic: the ledger's own cost) take at each history size, as the
// typical append and amortized over many (growth steps and garbage collection included).
import { TokenLedger } from "../src/engine/store/ledger.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import type { Message } from "../src/model/message.ts";
import { bpeCounter, charCounter, type TokenCounter } from "../src/model/tokens.ts";
import { appendStream, generateConversation } from "./conversation.ts";
import { collect, consume, cpuMs, measure, median, type Repetitions, successiveRatios } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

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

/** Appends through both paths on a small history, so the JIT is warm before anything is timed. */
export function warmUpAppend(): void {
  appendBySize([2_000], "ledger-chars", 1_000, { warmup: 2, reps: 0 });
  appendBySize([2_000], "store-bpe", 100, { warmup: 2, reps: 0 });
}

function appendTable(bpe: readonly AppendTiming[], ledger: readonly AppendTiming[]): string {
  const rb = successiveRatios(bpe.map((x) => x.perAppendNs));
  const rba = successiveRatios(bpe.map((x) => x.amortizedNs));
  const rl = successiveRatios(ledger.map((x) => x.perAppendNs));
  const rla = successiveRatios(ledger.map((x) => x.amortizedNs));
  return table(
    [
      "history (messages)",
      "store.append BPE: typical (µs)",
      "ratio",
      "amortized CPU (µs)",
      "ratio",
      "ledger.append chars: typical (ns)",
      "ratio",
      "amortized CPU (ns)",
      "ratio",
    ],
    bpe.map((x, i) => {
      const l = ledger[i];
      return [
        fmtN(x.n),
        fmt(x.perAppendNs / 1000, 2),
        fmtRatio(rb[i]),
        fmt(x.amortizedNs / 1000, 2),
        fmtRatio(rba[i]),
        fmt(l?.perAppendNs ?? NaN, 0),
        fmtRatio(rl[i]),
        fmt(l?.amortizedNs ?? NaN, 0),
        fmtRatio(rla[i]),
      ];
    }),
  );
}

/** The section of `npm run bench`'s results about appends (heading, method, table). */
export function appendSection(
  bpe: readonly AppendTiming[],
  ledger: readonly AppendTiming[],
  bpeAppends: number,
  ledgerAppends: number,
): string[] {
  return [
    "## Appending one message",
    "",
    `store.append is what an agent calls per message (validation, then one tokenizer call in the incremental ledger); ${bpeAppends} appends`,
    `per sample with the default BPE tokenizer. ledger.append with the character heuristic isolates the ledger's own cost (${fmtN(ledgerAppends)}`,
    "appends per sample). The history never grows by more than 10% during a sample. Flat means ratios near 1.",
    "Typical = median wall time of individually timed appends (immune to scheduling and to the odd append that grows an array",
    "or id set); amortized = CPU time of all appends / appends, which includes those growth steps and garbage collection",
    "(whose cost grows with the heap a large history occupies).",
    "",
    appendTable(bpe, ledger),
    "",
  ];
}
