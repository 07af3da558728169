// The kernel gate, the step and commit stage (one of the engine's doors into the kernel;
// kernel-gate.ts re-exports them all): the splice, whether a summary is accepted and the stop rule
// (L8), the low-water rule, the commit decisions against the store and the session's log (L9), the
// watermark (L10) and the evidence ledger's slots. Input: the step's counts and stamps; output: the
// kernel's decision. Every function here calls its kernel function after checking the kernel's `//@ requires` with the guard generated from them (kernel-requires.ts); stateless: it keeps nothing between calls and changes nothing it is given, and decides nothing itself (the kernel does).

import { type CommitDecision, type CurrentStamp, decideCommit, type PlanStamp } from "../../kernel/commit.ts";
import { type LedgerStepUse, ledgerKept, ledgerSlot, ledgerStepUse } from "../../kernel/ledger.ts";
import { decideLogCommit } from "../../kernel/logcommit.ts";
import { batchWorthRewrite, clearsNow, runContinues, summarizesAfterClearing } from "../../kernel/lowwater.ts";
import { acceptSummary, rejectionStreak, stopAfterRejections } from "../../kernel/progress.ts";
import type { Role } from "../../kernel/roles.ts";
import { advanceWatermark } from "../../kernel/watermark.ts";
import {
  guardAcceptSummary,
  guardAdvanceWatermark,
  guardBatchWorthRewrite,
  guardClearsNow,
  guardDecideCommit,
  guardDecideLogCommit,
  guardLedgerKept,
  guardLedgerSlot,
  guardRejectionStreak,
  guardRunContinues,
  guardSplice,
  guardStopAfterRejections,
  guardSummarizesAfterClearing,
} from "./kernel-requires.ts";

/**
 * L6's precondition for a splice its caller makes in place (the store's gap buffers, without
 * copying the history at every step): 0 <= start < end <= xs.length, as the kernel's splice
 * requires; the caller then replaces [start, end) by the summary, which gives the sequence the
 * kernel's splice returns (its ensures; test/engine/live-views.test.ts compares them).
 */
export function gateSplice(xs: readonly unknown[], start: number, end: number): void {
  guardSplice(xs, start, end, undefined);
}

/** L8: is a summary of summaryTokens an acceptable replacement for replacedTokens? */
export function gateAcceptSummary(summaryTokens: number, replacedTokens: number, maxTokens: number): boolean {
  guardAcceptSummary(summaryTokens, replacedTokens, maxTokens);
  return acceptSummary(summaryTokens, replacedTokens, maxTokens);
}

/** L8, the run's stop rule: the summaries in a row that failed validation after one more answer. */
export function gateRejectionStreak(rejectedInARow: number, accepted: boolean): number {
  guardRejectionStreak(rejectedInARow, accepted);
  return rejectionStreak(rejectedInARow, accepted);
}

/** L8, the run's stop rule: does the run stop asking after `rejectedInARow` rejected summaries in a row? */
export function gateStopAfterRejections(rejectedInARow: number, limit: number): boolean {
  guardStopAfterRejections(rejectedInARow, limit);
  return stopAfterRejections(rejectedInARow, limit);
}

/** The low-water rule: does a run that was (or was not) due when it started take another step at this total? */
export function gateRunContinues(dueAtStart: boolean, total: number, target: number): boolean {
  guardRunContinues(dueAtStart, total, target);
  return runContinues(dueAtStart, total, target);
}

/** The low-water rule after clearing: does a run due when it started (before clearing) summarize, given where clearing left it? */
export function gateSummarizesAfterClearing(
  dueAtStart: boolean,
  dueAfterClearing: boolean,
  total: number,
  target: number,
): boolean {
  guardSummarizesAfterClearing(dueAtStart, dueAfterClearing, total, target);
  return summarizesAfterClearing(dueAtStart, dueAfterClearing, total, target);
}

/** Is a due run's first batch worth the prompt-cache re-write it causes (under the trigger after it, or enough freed and calls since the last run)? */
export function gateBatchWorthRewrite(
  trigger: number,
  judged: number,
  freed: number,
  freeAtLeast: number,
  callsSince: number,
  every: number,
): boolean {
  guardBatchWorthRewrite(trigger, judged, freed, freeAtLeast, callsSince, every);
  return batchWorthRewrite(trigger, judged, freed, freeAtLeast, callsSince, every);
}

/** Deferred clearing: does the clearing tier clear now (its run summarizes, or clearing alone is due)? */
export function gateClearsNow(summarizes: boolean, judged: number, hardTrigger: number): boolean {
  guardClearsNow(summarizes, judged, hardTrigger);
  return clearsNow(summarizes, judged, hardTrigger);
}

/** L9: may a planned compaction still be applied (commit, rebase) or not (reject)? */
export function gateDecideCommit(plan: PlanStamp, now: CurrentStamp): CommitDecision {
  guardDecideCommit(plan, now);
  return decideCommit(plan, now);
}

/** L9 over an append-only log: a plan judged after `tail` more entries (true: a compaction). */
export function gateDecideLogCommit(plan: PlanStamp, tail: readonly boolean[], nowLength: number): CommitDecision {
  const copy = [...tail];
  guardDecideLogCommit(plan, copy, nowLength);
  return decideLogCommit(plan, copy, nowLength);
}

/** L10: the next persisted watermark. */
export function gateAdvanceWatermark(current: number, proposed: number, newestUserIndex: number): number {
  guardAdvanceWatermark(current, proposed, newestUserIndex);
  return advanceWatermark(current, proposed, newestUserIndex);
}

/** L14: how many entries of a ledger list are kept (all up to the cap). */
export function gateLedgerKept(count: number, cap: number): number {
  guardLedgerKept(count, cap);
  return ledgerKept(count, cap);
}

/** L5: where the ledger message is inserted: the first index at or after `want` that is not a tool result. */
export function gateLedgerSlot(roles: readonly Role[], want: number): number {
  guardLedgerSlot(roles, want);
  return ledgerSlot(roles, want);
}

/** L14: what one tool step of a run's input does to the ledger (skip a result cleared before the run, enter a replaced one, let a kept one close errors). */
export function gateLedgerStepUse(clearedBefore: boolean, unchanged: boolean): LedgerStepUse {
  return ledgerStepUse(clearedBefore, unchanged);
}
