// A session's totals (`Session.stats`, `safecut session stats`): what its compactions and
// clearings saved, by their records' token counts, and the summarizer calls the records count
// (record.ts: each call on exactly one record), their duration and the usage their providers
// reported; with prices, what that usage cost. Sums of what was committed: nothing is decided here.

import type { SummarizerUsage } from "../model/summarizer.ts";
import type { RecordedCall } from "./record.ts";
import type { Entry } from "./session-state.ts";

/** Token sums of the usage providers reported (a count a provider did not report adds nothing). */
export interface UsageTotals {
  /** prompt tokens, the cached ones (read or written) included */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** The summarizer calls a session's records count. */
export interface CallStats {
  /** every call counted on a record (a batch call once) */
  readonly count: number;
  /** calls that threw (no answer) */
  readonly failed: number;
  /** calls whose provider reported no usage */
  readonly withoutUsage: number;
  /** wall-clock milliseconds, summed */
  readonly durationMs: number;
  readonly usage: UsageTotals;
}

/** The calls of one summarizer model, as the compaction records name it. */
export interface ModelCallStats extends CallStats {
  readonly summarizer: string;
  /** absent: the records name no model (the offline summarizer) */
  readonly model?: string;
}

/** A session's totals. */
export interface SessionStats {
  /** the session's version (its entries: items and records) */
  readonly version: number;
  /** every item ever appended */
  readonly items: number;
  /** the context now: its items (summaries included) and its tokens under `tokenizer` */
  readonly context: { readonly items: number; readonly tokens: number; readonly tokenizer: string };
  /** committed compaction steps */
  readonly compactions: number;
  /** committed clearing steps, and restores of cleared results */
  readonly clearings: number;
  readonly restores: number;
  /** records of stretches found not to shrink */
  readonly unshrinkable: number;
  /**
   * The context's tokens each committed step removed (its tokensBefore minus tokensAfter, under the
   * tokenizer of its run), summed: by compactions, by clearings (a restore brings some back; its
   * record holds no count), and both
   */
  readonly tokensSaved: { readonly compactions: number; readonly clearings: number; readonly total: number };
  /** the summarizer calls the records count (compaction and unshrinkable records) */
  readonly calls: CallStats;
  /** the same, by the summarizer and model the compaction records name (an unshrinkable record names none: its calls go under the record before it, or "unrecorded") */
  readonly byModel: readonly ModelCallStats[];
  /** compaction records written before calls were recorded (log format 1): their calls are not counted */
  readonly recordsWithoutCalls: number;
  /** the memory flush candidates the compaction records hold (memory_candidates), summed */
  readonly memoryCandidates: number;
}

/** Prices in US dollars per million tokens; cached tokens at the input price unless given. */
export interface TokenPrices {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

/** A running sum of calls. */
class CallSum {
  count = 0;
  failed = 0;
  withoutUsage = 0;
  durationMs = 0;
  readonly usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  add(c: RecordedCall): void {
    this.count++;
    if (!c.answered) this.failed++;
    this.durationMs += c.durationMs;
    const u: SummarizerUsage | undefined = c.usage;
    if (u === undefined) {
      this.withoutUsage++;
      return;
    }
    this.usage.inputTokens += u.inputTokens ?? 0;
    this.usage.outputTokens += u.outputTokens ?? 0;
    this.usage.cacheReadTokens += u.cacheReadTokens ?? 0;
    this.usage.cacheWriteTokens += u.cacheWriteTokens ?? 0;
  }

  done(): CallStats {
    const { count, failed, withoutUsage, durationMs } = this;
    return { count, failed, withoutUsage, durationMs, usage: { ...this.usage } };
  }
}

/** The sums over a session's entries; `context` is the context's counts now. */
export function statsOf(entries: readonly Entry[], items: number, context: SessionStats["context"]): SessionStats {
  let compactions = 0;
  let clearings = 0;
  let restores = 0;
  let unshrinkable = 0;
  let recordsWithoutCalls = 0;
  let candidates = 0;
  const saved = { compactions: 0, clearings: 0 };
  const all = new CallSum();
  const byModel = new Map<string, { summarizer: string; model?: string; sum: CallSum }>();
  /** the key of the calls without a model of their own (an unshrinkable record's) */
  let lastKey: string | undefined;
  const count = (calls: readonly RecordedCall[] | undefined, key: string | undefined) => {
    for (const c of calls ?? []) {
      all.add(c);
      const k = key ?? lastKey ?? "";
      if (!byModel.has(k)) byModel.set(k, { summarizer: "unrecorded", sum: new CallSum() });
      byModel.get(k)?.sum.add(c);
    }
  };
  for (const e of entries) {
    if (e.kind === "compaction") {
      const r = e.record;
      compactions++;
      saved.compactions += r.tokensBefore - r.tokensAfter;
      if (r.calls === undefined) recordsWithoutCalls++;
      candidates += r.memoryCandidates?.length ?? 0;
      const key = JSON.stringify([r.summarizer, r.model ?? null]);
      if (!byModel.has(key))
        byModel.set(key, {
          summarizer: r.summarizer,
          ...(r.model === undefined ? {} : { model: r.model }),
          sum: new CallSum(),
        });
      lastKey = key;
      count(r.calls, key);
    } else if (e.kind === "clearing") {
      clearings++;
      saved.clearings += e.record.tokensBefore - e.record.tokensAfter;
    } else if (e.kind === "restore") restores++;
    else if (e.kind === "unshrinkable") {
      unshrinkable++;
      count(e.record.calls, undefined);
    }
  }
  return {
    version: entries.length,
    items,
    context,
    compactions,
    clearings,
    restores,
    unshrinkable,
    tokensSaved: { ...saved, total: saved.compactions + saved.clearings },
    calls: all.done(),
    byModel: [...byModel.values()]
      .filter((m) => m.sum.count > 0)
      .map((m) => ({
        summarizer: m.summarizer,
        ...(m.model === undefined ? {} : { model: m.model }),
        ...m.sum.done(),
      })),
    recordsWithoutCalls,
    memoryCandidates: candidates,
  };
}

/** What `usage` cost at `prices` (US dollars): uncached input, cache reads, cache writes and output, each at its price. */
export function usageCost(usage: UsageTotals, prices: TokenPrices): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * prices.input +
      usage.cacheReadTokens * (prices.cacheRead ?? prices.input) +
      usage.cacheWriteTokens * (prices.cacheWrite ?? prices.input) +
      usage.outputTokens * prices.output) /
    1_000_000
  );
}
