// The engine's only door into the kernel. Every kernel decision the engine uses is called
// here, after checking the function's `//@ requires` at runtime with the guard generated from
// them (kernel-requires.ts): the proofs hold only for inputs that satisfy them, so a violation
// is a clear error, never an unproven path. Stateless: it keeps nothing between calls and
// changes nothing it is given; it knows the kernel's types, not the store's.

import { agedBudget, agingDue, planAging } from "../../kernel/aging.ts";
import { planBatch, planFreed } from "../../kernel/batch.ts";
import { summaryBudget } from "../../kernel/budget.ts";
import { planCalls } from "../../kernel/callplan.ts";
import { callsToClear, clearedTokens, selectClearing } from "../../kernel/clearing.ts";
import { type CommitDecision, type CurrentStamp, decideCommit, type PlanStamp } from "../../kernel/commit.ts";
import { type ConfigField, type ConfigView, maxTokensLimit, validateConfig } from "../../kernel/config.ts";
import { type CutPoint, findCutPoint } from "../../kernel/cutpoint.ts";
import {
  floorAllowsRun,
  markedNotShrinkable,
  notShrinkable,
  recordAfterSplice,
  type ShunnedStretch,
  worthACall,
} from "../../kernel/floor.ts";
import { keepRecentCutoff, selectKeepRecent } from "../../kernel/keeprecent.ts";
import { type LedgerStepUse, ledgerKept, ledgerSlot, ledgerStepUse } from "../../kernel/ledger.ts";
import { decideLogCommit } from "../../kernel/logcommit.ts";
import { runContinues, summarizesAfterClearing } from "../../kernel/lowwater.ts";
import { acceptSummary, rangeTokens, rejectionStreak, stopAfterRejections } from "../../kernel/progress.ts";
import { retentionCutoff } from "../../kernel/retention.ts";
import type { Role } from "../../kernel/roles.ts";
import { movable, pairingAt, pairingOk, type Stretch, selectStretch, selectStretchFrom } from "../../kernel/stretch.ts";
import {
  overByteBudget,
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
import {
  guardAcceptSummary,
  guardAdvanceWatermark,
  guardAgedBudget,
  guardAgingDue,
  guardCallsToClear,
  guardClearedTokens,
  guardDecideCommit,
  guardDecideLogCommit,
  guardFindCutPoint,
  guardFloorAllowsRun,
  guardKeepHeadLines,
  guardKeepRecentCutoff,
  guardKeepTailLines,
  guardLedgerKept,
  guardLedgerSlot,
  guardMarkedNotShrinkable,
  guardMovable,
  guardNotShrinkable,
  guardOverByteBudget,
  guardPairingAt,
  guardPlanAging,
  guardPlanBatch,
  guardPlanCalls,
  guardPlanFreed,
  guardRangeTokens,
  guardRecordAfterSplice,
  guardRejectionStreak,
  guardRetentionCutoff,
  guardRunContinues,
  guardSelectClearing,
  guardSelectKeepRecent,
  guardSelectStretch,
  guardSelectStretchFrom,
  guardSplice,
  guardStopAfterRejections,
  guardSummarizesAfterClearing,
  guardSummaryBudget,
  guardThresholdFired,
  guardTriggerFired,
  guardUsageAfterSplice,
  guardUsageTokens,
  guardValidateConfig,
  guardWorthACall,
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

/** L1, byte form: whether a request of `bytes` passes the byte budget (max_request_bytes; 0 = none). */
export function gateOverByteBudget(bytes: number, maxBytes: number): boolean {
  guardOverByteBudget(bytes, maxBytes);
  return overByteBudget(bytes, maxBytes);
}

/** L1, threshold form: which configured threshold is reached (tokens first), for the report. */
export function gateThresholdFired(tokens: number, messages: number, userTurns: number, th: Thresholds): ThresholdKind {
  guardThresholdFired(tokens, messages, userTurns, th);
  return thresholdFired(tokens, messages, userTurns, th);
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

/**
 * The tool-pairing views the kernel's stretch functions read. `paired`: the views' owner vouches
 * that Pairing holds (the store, which checks it in full once with gatePairingOk and keeps it
 * through each append with gatePairingAfterAppend and each coherent splice); absent or false,
 * the guard checks Pairing in full (O(n)) at every call.
 */
export interface PairingViews {
  readonly roles: readonly Role[];
  readonly callOf: readonly number[];
  readonly lastAnswer: readonly number[];
  readonly ongoing: readonly boolean[];
  readonly paired?: boolean;
}

/** L5's Pairing, by the kernel's own pairingOk (proven equal to it), over plain arrays (O(n)). */
export function gatePairingOk(v: PairingViews): boolean {
  return pairingOk(v.roles, v.callOf, v.lastAnswer, v.ongoing);
}

/**
 * Pairing after message j was appended to views that had it: only index j and, for a tool
 * result, the index of the call it answers (`answered`, or -1) changed (lastAnswer, ongoing),
 * so pairingAt at those two decides it.
 */
export function gatePairingAfterAppend(v: PairingViews, j: number, answered: number): boolean {
  const n = v.roles.length;
  if (v.callOf.length !== n || v.lastAnswer.length !== n || v.ongoing.length !== n) return false;
  guardPairingAt(v.roles, v.callOf, v.lastAnswer, v.ongoing, j);
  return (
    pairingAt(v.roles, v.callOf, v.lastAnswer, v.ongoing, j) &&
    (answered < 0 || pairingAt(v.roles, v.callOf, v.lastAnswer, v.ongoing, answered))
  );
}

/**
 * Is [start, end) a coherent stretch of views that have Pairing (every message movable from
 * start, every call answered before end)? Checked in O(end - start). Then the views with the
 * stretch replaced by one summary entry have Pairing too (the kernel's lemma
 * SplicePreservesPairing), so the owner may splice its views in place and keep vouching.
 */
export function gateStretchCoherent(v: PairingViews, start: number, end: number): boolean {
  guardSplice(v.roles, start, end, "summary");
  // movable's requires at the first and last index: every index between is in range too
  guardMovable(v.roles, v.callOf, v.ongoing, start, start);
  guardMovable(v.roles, v.callOf, v.ongoing, start, end - 1);
  for (let j = start; j < end; j++) {
    if (!movable(v.roles, v.callOf, v.ongoing, start, j) || v.lastAnswer[j] >= end) return false;
  }
  return true;
}

/** L4/L5: the earliest eligible stretch before the retention window. */
export function gateSelectStretch(v: PairingViews, window: number): Stretch {
  guardSelectStretch(v.roles, v.callOf, v.lastAnswer, v.ongoing, window, { Pairing: v.paired === true });
  return selectStretch(v.roles, v.callOf, v.lastAnswer, v.ongoing, window);
}

/** L4/L5: the earliest eligible stretch starting at or after `from` (to continue past a stretch that was left unchanged). */
export function gateSelectStretchFrom(v: PairingViews, window: number, from: number): Stretch {
  guardSelectStretchFrom(v.roles, v.callOf, v.lastAnswer, v.ongoing, window, from, { Pairing: v.paired === true });
  return selectStretchFrom(v.roles, v.callOf, v.lastAnswer, v.ongoing, window, from);
}

/**
 * The keep-recent form as one cutoff (L7): the latest index at or before the retention cutoff
 * whose suffix holds keepRecentTokens, or 0; `tokens` a plain array (the guard reads every count).
 */
export function gateKeepRecentCutoff(tokens: readonly number[], window: number, keepRecentTokens: number): number {
  guardKeepRecentCutoff(tokens, window, keepRecentTokens);
  return keepRecentCutoff(tokens, window, keepRecentTokens);
}

/** L7 with L4/L5: the earliest eligible stretch at or after `from` that leaves at least keepRecentTokens after it. */
export function gateSelectKeepRecent(
  v: PairingViews,
  tokens: readonly number[],
  window: number,
  from: number,
  keepRecentTokens: number,
): Stretch {
  guardSelectKeepRecent(v.roles, tokens, v.callOf, v.lastAnswer, v.ongoing, window, from, keepRecentTokens, {
    Pairing: v.paired === true,
  });
  return selectKeepRecent(v.roles, tokens, v.callOf, v.lastAnswer, v.ongoing, window, from, keepRecentTokens);
}

/**
 * L6's precondition for a splice its caller makes in place (the store's gap buffers, without
 * copying the history at every step): 0 <= start < end <= xs.length, as the kernel's splice
 * requires; the caller then replaces [start, end) by the summary, which gives the sequence the
 * kernel's splice returns (its ensures; test/engine/live-views.test.ts compares them).
 */
export function gateSplice(xs: readonly unknown[], start: number, end: number): void {
  guardSplice(xs, start, end, undefined);
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
  v: PairingViews,
  tokens: readonly number[],
  f: ClearingFacts,
  window: number,
  keep: number,
  goal: number,
  clearAtLeast: number,
  due: TriggerKind,
): boolean[] {
  const args = [
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
  ] as const;
  guardSelectClearing(...args);
  return selectClearing(...args);
}

/** L13: the token counts after clearing the marked messages (the total falls by exactly what was freed). */
export function gateClearedTokens(
  tokens: readonly number[],
  after: readonly number[],
  mask: readonly boolean[],
): number[] {
  guardClearedTokens(tokens, after, mask);
  return clearedTokens(tokens, after, mask);
}

/** L13, clear_inputs: the messages whose calls' arguments are cleared too (the calls of the results `mask` clears; none unless asked). */
export function gateCallsToClear(callOf: readonly number[], mask: readonly boolean[], clearInputs: boolean): boolean[] {
  guardCallsToClear(callOf, mask, clearInputs);
  return callsToClear(callOf, mask, clearInputs);
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

/** Is the stretch [start, end) worth a summarizer call: above the floor, and not recorded as not shrinkable? */
export function gateWorthACall(
  tokens: readonly number[],
  start: number,
  end: number,
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
): boolean {
  guardWorthACall(tokens, start, end, floorTokens, shunStarts, shunEnds);
  return worthACall(tokens, start, end, floorTokens, shunStarts, shunEnds);
}

/** May a due run start, judged against the lawful floor (at most one run per `every` calls under it, each with `freeAtLeast` to free)? */
export function gateFloorAllowsRun(
  trigger: number,
  lawfulFloor: number,
  total: number,
  freeAtLeast: number,
  callsSince: number,
  every: number,
): boolean {
  guardFloorAllowsRun(trigger, lawfulFloor, total, freeAtLeast, callsSince, every);
  return floorAllowsRun(trigger, lawfulFloor, total, freeAtLeast, callsSince, every);
}

/** Is a summary of `size` tokens known not to shrink by its marker's record (`floorAt`, -1: none)? */
export function gateMarkedNotShrinkable(size: number, floorAt: number): boolean {
  guardMarkedNotShrinkable(size, floorAt);
  return markedNotShrinkable(size, floorAt);
}

/** Does a rejected summary of summaryTokens show that its stretch of replacedTokens cannot shrink? */
export function gateNotShrinkable(summaryTokens: number, replacedTokens: number): boolean {
  guardNotShrinkable(summaryTokens, replacedTokens);
  return notShrinkable(summaryTokens, replacedTokens);
}

/** A record of a stretch that cannot shrink after [spliceStart, spliceEnd) became one summary: kept, moved, or dropped (-1, -1). */
export function gateRecordAfterSplice(
  shunStart: number,
  shunEnd: number,
  spliceStart: number,
  spliceEnd: number,
): ShunnedStretch {
  guardRecordAfterSplice(shunStart, shunEnd, spliceStart, spliceEnd);
  return recordAfterSplice(shunStart, shunEnd, spliceStart, spliceEnd);
}

/** The disjoint stretches, earliest first, one run summarizes to free `need` tokens (flat [start, end) pairs). */
export function gatePlanBatch(
  v: PairingViews,
  window: number,
  tokens: readonly number[],
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
  need: number,
  allowance: number,
  keepPercent: number,
): number[] {
  guardPlanBatch(
    v.roles,
    v.callOf,
    v.lastAnswer,
    v.ongoing,
    window,
    tokens,
    floorTokens,
    shunStarts,
    shunEnds,
    need,
    allowance,
    keepPercent,
    {
      Pairing: v.paired === true,
    },
  );
  return planBatch(
    v.roles,
    v.callOf,
    v.lastAnswer,
    v.ongoing,
    window,
    tokens,
    floorTokens,
    shunStarts,
    shunEnds,
    need,
    allowance,
    keepPercent,
  );
}

/**
 * The calls a batch's parts are sent in (flat [start, end) pairs, consecutive, in order): each
 * fits the summarizer's window and output cap, or is one part that fits not even alone; greedy.
 */
export function gatePlanCalls(
  input: readonly number[],
  output: readonly number[],
  overhead: number,
  window: number,
  outputCap: number,
): number[] {
  guardPlanCalls(input, output, overhead, window, outputCap);
  return planCalls(input, output, overhead, window, outputCap);
}

/** What a flat plan (planBatch's) is expected to free: each stretch less its allowance and its expected share. */
export function gatePlanFreed(
  tokens: readonly number[],
  plan: readonly number[],
  allowance: number,
  keepPercent: number,
): number {
  guardPlanFreed(tokens, plan, allowance, keepPercent);
  return planFreed(tokens, plan, allowance, keepPercent);
}

/**
 * Does a run age summaries: its work plan (`planned` tokens) frees `freed` of the `need`, and
 * summaries hold at least sharePercent of the context the plan leaves?
 */
export function gateAgingDue(
  summaryTokens: number,
  totalTokens: number,
  sharePercent: number,
  freed: number,
  need: number,
  planned: number,
): boolean {
  guardAgingDue(summaryTokens, totalTokens, sharePercent, freed, need, planned);
  return agingDue(summaryTokens, totalTokens, sharePercent, freed, need, planned);
}

/** An aged summary's budget: percent of its size, strictly below it. */
export function gateAgedBudget(size: number, percent: number): number {
  guardAgedBudget(size, percent);
  return agedBudget(size, percent);
}

/**
 * An ordinary stretch's stated summary budget: percent of its size, at least its facts' tokens
 * plus the floor, at most max_tokens (percent 0: max_tokens).
 */
export function gateSummaryBudget(
  size: number,
  factTokens: number,
  percent: number,
  floorTokens: number,
  maxTokens: number,
): number {
  guardSummaryBudget(size, factTokens, percent, floorTokens, maxTokens);
  return summaryBudget(size, factTokens, percent, floorTokens, maxTokens);
}

/**
 * The summaries a run ages, oldest first, outside the flat work plan, whose facts' tokens (`facts`,
 * parallel to `tokens`) fit strictly under their aged budget, to free `need` tokens (their positions).
 */
export function gatePlanAging(
  roles: readonly Role[],
  tokens: readonly number[],
  facts: readonly number[],
  window: number,
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
  plan: readonly number[],
  need: number,
  percent: number,
): number[] {
  guardPlanAging(roles, tokens, facts, window, floorTokens, shunStarts, shunEnds, plan, need, percent);
  return planAging(roles, tokens, facts, window, floorTokens, shunStarts, shunEnds, plan, need, percent);
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

/** L12: the first invalid setting of a configuration's numeric view, or "none". */
export function gateValidateConfig(view: ConfigView): ConfigField {
  guardValidateConfig(view);
  return validateConfig(view);
}

/** L7: the keep-recent cut point within [start, end). */
export function gateFindCutPoint(
  v: PairingViews,
  tokens: readonly number[],
  start: number,
  end: number,
  keepRecentTokens: number,
): CutPoint {
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
