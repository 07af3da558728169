// The report of a run that is not due, from the counts the trigger reads, for a caller that keeps
// those counts without the messages (a session's running counts). Whether it is due is the
// kernel's trigger (the caller's dueVerdict on those counts); the report is the one compactStore gives for a store with those
// counts that is not due (a run that changes nothing: its laws hold by identity), field for field.
import type { ModelLimitsReport } from "../../model/model-limits.ts";
import { notDueClearing, withClearing } from "./clearing.ts";
import type { DueVerdict } from "./due-verdict.ts";
import { unchangedLaws } from "./law-checks.ts";
import type { CompactionReport } from "./report.ts";
import { callTotals } from "./run-hooks.ts";

/** What a run that is not due reports, besides the configuration. */
export interface NotDueFacts {
  /** the counted token total (under the run's counter) */
  readonly tokens: number;
  /** the caller's items (message_threshold counts them) */
  readonly items: number;
  readonly userTurns: number;
  /** the user and system messages */
  readonly protectedMessages: number;
  /** the store's watermark */
  readonly watermark: number;
  /** the summarizer's name */
  readonly summarizer: string;
  /** the counter's name */
  readonly tokenizer: string;
  /** the model limits the run would use (configForRun) */
  readonly modelLimits: ModelLimitsReport;
  /** the request's bytes (messageBytes of each message), for the byte budget (max_request_bytes) */
  readonly bytes: number;
}

/** Why a run that is not due ends: compactStore says the same (one owner of the words). */
export const NOT_DUE_REASON = "compaction is not due: under every configured trigger";

/**
 * The report of compactStore on a store with these counts (no usage report, not a dry run) when
 * the kernel's trigger said it is not due (`due`, dueVerdict on these counts, for its configuration); undefined when it
 * is due (the run must run).
 */
export function notDueReport(due: DueVerdict, f: NotDueFacts): CompactionReport | undefined {
  if (due.trigger !== "none") return undefined;
  const c = due.config;
  const max = c.max_request_bytes;
  const report: CompactionReport = {
    outcome: "nothing-to-do",
    reason: NOT_DUE_REASON,
    tokensBefore: f.tokens,
    tokensAfter: f.tokens,
    messagesBefore: f.items,
    messagesAfter: f.items,
    dueBefore: false,
    dueAfter: false,
    ...(max === null
      ? {}
      : { bytes: { before: f.bytes, after: f.bytes, maxRequestBytes: max, dueByBytes: false, floorOver: false } }),
    stretches: [],
    skipped: [],
    watermark: f.watermark,
    modelLimits: f.modelLimits,
    summarizer: f.summarizer,
    summarizerCalls: 0,
    calls: [],
    callTotals: callTotals([]),
    tokenizer: f.tokenizer,
    laws: unchangedLaws(c, {
      protectedMessages: f.protectedMessages,
      items: f.items,
      tokensBefore: f.tokens,
      tokensAfter: f.tokens,
      dueBefore: false,
    }),
  };
  return withClearing(report, notDueClearing(c));
}
