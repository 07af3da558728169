// The engine's only door into the kernel. Every kernel decision the engine uses is called
// here, after checking the function's `//@ requires` at runtime with the guard generated from
// them (kernel-requires.ts): the proofs hold only for inputs that satisfy them, so a violation
// is a clear error, never an unproven path.

import { type CommitDecision, type CurrentStamp, decideCommit, type PlanStamp } from "../../kernel/commit.ts";
import { type ConfigField, type ConfigView, maxTokensLimit, validateConfig } from "../../kernel/config.ts";
import { type CutPoint, findCutPoint } from "../../kernel/cutpoint.ts";
import { selectKeepRecent } from "../../kernel/keeprecent.ts";
import { acceptSummary, rangeTokens } from "../../kernel/progress.ts";
import { retentionCutoff } from "../../kernel/retention.ts";
import { movable, pairingAt, pairingOk, type Stretch, selectStretch, selectStretchFrom } from "../../kernel/stretch.ts";
import {
  type ReportedPrefix,
  type Thresholds,
  type TriggerKind,
  triggerFired,
  usageAfterSplice,
  usageTokens,
} from "../../kernel/trigger.ts";
import { keepHeadLines, keepTailLines } from "../../kernel/truncate.ts";
import { advanceWatermark } from "../../kernel/watermark.ts";
import { type GapArray, plainArray } from "../store/gap-array.ts";
import { type KernelViews, type LiveViews, plainViews, spliceViews } from "../store/views.ts";
import {
  guardAcceptSummary,
  guardAdvanceWatermark,
  guardDecideCommit,
  guardFindCutPoint,
  guardKeepHeadLines,
  guardKeepTailLines,
  guardRangeTokens,
  guardRetentionCutoff,
  guardSelectKeepRecent,
  guardSelectStretch,
  guardSelectStretchFrom,
  guardSplice,
  guardTriggerFired,
  guardUsageAfterSplice,
  guardUsageTokens,
  guardValidateConfig,
} from "./kernel-requires.ts";

/** L1, both forms: which trigger makes compaction due (contextWindow 0 = no window). */
export function gateTriggerFired(
  tokens: number,
  messages: number,
  userTurns: number,
  th: Thresholds,
  contextWindow: number,
  reserveTokens: number,
): TriggerKind {
  guardTriggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens);
  return triggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens);
}

/** L1 with reported usage: the token count the trigger judges (the report for a prefix plus the counts after it). */
export function gateUsageTokens(u: ReportedPrefix, tokens: readonly number[]): number {
  guardUsageTokens(u, tokens);
  return usageTokens(u, tokens);
}

/** L1 with reported usage, after a compaction step replaced [start, end) by a summary of summaryTokens. */
export function gateUsageAfterSplice(
  u: ReportedPrefix,
  tokens: readonly number[],
  start: number,
  end: number,
  summaryTokens: number,
): ReportedPrefix {
  guardUsageAfterSplice(u, tokens, start, end, summaryTokens);
  return usageAfterSplice(u, tokens, start, end, summaryTokens);
}

/** L3: index of the first message of the retention window. */
export function gateRetentionCutoff(n: number, window: number): number {
  guardRetentionCutoff(n, window);
  return retentionCutoff(n, window);
}

// Live views (the store's) whose Pairing was checked in full here and that have since changed only
// through gateViewsAppended and gateSpliceViews, each of which re-checks what its change can break.
// Views built any other way (untrusted input, tests) are not in the set and get the full check.
const pairedLive = new WeakSet<KernelViews>();

/** Checks Pairing of live views in full (O(n)) and, if it holds, lets later checks be incremental. */
export function gateTrackPairing(v: LiveViews): boolean {
  // on plain copies of the very sequences the views show: reading every entry through the views
  // would cost a property trap per read
  const p = plainViews(v);
  const ok = pairingOk(p.roles, p.callOf, p.lastAnswer, p.ongoing);
  if (ok) pairedLive.add(v);
  else pairedLive.delete(v);
  return ok;
}

/**
 * Re-checks Pairing after message j was appended to live views: only index j and, for a tool
 * result, its call's index changed (lastAnswer, ongoing), so pairingAt at those two is enough.
 * A failure drops the views from the checked set, so the next gate call checks them in full
 * (and fails with the usual boundary error).
 */
export function gateViewsAppended(v: LiveViews, j: number, answered: number): void {
  if (!pairedLive.has(v)) return;
  const ok =
    v.callOf.length === v.roles.length &&
    v.lastAnswer.length === v.roles.length &&
    v.ongoing.length === v.roles.length &&
    pairingAt(v.roles, v.callOf, v.lastAnswer, v.ongoing, j) &&
    (answered < 0 || pairingAt(v.roles, v.callOf, v.lastAnswer, v.ongoing, answered));
  if (!ok) pairedLive.delete(v);
}

/**
 * L6 on the live views: replaces [start, end) by a summary entry if the stretch is coherent
 * (every message movable from start and every call answered before end, checked here in
 * O(end - start)) and the views are checked ones; the kernel's lemma SplicePreservesPairing then gives Pairing of the result, so
 * checked views stay checked. Returns false, changing nothing, for an incoherent stretch or unchecked views: the
 * caller must rebuild the views from its messages (and they get the full check again).
 */
export function gateSpliceViews(v: LiveViews, start: number, end: number): boolean {
  // the kernel's splice, applied to every view at once
  guardSplice(v.roles, start, end, "summary");
  // unchecked views may not be consistent (a lastAnswer that disagrees with callOf), so the
  // coherence check below would not be enough to shift them safely
  if (!pairedLive.has(v)) return false;
  for (let j = start; j < end; j++) {
    if (!movable(v.roles, v.callOf, v.ongoing, start, j) || v.lastAnswer[j] >= end) return false;
  }
  spliceViews(v, start, end);
  return true;
}

/** L4/L5: the earliest eligible stretch before the retention window. */
export function gateSelectStretch(v: KernelViews, window: number): Stretch {
  guardSelectStretch(v.roles, v.callOf, v.lastAnswer, v.ongoing, window, { Pairing: pairedLive.has(v) });
  return selectStretch(v.roles, v.callOf, v.lastAnswer, v.ongoing, window);
}

/** L4/L5: the earliest eligible stretch starting at or after `from` (to continue past a stretch that was left unchanged). */
export function gateSelectStretchFrom(v: KernelViews, window: number, from: number): Stretch {
  guardSelectStretchFrom(v.roles, v.callOf, v.lastAnswer, v.ongoing, window, from, { Pairing: pairedLive.has(v) });
  return selectStretchFrom(v.roles, v.callOf, v.lastAnswer, v.ongoing, window, from);
}

/** L7 with L4/L5: the earliest eligible stretch at or after `from` that leaves at least keepRecentTokens after it. */
export function gateSelectKeepRecent(
  v: KernelViews,
  tokenView: readonly number[],
  window: number,
  from: number,
  keepRecentTokens: number,
): Stretch {
  // the check below and the kernel (its suffix sum) read every count: from a plain array, not a view
  const tokens = plainArray(tokenView);
  guardSelectKeepRecent(v.roles, tokens, v.callOf, v.lastAnswer, v.ongoing, window, from, keepRecentTokens, {
    Pairing: pairedLive.has(v),
  });
  return selectKeepRecent(v.roles, tokens, v.callOf, v.lastAnswer, v.ongoing, window, from, keepRecentTokens);
}

/**
 * L6 in place: xs becomes xs[..start] ++ [summary] ++ xs[end..], the same sequence the kernel's
 * splice returns (its ensures; test/engine/live-views.test.ts compares them), without copying or
 * moving the whole history at every compaction step (a gap buffer: see gap-array.ts).
 */
export function gateSpliceInPlace<T>(xs: GapArray<T>, start: number, end: number, summary: T): void {
  guardSplice(xs.view(), start, end, summary);
  xs.replace(start, end, summary);
}

/** Sum of tokens[a..b) (the replaced tokens of a stretch). */
export function gateRangeTokens(tokens: readonly number[], a: number, b: number): number {
  guardRangeTokens(tokens, a, b);
  return rangeTokens(tokens, a, b);
}

/** L8: is a summary of summaryTokens an acceptable replacement for replacedTokens? */
export function gateAcceptSummary(summaryTokens: number, replacedTokens: number, maxTokens: number): boolean {
  guardAcceptSummary(summaryTokens, replacedTokens, maxTokens);
  return acceptSummary(summaryTokens, replacedTokens, maxTokens);
}

/** L9: may a planned compaction still be applied (commit, rebase) or not (reject)? */
export function gateDecideCommit(plan: PlanStamp, now: CurrentStamp): CommitDecision {
  guardDecideCommit(plan, now);
  return decideCommit(plan, now);
}

/** L10: the next persisted watermark. */
export function gateAdvanceWatermark(current: number, proposed: number, newestUserIndex: number): number {
  guardAdvanceWatermark(current, proposed, newestUserIndex);
  return advanceWatermark(current, proposed, newestUserIndex);
}

/** L12: the first invalid setting of a configuration's numeric view, or "none". */
export function gateValidateConfig(view: ConfigView): ConfigField {
  guardValidateConfig(view);
  return validateConfig(view);
}

/** L7: the keep-recent cut point within [start, end). */
export function gateFindCutPoint(
  v: KernelViews,
  tokenView: readonly number[],
  start: number,
  end: number,
  keepRecentTokens: number,
): CutPoint {
  // the check below reads every count: from a plain array, not a view
  const tokens = plainArray(tokenView);
  guardFindCutPoint(v.roles, tokens, v.callOf, v.lastAnswer, start, end, keepRecentTokens);
  return findCutPoint(v.roles, tokens, v.callOf, v.lastAnswer, start, end, keepRecentTokens);
}

/** L12: the largest accepted max_tokens (for error messages). */
export function gateMaxTokensLimit(): number {
  return maxTokensLimit();
}

/** L11: how many whole lines of the head (or tail) fit both budgets. */
export function gateKeepLines(
  lineBytes: readonly number[],
  maxLines: number,
  maxBytes: number,
  from: "head" | "tail",
): number {
  if (from === "head") guardKeepHeadLines(lineBytes, maxLines, maxBytes);
  else guardKeepTailLines(lineBytes, maxLines, maxBytes);
  return from === "head" ? keepHeadLines(lineBytes, maxLines, maxBytes) : keepTailLines(lineBytes, maxLines, maxBytes);
}
