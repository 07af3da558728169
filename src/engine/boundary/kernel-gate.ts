// The engine's only door into the kernel. Every kernel decision the engine uses is called
// here, after checking the function's `//@ requires` at runtime: the proofs hold only for
// inputs that satisfy them, so a violation is a clear error, never an unproven path.

import { clearedTokens, selectClearing } from "../../kernel/clearing.ts";
import { type CommitDecision, type CurrentStamp, decideCommit, type PlanStamp } from "../../kernel/commit.ts";
import { type ConfigField, type ConfigView, maxTokensLimit, validateConfig } from "../../kernel/config.ts";
import { type CutPoint, findCutPoint } from "../../kernel/cutpoint.ts";
import { selectKeepRecent } from "../../kernel/keeprecent.ts";
import { decideLogCommit } from "../../kernel/logcommit.ts";
import { acceptSummary, rangeTokens, rejectionStreak, stopAfterRejections } from "../../kernel/progress.ts";
import { retentionCutoff } from "../../kernel/retention.ts";
import { movable, pairingAt, pairingOk, type Stretch, selectStretch, selectStretchFrom } from "../../kernel/stretch.ts";
import {
  hasThreshold,
  type ReportedPrefix,
  type ThresholdKind,
  type Thresholds,
  type TriggerKind,
  thresholdFired,
  triggerFired,
  usageAfterSplice,
  usageTokens,
} from "../../kernel/trigger.ts";
import { keepHeadLines, keepTailLines } from "../../kernel/truncate.ts";
import { advanceWatermark } from "../../kernel/watermark.ts";
import { KernelBoundaryError } from "../../model/errors.ts";
import { type GapArray, plainArray } from "../store/gap-array.ts";
import { type KernelViews, type LiveViews, plainViews, spliceViews } from "../store/views.ts";
import { EXACT_LIMIT, EXACT_LIMIT_NAME, isNat, natsSumExactly } from "./exact.ts";

function need(ok: boolean, fn: string, requirement: string): void {
  if (!ok) throw new KernelBoundaryError(fn, requirement);
}

// The proofs read integers: every number passed is a safe integer, and every sum the kernel
// forms over an array (token counts, line bytes) is at most 2^53 - 1, so doubles compute it
// exactly (exact.ts). A single sum of two safe integers compared with a third is exact anyway.
const TOKENS_EXACT = `token counts >= 0 with a sum <= ${EXACT_LIMIT_NAME}`;

/** L1, both forms: which trigger makes compaction due (contextWindow 0 = no window). */
export function gateTriggerFired(
  tokens: number,
  messages: number,
  userTurns: number,
  th: Thresholds,
  contextWindow: number,
  reserveTokens: number,
): TriggerKind {
  need(isNat(tokens) && isNat(messages) && isNat(userTurns), "triggerFired", "tokens, messages, userTurns >= 0");
  need(
    isNat(th.tokenThreshold) && isNat(th.messageThreshold) && isNat(th.turnThreshold),
    "triggerFired",
    "thresholds >= 0",
  );
  need(
    isNat(contextWindow) && (contextWindow === 0 || (isNat(reserveTokens) && contextWindow > reserveTokens)),
    "triggerFired",
    "contextWindow = 0, or reserveTokens >= 0 and contextWindow > reserveTokens",
  );
  need(hasThreshold(th) || contextWindow > 0, "triggerFired", "at least one threshold or a context window");
  return triggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens);
}

/** L1, threshold form: which configured threshold is reached (tokens first), for the report. */
export function gateThresholdFired(tokens: number, messages: number, userTurns: number, th: Thresholds): ThresholdKind {
  need(isNat(tokens) && isNat(messages) && isNat(userTurns), "thresholdFired", "tokens, messages, userTurns >= 0");
  need(
    isNat(th.tokenThreshold) && isNat(th.messageThreshold) && isNat(th.turnThreshold),
    "thresholdFired",
    "thresholds >= 0",
  );
  return thresholdFired(tokens, messages, userTurns, th);
}

/** L1 with reported usage: the token count the trigger judges (the report for a prefix plus the counts after it). */
export function gateUsageTokens(u: ReportedPrefix, tokens: readonly number[]): number {
  need(
    isNat(u.reported) && isNat(u.end) && u.end <= tokens.length,
    "usageTokens",
    "reported >= 0 and 0 <= end <= tokens.length",
  );
  // the result is the report plus the counts after it: that sum must be exact too
  need(
    natsSumExactly(tokens, u.reported, u.end),
    "usageTokens",
    `token counts >= 0 whose sum after the prefix plus the report is <= ${EXACT_LIMIT_NAME}`,
  );
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
  need(
    isNat(u.reported) && isNat(u.end) && u.end <= tokens.length,
    "usageAfterSplice",
    "reported >= 0 and 0 <= end <= tokens.length",
  );
  need(
    isNat(start) && Number.isSafeInteger(end) && start < end && end <= tokens.length && isNat(summaryTokens),
    "usageAfterSplice",
    "0 <= start < end <= tokens.length and summaryTokens >= 0",
  );
  // the replaced counts are summed, and the report may gain the summary's count
  need(
    natsSumExactly(tokens, 0, start, end) && summaryTokens <= EXACT_LIMIT - u.reported,
    "usageAfterSplice",
    `${TOKENS_EXACT}, and reported + summaryTokens <= ${EXACT_LIMIT_NAME}`,
  );
  return usageAfterSplice(u, tokens, start, end, summaryTokens);
}

/** L3: index of the first message of the retention window. */
export function gateRetentionCutoff(n: number, window: number): number {
  need(isNat(n) && Number.isSafeInteger(window) && window >= 1, "retentionCutoff", "n >= 0 && window >= 1");
  return retentionCutoff(n, window);
}

// Live views (the store's) whose Pairing was checked in full here and that have since changed only
// through gateViewsAppended and gateSpliceViews, each of which re-checks what its change can break.
// Views built any other way (untrusted input, tests) are not in the set and get the full check.
const pairedLive = new WeakSet<KernelViews>();

// selectStretch's precondition Pairing, checked by the kernel's own pairingOk (proven equal to it):
// in full (O(n)), unless the views are live views already known to satisfy it (see pairedLive).
function pairing(v: KernelViews): boolean {
  if (pairedLive.has(v)) return true;
  return pairingOk(v.roles, v.callOf, v.lastAnswer, v.ongoing);
}

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
  const n = v.roles.length;
  need(
    isNat(start) && Number.isSafeInteger(end) && start < end && end <= n,
    "spliceViews",
    "0 <= start < end <= roles.length",
  );
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
  need(Number.isSafeInteger(window) && window >= 1, "selectStretch", "window >= 1");
  need(
    pairing(v),
    "selectStretch",
    "Pairing(roles, callOf, lastAnswer, ongoing): every tool result answers an earlier call",
  );
  return selectStretch(v.roles, v.callOf, v.lastAnswer, v.ongoing, window);
}

/** L4/L5: the earliest eligible stretch starting at or after `from` (to continue past a stretch that was left unchanged). */
export function gateSelectStretchFrom(v: KernelViews, window: number, from: number): Stretch {
  need(Number.isSafeInteger(window) && window >= 1, "selectStretchFrom", "window >= 1");
  need(isNat(from), "selectStretchFrom", "0 <= from");
  need(
    pairing(v),
    "selectStretchFrom",
    "Pairing(roles, callOf, lastAnswer, ongoing): every tool result answers an earlier call",
  );
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
  need(Number.isSafeInteger(window) && window >= 1, "selectKeepRecent", "window >= 1");
  need(isNat(from), "selectKeepRecent", "0 <= from");
  need(
    pairing(v),
    "selectKeepRecent",
    "Pairing(roles, callOf, lastAnswer, ongoing): every tool result answers an earlier call",
  );
  need(tokens.length === v.roles.length, "selectKeepRecent", "tokens.length === roles.length");
  // not a requires: the proofs read integers, so the doubles passed must be exact ones (PROPERTIES.md)
  need(natsSumExactly(tokens), "selectKeepRecent", TOKENS_EXACT);
  need(Number.isSafeInteger(keepRecentTokens), "selectKeepRecent", "an integer keepRecentTokens");
  return selectKeepRecent(v.roles, tokens, v.callOf, v.lastAnswer, v.ongoing, window, from, keepRecentTokens);
}

/**
 * L6 in place: xs becomes xs[..start] ++ [summary] ++ xs[end..], the same sequence the kernel's
 * splice returns (its ensures; test/engine/live-views.test.ts compares them), without copying or
 * moving the whole history at every compaction step (a gap buffer: see gap-array.ts).
 */
export function gateSpliceInPlace<T>(xs: GapArray<T>, start: number, end: number, summary: T): void {
  need(
    isNat(start) && Number.isSafeInteger(end) && start < end && end <= xs.length,
    "splice",
    "0 <= start < end <= xs.length",
  );
  xs.replace(start, end, summary);
}

/** What the clearing tier reads per message, besides the kernel views (L13). */
export interface ClearingFacts {
  /** the message is a placeholder already */
  readonly cleared: readonly boolean[];
  /** the message is a result of an excluded tool, or one whose format cannot hold a placeholder */
  readonly excluded: readonly boolean[];
  /** each message's token count with its content replaced by its placeholder (its own count where none) */
  readonly after: readonly number[];
}

/** L13: which tool results to clear (none when `due` is "notDue"; at least clearAtLeast tokens or none). */
export function gateSelectClearing(
  v: KernelViews,
  tokenView: readonly number[],
  f: ClearingFacts,
  window: number,
  keep: number,
  goal: number,
  clearAtLeast: number,
  due: TriggerKind,
): boolean[] {
  const tokens = plainArray(tokenView);
  const n = v.roles.length;
  need(
    v.callOf.length === n &&
      v.ongoing.length === n &&
      f.cleared.length === n &&
      f.excluded.length === n &&
      tokens.length === n &&
      f.after.length === n,
    "selectClearing",
    "arrays of equal length",
  );
  need(Number.isSafeInteger(window) && window >= 1 && isNat(keep), "selectClearing", "window >= 1 && keep >= 0");
  // the freed sum is at most the token total (only shorter placeholders count): exact when both sums are
  need(natsSumExactly(tokens) && natsSumExactly(f.after), "selectClearing", TOKENS_EXACT);
  need(
    Number.isSafeInteger(goal) && Number.isSafeInteger(clearAtLeast),
    "selectClearing",
    "integer goal and clearAtLeast",
  );
  return selectClearing(
    v.roles,
    v.callOf,
    v.ongoing,
    f.cleared,
    f.excluded,
    tokens,
    f.after,
    window,
    keep,
    goal,
    clearAtLeast,
    due,
  );
}

/** L13: the token counts after clearing the marked messages (the total falls by exactly what was freed). */
export function gateClearedTokens(
  tokenView: readonly number[],
  after: readonly number[],
  mask: readonly boolean[],
): number[] {
  const tokens = plainArray(tokenView);
  need(after.length === tokens.length && mask.length === tokens.length, "clearedTokens", "arrays of equal length");
  need(natsSumExactly(tokens) && natsSumExactly(after), "clearedTokens", TOKENS_EXACT);
  return clearedTokens(tokens, after, mask);
}

/** Sum of tokens[a..b) (the replaced tokens of a stretch). */
export function gateRangeTokens(tokens: readonly number[], a: number, b: number): number {
  need(
    isNat(a) && Number.isSafeInteger(b) && a <= b && b <= tokens.length,
    "rangeTokens",
    "0 <= a <= b <= tokens.length",
  );
  need(natsSumExactly(tokens, 0, a, b), "rangeTokens", TOKENS_EXACT);
  return rangeTokens(tokens, a, b);
}

/** L8: is a summary of summaryTokens an acceptable replacement for replacedTokens? */
export function gateAcceptSummary(summaryTokens: number, replacedTokens: number, maxTokens: number): boolean {
  need(
    [summaryTokens, replacedTokens, maxTokens].every(Number.isSafeInteger),
    "acceptSummary",
    "integer token counts and maxTokens",
  );
  return acceptSummary(summaryTokens, replacedTokens, maxTokens);
}

/** L8, the run's stop rule: the summaries in a row that failed validation after one more answer. */
export function gateRejectionStreak(rejectedInARow: number, accepted: boolean): number {
  need(
    isNat(rejectedInARow) && rejectedInARow < Number.MAX_SAFE_INTEGER,
    "rejectionStreak",
    "0 <= rejectedInARow < 2^53 - 1",
  );
  return rejectionStreak(rejectedInARow, accepted);
}

/** L8, the run's stop rule: does the run stop asking after `rejectedInARow` rejected summaries in a row? */
export function gateStopAfterRejections(rejectedInARow: number, limit: number): boolean {
  need(
    isNat(rejectedInARow) && isNat(limit) && limit >= 1,
    "stopAfterRejections",
    "rejectedInARow >= 0 and limit >= 1",
  );
  return stopAfterRejections(rejectedInARow, limit);
}

/** L9: may a planned compaction still be applied (commit, rebase) or not (reject)? */
export function gateDecideCommit(plan: PlanStamp, now: CurrentStamp): CommitDecision {
  need(
    isNat(plan.length) && isNat(now.length) && isNat(plan.stretchEnd),
    "decideCommit",
    "lengths and stretchEnd >= 0",
  );
  need(Number.isSafeInteger(plan.version) && Number.isSafeInteger(now.version), "decideCommit", "integer versions");
  return decideCommit(plan, now);
}

/** L9 over an append-only log: a plan judged after `tail` more entries (true: a compaction). */
export function gateDecideLogCommit(plan: PlanStamp, tail: readonly boolean[], nowLength: number): CommitDecision {
  need(
    isNat(plan.length) && isNat(nowLength) && isNat(plan.stretchEnd),
    "decideLogCommit",
    "lengths and stretchEnd >= 0",
  );
  need(
    isNat(plan.version) && Number.isSafeInteger(plan.version + tail.length),
    "decideLogCommit",
    "an entry count as version",
  );
  return decideLogCommit(plan, [...tail], nowLength);
}

/** L10: the next persisted watermark. */
export function gateAdvanceWatermark(current: number, proposed: number, newestUserIndex: number): number {
  need([current, proposed, newestUserIndex].every(Number.isSafeInteger), "advanceWatermark", "integer positions");
  return advanceWatermark(current, proposed, newestUserIndex);
}

/** L12: the first invalid setting of a configuration's numeric view, or "none". */
export function gateValidateConfig(view: ConfigView): ConfigField {
  for (const [field, x] of Object.entries(view)) {
    if (typeof x === "number") need(Number.isSafeInteger(x), "validateConfig", `an integer ${field}`);
  }
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
  const n = v.roles.length;
  need(
    tokens.length === n && v.callOf.length === n && v.lastAnswer.length === n,
    "findCutPoint",
    "arrays of equal length",
  );
  need(
    isNat(start) && Number.isSafeInteger(end) && start <= end && end <= n,
    "findCutPoint",
    "0 <= start <= end <= roles.length",
  );
  need(natsSumExactly(tokens), "findCutPoint", TOKENS_EXACT);
  need(Number.isSafeInteger(keepRecentTokens), "findCutPoint", "an integer keepRecentTokens");
  need(pairing(v), "findCutPoint", "every tool result answers an earlier call whose lastAnswer covers it");
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
  need(
    isNat(maxLines) && isNat(maxBytes),
    from === "head" ? "keepHeadLines" : "keepTailLines",
    "maxLines >= 0 && maxBytes >= 0",
  );
  // the joined size of all lines (one newline byte between two) is the largest sum formed
  need(
    natsSumExactly(lineBytes, Math.max(0, lineBytes.length - 1)),
    from === "head" ? "keepHeadLines" : "keepTailLines",
    `line byte lengths >= 0, joined size <= ${EXACT_LIMIT_NAME}`,
  );
  return from === "head" ? keepHeadLines(lineBytes, maxLines, maxBytes) : keepTailLines(lineBytes, maxLines, maxBytes);
}
