// What a run tells its caller besides its report, and what the caller may decide: the hooks
// around a compaction run (before a run that is due: add instructions to its prompts or cancel
// it; after it; on failure), and the record of each summarizer call (its duration and the usage
// its provider reported), kept by a summarizer wrapped around the caller's.
import { type CallFailure, callFailureOf } from "../../model/call-failure.ts";
import type { BatchSummaryRequest, Summarizer, SummarizerUsage, SummaryRequest } from "../../model/summarizer.ts";
import type { Plan } from "./plan.ts";
import type { CompactionReport, SummarizerCallRecord, SummarizerCallTotals } from "./report.ts";

/** What the before hook is told of a run that is due. */
export interface BeforeRunInfo {
  /** the trigger that made it due */
  readonly trigger: Plan["trigger"];
  /** the token count the trigger judged */
  readonly tokens: number;
  /** the caller's items (messages) */
  readonly messages: number;
}

/** The before hook's answer: nothing (go on), instructions for every summarizer prompt of the run, or a cancellation. */
export interface BeforeRunAnswer {
  /** appended to each prompt of this run, after a blank line */
  readonly instructions?: string;
  /** why the run is not to happen: it changes nothing, and its report says so (outcome still-due) */
  readonly cancel?: string;
}

/** A run's failure: the error it threw, or the report of a run that ended degraded. */
export type RunFailure = { readonly error: unknown } | { readonly report: CompactionReport };

/** Hooks around a compaction run (options of compactStore and of the library entries). */
export interface RunHooks {
  /** called once a run that is due has begun, before anything changes (not for a dry run) */
  readonly before?: (info: BeforeRunInfo) => BeforeRunAnswer | undefined | Promise<BeforeRunAnswer | undefined>;
  /** called with the report of every run that returns one */
  readonly after?: (report: CompactionReport) => void;
  /** called when a run throws (then the error is thrown on) or ends degraded (after `after`) */
  readonly failure?: (failure: RunFailure) => void;
  /** called after each summarizer call, once it answered or failed (before the run uses its answer) */
  readonly call?: (call: SummarizerCallEvent) => void;
}

/** One summarizer call as the call hook is told of it: its record (the object the report lists) and what it asked for. */
export interface SummarizerCallEvent {
  readonly record: SummarizerCallRecord;
  /** the stretches' requests: a single call's own, or a batch call's parts, in order */
  readonly parts: readonly SummaryRequest[];
}

/** A summarizer around the caller's that records each call and adds the run's instructions to each prompt. */
export interface RecordingSummarizer {
  readonly summarizer: Summarizer;
  readonly calls: SummarizerCallRecord[];
  /** sets the instructions added to every later prompt */
  instruct(instructions: string): void;
}

/** Wraps `inner`: same name, same answers; see RecordingSummarizer. `onCall` is told of each call once it is recorded. */
export function recordingSummarizer(
  inner: Summarizer,
  onCall?: (call: SummarizerCallEvent) => void,
): RecordingSummarizer {
  const calls: SummarizerCallRecord[] = [];
  let extra = "";
  const prompt = (p: string) => (extra === "" ? p : `${p}\n\n${extra}`);
  // one call of either kind, timed, with the usage its provider reported
  const recorded = async <T>(
    call: (onUsage: (u: SummarizerUsage) => void) => Promise<T>,
    parts: readonly SummaryRequest[],
    outer?: (u: SummarizerUsage) => void,
  ): Promise<T> => {
    let usage: SummarizerUsage | undefined;
    const started = performance.now();
    let answered = false;
    let failure: CallFailure | undefined;
    try {
      const got = await call((u) => {
        usage = u;
        outer?.(u);
      });
      answered = true;
      return got;
    } catch (e) {
      failure = callFailureOf(e, inner.name, parts[0]?.model ?? "");
      throw e;
    } finally {
      const durationMs = performance.now() - started;
      const record = {
        durationMs,
        answered,
        ...(usage === undefined ? {} : { usage }),
        ...(failure === undefined ? {} : { failure }),
      };
      calls.push(record);
      onCall?.({ record, parts });
    }
  };
  const batch = inner.summarizeBatch?.bind(inner);
  const summarizer: Summarizer = {
    name: inner.name,
    summarize: (req: SummaryRequest) =>
      recorded((onUsage) => inner.summarize({ ...req, prompt: prompt(req.prompt), onUsage }), [req], req.onUsage),
    // a batch is one call too: forwarded only when the caller's summarizer has it (else each
    // stretch is its own call, as without the wrapper)
    ...(batch === undefined
      ? {}
      : {
          summarizeBatch: (req: BatchSummaryRequest) =>
            recorded((onUsage) => batch({ ...req, prompt: prompt(req.prompt), onUsage }), req.parts, req.onUsage),
        }),
  };
  return {
    summarizer,
    calls,
    instruct(instructions) {
      extra = instructions;
    },
  };
}

/** The sums over a run's calls. */
export function callTotals(calls: readonly SummarizerCallRecord[]): SummarizerCallTotals {
  const t = { durationMs: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  for (const c of calls) {
    t.durationMs += c.durationMs;
    t.inputTokens += c.usage?.inputTokens ?? 0;
    t.outputTokens += c.usage?.outputTokens ?? 0;
    t.cacheReadTokens += c.usage?.cacheReadTokens ?? 0;
    t.cacheWriteTokens += c.usage?.cacheWriteTokens ?? 0;
  }
  return t;
}
