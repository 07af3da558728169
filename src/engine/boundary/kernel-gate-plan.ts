// The kernel gate, the planning stage (one of the engine's doors into the kernel; kernel-gate.ts
// re-exports them all): the tool pairing, the stretch a step summarizes (L2, L4, L7 keep-recent),
// the clearing tier's selection (L13), what a stretch is worth (the floor, the records of stretches
// that cannot shrink), batches, calls, aging and the summary budget, and the cut point. Input: the
// kernel's views of the messages; output: the kernel's plan. Every function here calls its kernel function after checking the kernel's `//@ requires` with the guard generated from them (kernel-requires.ts); stateless: it keeps nothing between calls and changes nothing it is given, and decides nothing itself (the kernel does).

import { agedBudget, agingDue, planAging } from "../../kernel/aging.ts";
import { planBatch, planFreed } from "../../kernel/batch.ts";
import { summaryBudget } from "../../kernel/budget.ts";
import { planCalls } from "../../kernel/callplan.ts";
import { byteWeightsAfter, callsToClear, clearedTokens, selectClearing } from "../../kernel/clearing.ts";
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
import { pinnedOngoing } from "../../kernel/pin.ts";
import { rangeTokens } from "../../kernel/progress.ts";
import type { Role } from "../../kernel/roles.ts";
import { movable, pairingAt, pairingOk, type Stretch, selectStretch, selectStretchFrom } from "../../kernel/stretch.ts";
import type { TriggerKind } from "../../kernel/trigger.ts";
import {
  guardAgedBudget,
  guardAgingDue,
  guardByteWeightsAfter,
  guardCallsToClear,
  guardClearedTokens,
  guardFindCutPoint,
  guardFloorAllowsRun,
  guardKeepRecentCutoff,
  guardMarkedNotShrinkable,
  guardMovable,
  guardNotShrinkable,
  guardPairingAt,
  guardPinnedOngoing,
  guardPlanAging,
  guardPlanBatch,
  guardPlanCalls,
  guardPlanFreed,
  guardRangeTokens,
  guardRecordAfterSplice,
  guardSelectClearing,
  guardSelectKeepRecent,
  guardSelectStretch,
  guardSelectStretchFrom,
  guardSplice,
  guardSummaryBudget,
  guardWorthACall,
} from "./kernel-requires.ts";

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

/** L13 in bytes: each message's weight once cleared, for a byte goal: its cleared bytes only where its tokens fall too. */
export function gateByteWeightsAfter(
  tokens: readonly number[],
  afterTokens: readonly number[],
  bytes: readonly number[],
  afterBytes: readonly number[],
): number[] {
  guardByteWeightsAfter(tokens, afterTokens, bytes, afterBytes);
  return byteWeightsAfter(tokens, afterTokens, bytes, afterBytes);
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

/**
 * L15: the views with the pins applied: every pinned assistant message and the call of every
 * pinned tool result held like a call still waiting for its result (so no stretch and no clearing
 * takes them). Pairing holds of the result whenever it holds of `v` (proven), so the vouch carries over.
 */
export function gatePinnedViews<V extends PairingViews>(v: V, pinned: readonly boolean[]): V {
  guardPinnedOngoing(v.roles, v.callOf, v.lastAnswer, v.ongoing, pinned, { Pairing: v.paired === true });
  return { ...v, ongoing: pinnedOngoing(v.roles, v.callOf, v.lastAnswer, v.ongoing, pinned) };
}
