// What a session keeps of each committed compaction step: enough to replay it (the stretch, in
// the context's message positions when it was committed, and the summary), and the account of
// it (tokens before and after, the summarizer, the planned and committed versions, the time).

import type { Plan } from "../engine/run/plan.ts";
import type { CommitDecision } from "../kernel/commit.ts";
import type { JsonObject } from "../model/json.ts";

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
   * before the splice); "low-water": none, the step of a run that was due going on down to its target
   */
  readonly trigger: Exclude<Plan["trigger"], "none"> | "low-water";
  /** the context's token total just before and just after the step */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** the summarizer's name, and the model summaries were requested from */
  readonly summarizer: string;
  readonly model?: string;
  /** the summarizer's reported usage, when it gave one */
  readonly usage?: JsonObject;
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
