// What a compaction run reports: tokens before/after, each stretch replaced, why it stopped,
// and (for one-shot runs) each law's runtime check on the result. Message counts and `input`
// ranges are in the input's own messages (an Anthropic message is one however many blocks).

import type { CallFailure, SummarizerFailure } from "../../model/call-failure.ts";
import type { SummaryMarker } from "../../model/message.ts";
import type { ModelLimitsReport } from "../../model/model-limits.ts";
import type { SummarizerUsage } from "../../model/summarizer.ts";
import type { Plan } from "./plan.ts";
import type { InputRange } from "./positions.ts";

/**
 * Why a step was taken: the trigger reached (tokens, messages, turns, reported usage, context
 * window), or "to target": under every trigger, the step of a run that was due going on down to
 * its target (target_tokens, or target_percent of the token trigger). The one name of that step in
 * the report, its text and a session's records.
 */
export type StepTrigger = Exclude<Plan["trigger"], "none"> | "to target";

/** A step's trigger as reported: a plan's trigger, "none" (under every trigger) named "to target". */
export function stepTriggerOf(trigger: Plan["trigger"]): StepTrigger {
  return trigger === "none" ? "to target" : trigger;
}

/** One stretch replaced by a summary. */
export interface ReplacedStretch {
  /** position in the conversation at the time of the step (after earlier splices; what L6 replays): see `input` for the input's */
  readonly start: number;
  readonly end: number;
  readonly replacedMessages: number;
  readonly replacedTokens: number;
  readonly summaryTokens: number;
  /** summarizer calls (HTTP requests) this step took: 1, more after retries or a rejected summary */
  readonly attempts: number;
  /** the commit decision: "commit", or "rebase" when messages were appended meanwhile */
  readonly decision: "commit" | "rebase";
  /** the summary text that replaced the stretch */
  readonly summary: string;
  /** the input's messages this stretch replaced, or cut into (0-based, first and last inclusive) */
  readonly input: InputRange;
  /** the trigger that made compaction due at this step, or "to target": none, a due run going on down to its target */
  readonly trigger: StepTrigger;
  /** an aging step: one earlier summary re-summarized in place under a tighter budget (age_percent) */
  readonly aged?: true;
  /** the marker written on the summary (an aged summary's: how often it was aged) */
  readonly marker?: SummaryMarker;
}

/** A stretch left as it was because no summary of it passed validation; the run went on after it. */
export interface SkippedStretch {
  /** the input's messages it covers (0-based, inclusive) */
  readonly input: InputRange;
  readonly start: number;
  readonly end: number;
  readonly replacedTokens: number;
  readonly reason: string;
  /** summarizer calls (HTTP requests) made for it */
  readonly attempts: number;
}

/** One law's runtime counterpart checked on the result. */
export interface LawCheck {
  readonly law: string;
  readonly title: string;
  readonly ok: boolean;
  readonly detail: string;
}

/**
 * How a run ended: `compacted` (now under every trigger), `nothing-to-do` (not due),
 * `compacted-still-due` / `still-due` (stretches were / none could be replaced, and the result is
 * still above a trigger: what is left is user/system messages, summaries, the retention window or
 * messages no stretch may take), `degraded` (a failure stopped the run), `superseded` (another
 * writer committed a change first while a step was summarizing: that step was not applied, and
 * the run stopped there, nothing failed), `dry-run`.
 */
export type Outcome =
  | "compacted"
  | "nothing-to-do"
  | "compacted-still-due"
  | "still-due"
  | "degraded"
  | "superseded"
  | "dry-run";

/** Where the tokens of a result that is still due are; each message counted once, the retention window first. */
export interface RemainingTokens {
  /** the last retention_window messages, whatever their role */
  readonly retentionWindow: number;
  /** user and system messages before the window (never summarized: L2) */
  readonly userSystem: number;
  /** summaries before the window */
  readonly summaries: number;
  /** assistant and tool messages before the window that no stretch could take (ongoing tool calls, keep_recent_tokens, skipped stretches) */
  readonly other: number;
}

/** With reported usage: what the trigger judged instead of the counted totals (tokensBefore/After stay the counted ones, or null). */
export interface UsageReport {
  /** the prompt token count given */
  readonly reportedTokens: number;
  /** the count the trigger judged before the run: the report plus the counts of the messages after it */
  readonly judgedTokensBefore: number;
  /** the same after the run, the report adjusted by each step (the kernel's usageAfterSplice) */
  readonly judgedTokensAfter: number;
  /** true when the judged count held no reported tokens any more (a step took out more counted tokens than the report held, or all of it): from then on the run judged the counted total */
  readonly dropped: boolean;
}

/** One cleared tool result, for the report. */
export interface ClearedResult {
  /** its position in the caller's items */
  readonly input: InputRange;
  /** its position among the engine's messages when it was cleared (before any splice of the run) */
  readonly index: number;
  readonly toolCallId: string;
  /** the tool's name, "" when its call is not in the conversation */
  readonly toolName: string;
  /** the cleared content's length in characters (UTF-16 units) */
  readonly chars: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** the placeholder it now holds */
  readonly placeholder: string;
  /** clear_inputs: its call's arguments were replaced by `{}` too, in message `index` (the call's), `chars` long before */
  readonly arguments?: { readonly index: number; readonly chars: number };
}

/** The lawful floor of a run whose token trigger is at or under it, in tokens. */
export interface LawfulFloorReport {
  readonly trigger: number;
  /** user and system messages before the kept tail */
  readonly userSystem: number;
  /** the retention window and the keep-recent tail */
  readonly kept: number;
  /** summaries before the kept tail that cannot shrink */
  readonly summaries: number;
  /** their sum */
  readonly total: number;
}

/** What the clearing tier did in a run. */
export interface ClearingReport {
  /** how many tool results were cleared */
  readonly results: number;
  /** tokens freed, by the results and any arguments cleared (the counted total fell by exactly this: kernel clearedTokens) */
  readonly tokensFreed: number;
  /** how many calls had their arguments cleared too (clear_inputs) */
  readonly inputs: number;
  readonly records: readonly ClearedResult[];
  /** why nothing was cleared, or what was */
  readonly reason: string;
}

/** One summarizer call of a run. */
export interface SummarizerCallRecord {
  /** wall-clock milliseconds from the call to its answer or failure */
  readonly durationMs: number;
  /** false when the call threw (no answer); an answer that failed validation still counts as answered */
  readonly answered: boolean;
  /** what the provider reported for it (absent: the summarizer reported nothing) */
  readonly usage?: SummarizerUsage;
  /** what failed it, when it threw: provider, host, model, HTTP status, the provider's code and message */
  readonly failure?: CallFailure;
}

/** Sums over a run's summarizer calls. */
export interface SummarizerCallTotals {
  readonly durationMs: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** The report of a compaction run. */
/** A stretch a dry run would summarize, in the caller's positions. */
export interface PlannedRunStretch {
  readonly input: InputRange;
  readonly replacedTokens: number;
  /** an old summary that would be aged (re-summarized under a tighter budget) */
  readonly aged?: true;
}

/** One summarizer call of a dry run's plan: its stretches (indexes into `stretches`), the prompt's tokens and the answer tokens it asks. */
export interface PlannedCall {
  readonly stretches: readonly number[];
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * A dry run's whole plan: what the clearing tier would free first (`clearing` in the report),
 * then every stretch the run would summarize toward the target, the calls that would send them,
 * and what the run would leave if each summary came back at its budget.
 */
export interface PlannedRun {
  /** the model summaries would be asked of */
  readonly model: string;
  readonly summarizer: string;
  /** the trigger that makes the run due, or "to target" (clearing left it under every trigger, and it goes on down to its target) */
  readonly trigger: StepTrigger;
  /** the total the trigger judges when summarizing would begin (after clearing) */
  readonly tokens: number;
  /** the target the run summarizes toward (target_tokens, or target_percent of the trigger) */
  readonly target: number;
  readonly stretches: readonly PlannedRunStretch[];
  readonly calls: readonly PlannedCall[];
  /** the judged total once every planned summary is in, each at its budget */
  readonly expectedTokensAfter: number;
  /** the run would end still due (the trigger at that total, "none" when it would not) */
  readonly stillDueBy: Plan["trigger"];
}

/** The byte budget's part of a report (max_request_bytes set). */
export interface RequestBytesReport {
  readonly before: number;
  readonly after: number;
  readonly maxRequestBytes: number;
  /** the bytes made the run due (the trigger was "request bytes") */
  readonly dueByBytes: boolean;
  /** only when the bytes were over the budget before the run: the bytes no law lets a run shrink */
  readonly floor?: {
    readonly userSystem: number;
    readonly kept: number;
    readonly other: number;
    readonly summaries: number;
    readonly total: number;
  };
  /** the floor alone was over the budget: no run could bring the request under it, and none was paid for */
  readonly floorOver: boolean;
}

export interface CompactionReport {
  readonly outcome: Outcome;
  /** why the run stopped (under the trigger, no eligible stretch, summarizer failure, ...) */
  readonly reason: string;
  /**
   * only when a summarizer that failed to answer ended the run (outcome degraded): its last
   * call's failure, the calls made for the step, the waits between them, and what to do
   */
  readonly failure?: SummarizerFailure;
  /**
   * the counted token total before and after the run; null (both) when the run did not count it:
   * a run given a usage report that was not due counts only the messages after the report
   * (docs/library.md, "Reported usage"), and never reports a number it did not compute
   */
  readonly tokensBefore: number | null;
  readonly tokensAfter: number | null;
  /** the input's own messages (an Anthropic top-level system not counted) */
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly dueBefore: boolean;
  readonly dueAfter: boolean;
  readonly stretches: readonly ReplacedStretch[];
  /** stretches whose summaries were rejected twice (e.g. too short to summarize); left unchanged */
  readonly skipped: readonly SkippedStretch[];
  /** dry run: the first stretch that would be summarized */
  readonly plannedStretch?: {
    readonly start: number;
    readonly end: number;
    readonly replacedTokens: number;
    readonly input: InputRange;
    readonly trigger: StepTrigger;
  };
  /** dry run planning batches: the whole plan (every stretch, the calls, what it would leave) */
  readonly plan?: PlannedRun;
  /** only when the run ended still due: where the remaining tokens are */
  readonly remaining?: RemainingTokens;
  /**
   * only when the run was due with its token trigger at or under the lawful floor (what no run can
   * shrink): the trigger and the floor, by what holds it (lawful-floor.ts)
   */
  readonly lawfulFloor?: LawfulFloorReport;
  /**
   * only when max_request_bytes is set: the request's bytes before and after the run (messageBytes
   * of each message), the budget, whether the bytes made the run due (no other trigger fired), and,
   * when they were over it, the byte floor (what no law lets compaction shrink) by what holds it
   */
  readonly bytes?: RequestBytesReport;
  /** what the clearing tier did (strategy "clear" or "clear-then-summarize" only) */
  readonly clearing?: ClearingReport;
  /** only when usage was reported: the token counts the trigger judged */
  readonly usage?: UsageReport;
  readonly watermark: number;
  /** the model limits the run used: context_window, summarizer_window, summarizer_output_cap, each from its setting or the model catalogue, or unset */
  readonly modelLimits: ModelLimitsReport;
  readonly summarizer: string;
  /** every summarizer call of the run (an HTTP request each for the HTTP summarizers), retries included */
  readonly summarizerCalls: number;
  /** each of those calls in order: how long it took and what the provider said it cost */
  readonly calls: readonly SummarizerCallRecord[];
  /** the sums over `calls` (a count no call reported sums to 0) */
  readonly callTotals: SummarizerCallTotals;
  readonly tokenizer: string;
  readonly laws: readonly LawCheck[];
}
