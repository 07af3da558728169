// What a session keeps of each committed compaction step: enough to replay it (the stretch, in
// the context's message positions when it was committed, and the summary), and the account of
// it (tokens before and after, the summarizer and the calls that produced the summary, the
// planned and committed versions, the time), and the memory flush candidates the user messages of
// its stretch yielded (memory_candidates).

import type { MemoryCandidate } from "../engine/memory/candidates.ts";
import type { StepTrigger } from "../engine/run/report.ts";
import type { CommitDecision } from "../kernel/commit.ts";
import type { CallFailure } from "../model/call-failure.ts";
import type { SummarizerUsage } from "../model/summarizer.ts";

/** One summarizer call, as the run's report lists it (its duration, the usage its provider reported), and how many stretches it asked for. */
export interface RecordedCall {
  /** wall-clock milliseconds from the call to its answer or failure */
  readonly durationMs: number;
  /** false when the call threw (no answer) */
  readonly answered: boolean;
  /** what the provider reported for it (absent: the summarizer reported nothing) */
  readonly usage?: SummarizerUsage;
  /** the stretches it asked for: 1, or a batch call's count */
  readonly stretches: number;
  /** what failed it, when it threw (the report's call record's failure); absent on calls that answered */
  readonly failure?: CallFailure;
}

/** A call counted on an earlier record of the same run: that record's committedVersion and the call's index in its `calls`. */
export interface CallRef {
  readonly record: number;
  readonly call: number;
}

/** One committed compaction step. */
export interface CompactionRecord {
  /** how many items the session held when the step was committed (the record follows them) */
  readonly items: number;
  /** the replaced stretch [start, end) of the context as it was at the commit */
  readonly start: number;
  readonly end: number;
  /** the summary that replaced it */
  readonly summary: string;
  /**
   * the trigger reached when the step was committed (the kernel's triggerFired on the context then,
   * before the splice); "to target": none, the step of a run that was due going on down to its target
   * (logs and rows written before this name record "low-water", read as "to target")
   */
  readonly trigger: StepTrigger;
  /** the context's token total just before and just after the step */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** the summarizer's name, and the model summaries were requested from */
  readonly summarizer: string;
  readonly model?: string;
  /**
   * The summarizer calls that produced this summary and are counted here: the call that answered
   * it, and the calls whose answers for this stretch were rejected (a retry is another call).
   * Each call of a run is counted on exactly one record, the first committed one it produced a
   * summary for; a batch call that answered several stretches is counted on the first of them
   * and named in `sharedCalls` by the others. So the sums of `durationMs` and usage over the
   * `calls` of a run's records are the report's callTotals over the calls that produced a
   * committed summary (calls for stretches left unchanged produced no record). Absent on records
   * written before (log format 1).
   */
  readonly calls?: readonly RecordedCall[];
  /** calls that produced this summary too but are counted on an earlier record of the run (a batch call) */
  readonly sharedCalls?: readonly CallRef[];
  /**
   * The memory flush candidates of the step (docs/memory-candidates.md): extracted by rule from the
   * user messages of its stretch (from the one opening the turn of its first message), at most
   * memory_candidates, each text within memory_candidate_bytes; `sourceMessages` are positions in
   * the context as it was at the commit (as `start` and `end`). Absent when the step yielded none
   * or memory_candidates was 0 (every record written before they were stored).
   */
  readonly memoryCandidates?: readonly MemoryCandidate[];
  /** the session version (entry count) the step was planned against, and the one it created */
  readonly plannedVersion: number;
  readonly committedVersion: number;
  /** the kernel's verdict: commit (nothing changed meanwhile) or rebase (only appends) */
  readonly decision: Exclude<CommitDecision, "reject">;
  /** the persisted watermark after the step (L10: never lower than the one before) */
  readonly watermark: number;
  /** ISO time of the commit */
  readonly time: string;
}

/** One tool result a clearing step cleared: its place in the context then, and what it holds now. */
export interface ClearedEntry {
  /** its position in the context when the step was committed */
  readonly index: number;
  readonly toolCallId: string;
  /** the placeholder that replaced its content (the original stays in the session's items) */
  readonly placeholder: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/**
 * The calls of one assistant message whose arguments a clearing step replaced by `{}`
 * (clear_inputs: the calls of the results it cleared); the originals stay in the session's items.
 */
export interface ClearedInputs {
  /** the assistant message's position in the context when the step was committed */
  readonly index: number;
  /** the calls whose arguments were replaced, in the message's order */
  readonly toolCallIds: readonly string[];
  /** the message's tokens just before and just after the step */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/**
 * One committed clearing step (L13): tool results' contents replaced by placeholders and, with
 * clear_inputs, their calls' arguments by `{}`; nothing else changed.
 */
export interface ClearingRecord {
  /** how many items the session held when the step was committed */
  readonly items: number;
  readonly results: readonly ClearedEntry[];
  /** the calls whose arguments were cleared (clear_inputs); absent when none were (every record written without it) */
  readonly inputs?: readonly ClearedInputs[];
  /** the context's token total just before and just after the step */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly plannedVersion: number;
  readonly committedVersion: number;
  readonly decision: Exclude<CommitDecision, "reject">;
  readonly time: string;
}

/** A cleared tool result brought back into the context (`Session.restore`). */
export interface RestoreRecord {
  /** how many items the session held when it was committed */
  readonly items: number;
  readonly toolCallId: string;
  /** its position in the context */
  readonly index: number;
  /** the position of the assistant message whose call's arguments came back with it; absent when they were not cleared */
  readonly call?: number;
  readonly committedVersion: number;
  readonly time: string;
}

/** A stretch [start, end) of the context. */
export interface StretchBounds {
  readonly start: number;
  readonly end: number;
}

/**
 * Stretches a compaction run found not to shrink (every summary of them rejected only for not
 * being shorter, L8), at their positions in the context when the record was committed. A later
 * run, in any process, reads them into its store's memory of stretches known not to shrink
 * (UnshrinkableMemory): moved by the compaction records after this one, dropped once a stretch's
 * messages change, as the kernel's recordAfterSplice and the memory's fingerprint say. Not a
 * change of the context: the kernel's log commit rule reads it as it reads an append.
 */
export interface UnshrinkableRecord {
  /** how many items the session held when it was committed */
  readonly items: number;
  readonly stretches: readonly StretchBounds[];
  /** the summarizer calls spent on them, counted as in a compaction record (CompactionRecord.calls) */
  readonly calls?: readonly RecordedCall[];
  readonly sharedCalls?: readonly CallRef[];
  readonly committedVersion: number;
  readonly time: string;
}

/**
 * The newest item taken out of the context (`Session.pop`): the context's last messages, those
 * read from the newest item the context holds (with an item read together with it, a Responses
 * reasoning item before the item it travels with). Nothing is deleted: the items stay in the
 * history; the context no longer holds them. Only items kept as they were read (or cleared) can
 * be popped: an item already summarized away is not in the context to take out. A rewrite of the
 * context: the kernel's log commit rule rejects a compaction planned before it (L9).
 */
export interface PopRecord {
  /** how many items the session held when it was committed */
  readonly items: number;
  /** the position in the context of the first message taken out (the rest up to the end went with it) */
  readonly index: number;
  /** the items taken out, [first, last] by their index among the session's items */
  readonly first: number;
  readonly last: number;
  readonly committedVersion: number;
  readonly time: string;
}

/**
 * The context emptied (`Session.clear`): the conversation starts again from the items appended
 * after it. Nothing is deleted: every item and record before it stays in the history. A rewrite of
 * the context (L9, as a pop); the persisted watermark stays where it was (L10: it never moves back).
 */
export interface ClearRecord {
  /** how many items the session held when it was committed */
  readonly items: number;
  readonly committedVersion: number;
  readonly time: string;
}
