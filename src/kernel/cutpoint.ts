// L7, the keep-recent-tokens cut point. The conversation is seen through plain arrays of
// equal length: roles, token counts, and the tool pairing (callOf[j]: index of the
// message holding the call that tool result j answers; lastAnswer[a]: index of the last
// result answering a call of message a, -1 when it has none). Everything before the cut is
// summarized; everything from the cut on is kept.
// Library function: exported from `safecut/kernel`, proven, fuzzed and benchmarked, but the
// engine does not call findCutPoint (planning uses selectKeepRecent; keeprecent.ts says why).
// Its specifications sum tokens with sumTokens (progress.ts).
// API: findValidCutPoints, findTurnStart, findCutPoint -> CutPoint.

import { sumTokens } from "./progress.ts";
import type { Role } from "./roles.ts";

/** Where a keep-recent cut lands. `found` is false when no cut keeps the budget safely. */
export interface CutPoint {
  found: boolean;
  /** first kept index; equals `start` (nothing cut) when not found */
  firstKept: number;
  /** the user message that starts the turn the cut splits, or -1 */
  turnStart: number;
  isSplitTurn: boolean;
}

/**
 * Indices in [start, end) where the kept part may begin, ascending: never a tool result,
 * and no tool result at or after the cut loses its call. Scans from 0 because a call made
 * before `start` may be answered after it. Lists every such index (a valid cut point).
 */
//@ verify
//@ requires roles.length === callOf.length && callOf.length === lastAnswer.length
//@ requires 0 <= start && start <= end && end <= roles.length
//@ requires roles.length <= 9007199254740991
//@ requires forall(j: nat, j < roles.length && roles[j] === "tool" ==> 0 <= callOf[j] && callOf[j] < j && lastAnswer[callOf[j]] >= j)
//@ requires forall(a: nat, a < roles.length && lastAnswer[a] >= 0 ==> lastAnswer[a] < roles.length && roles[lastAnswer[a]] === "tool" && callOf[lastAnswer[a]] === a)
//@ ensures forall(k: nat, k < \result.length ==> start <= \result[k] && \result[k] < end && roles[\result[k]] !== "tool")
//@ ensures forall(k: nat, k < \result.length ==> forall(j: nat, \result[k] <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= \result[k]))
//@ ensures forall(k1: nat, forall(k2: nat, k1 < k2 && k2 < \result.length ==> \result[k1] < \result[k2]))
//@ ensures forall(p: nat, start <= p && p < end && roles[p] !== "tool" && forall(j: nat, p <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= p) ==> Listed(\result, p))
export function findValidCutPoints(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  start: number,
  end: number,
): number[] {
  const points: number[] = [];
  // the largest lastAnswer of any message before i: a cut at or below it orphans a result
  let openUntil = -1;
  for (let i = 0; i < end; i++) {
    //@ invariant 0 <= i && i <= end
    //@ invariant forall(a: nat, a < i ==> lastAnswer[a] <= openUntil)
    //@ invariant openUntil === -1 || exists(a: nat, a < i && lastAnswer[a] === openUntil)
    //@ invariant forall(k: nat, k < points.length ==> start <= points[k] && points[k] < i && roles[points[k]] !== "tool")
    //@ invariant forall(k: nat, k < points.length ==> forall(a: nat, a < points[k] ==> lastAnswer[a] < points[k]))
    //@ invariant forall(k1: nat, forall(k2: nat, k1 < k2 && k2 < points.length ==> points[k1] < points[k2]))
    //@ invariant forall(p: nat, start <= p && p < i && roles[p] !== "tool" && forall(a: nat, a < p ==> lastAnswer[a] < p) ==> Listed(points, p))
    // Under the pairing precondition `openUntil < i` already excludes tool results (the
    // prover accepts the function without the role test); the role test stays as the
    // law's plain statement and costs nothing.
    //@ assert openUntil >= i ==> exists(a: nat, a < i && lastAnswer[a] >= i)
    if (i >= start && roles[i] !== "tool" && openUntil < i) {
      points.push(i);
    }
    openUntil = Math.max(openUntil, lastAnswer[i]);
  }
  return points;
}

/** The user message that starts the turn holding `index`, searching back to `start`; -1 if none. */
//@ verify
//@ requires 0 <= start && start <= index && index < roles.length
//@ requires roles.length <= 9007199254740991
//@ ensures \result === -1 || (start <= \result && \result <= index && roles[\result] === "user")
//@ ensures \result === -1 ==> forall(k: nat, start <= k && k <= index ==> roles[k] !== "user")
//@ ensures \result !== -1 ==> forall(k: nat, \result < k && k <= index ==> roles[k] !== "user")
export function findTurnStart(roles: readonly Role[], index: number, start: number): number {
  let i = index;
  while (i >= start) {
    //@ invariant start - 1 <= i && i <= index
    //@ invariant forall(k: nat, i < k && k <= index ==> roles[k] !== "user")
    //@ decreases i - start + 1
    if (roles[i] === "user") return i;
    i--;
  }
  return -1;
}

/**
 * The cut that keeps at least `keepRecentTokens` of [start, end): walk back from the end
 * until the budget is met, then take the nearest valid cut point at or before that index
 * (never after it: a later cut would keep less than the budget). When [start, end) holds less
 * than the budget, the earliest valid cut point (keeping all it can); found=false when no valid
 * cut point keeps a budget that [start, end) holds, or there is no valid cut point.
 */
//@ verify
//@ requires roles.length === tokens.length && tokens.length === callOf.length && callOf.length === lastAnswer.length
//@ requires 0 <= start && start <= end && end <= roles.length
//@ requires roles.length <= 9007199254740991
//@ requires forall(j: nat, j < tokens.length ==> tokens[j] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991
//@ requires forall(j: nat, j < roles.length && roles[j] === "tool" ==> 0 <= callOf[j] && callOf[j] < j && lastAnswer[callOf[j]] >= j)
//@ requires forall(a: nat, a < roles.length && lastAnswer[a] >= 0 ==> lastAnswer[a] < roles.length && roles[lastAnswer[a]] === "tool" && callOf[lastAnswer[a]] === a)
//@ ensures \result.found ==> start <= \result.firstKept && \result.firstKept < end && roles[\result.firstKept] !== "tool"
//@ ensures \result.found ==> forall(j: nat, \result.firstKept <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= \result.firstKept)
//@ ensures \result.found && sumTokens(tokens, start, end) >= keepRecentTokens ==> sumTokens(tokens, \result.firstKept, end) >= keepRecentTokens
//@ ensures \result.isSplitTurn ==> \result.found && start <= \result.turnStart && \result.turnStart < \result.firstKept && roles[\result.turnStart] === "user"
//@ ensures !\result.found ==> \result.firstKept === start && !\result.isSplitTurn
//@ ensures \result.found ==> forall(p: nat, \result.firstKept < p && start <= p && p < end && roles[p] !== "tool" && forall(j: nat, p <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= p) ==> sumTokens(tokens, p, end) < keepRecentTokens)
//@ ensures \result.found && sumTokens(tokens, start, end) < keepRecentTokens ==> forall(p: nat, start <= p && p < end && roles[p] !== "tool" && forall(j: nat, p <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= p) ==> \result.firstKept <= p)
//@ ensures !\result.found ==> forall(p: nat, start <= p && p < end && roles[p] !== "tool" && forall(j: nat, p <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= p) ==> sumTokens(tokens, p, end) < keepRecentTokens)
//@ ensures !\result.found ==> sumTokens(tokens, start, end) >= keepRecentTokens || forall(p: nat, !(start <= p && p < end && roles[p] !== "tool" && forall(j: nat, p <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= p)))
//@ ensures \result.found && roles[\result.firstKept] !== "user" && exists(k: nat, start <= k && k < \result.firstKept && roles[k] === "user") ==> \result.isSplitTurn
//@ ensures \result.isSplitTurn ==> forall(k: nat, \result.turnStart < k && k < \result.firstKept ==> roles[k] !== "user")
//@ ensures !\result.isSplitTurn ==> \result.turnStart === -1
export function findCutPoint(
  roles: readonly Role[],
  tokens: readonly number[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  start: number,
  end: number,
  keepRecentTokens: number,
): CutPoint {
  const points = findValidCutPoints(roles, callOf, lastAnswer, start, end);
  //@ use AscendingWithin(points, start, end)
  if (points.length === 0) {
    return { found: false, firstKept: start, turnStart: -1, isSplitTurn: false };
  }
  let acc = 0;
  let i = end;
  while (i > start && acc < keepRecentTokens) {
    //@ invariant start <= i && i <= end
    //@ invariant acc === sumTokens(tokens, i, end)
    //@ invariant forall(p: nat, i < p && p <= end ==> sumTokens(tokens, p, end) < keepRecentTokens)
    //@ decreases i
    i--;
    //@ use SumTokensFront(tokens, i, end)
    //@ use SumTokensSplit(tokens, 0, i, end)
    //@ use SumTokensSplit(tokens, 0, end, tokens.length)
    //@ use SumTokensNonNeg(tokens, 0, i)
    //@ use SumTokensNonNeg(tokens, end, tokens.length)
    //@ use SumTokensNonNeg(tokens, i, end)
    acc += tokens[i];
  }
  let cut = points[0];
  if (acc >= keepRecentTokens) {
    // the nearest valid cut point at or before i keeps at least acc tokens
    let chosen = -1;
    for (let k = 0; k < points.length; k++) {
      //@ invariant 0 <= k && k <= points.length
      //@ invariant chosen === -1 || (start <= chosen && chosen <= i && chosen < end && roles[chosen] !== "tool")
      //@ invariant chosen === -1 || forall(j: nat, chosen <= j && j < roles.length && roles[j] === "tool" ==> callOf[j] >= chosen)
      //@ invariant chosen === -1 ==> forall(q: nat, q < k ==> points[q] > i)
      //@ invariant chosen !== -1 ==> forall(q: nat, q < k && points[q] <= i ==> points[q] <= chosen)
      if (points[k] <= i) chosen = points[k];
    }
    if (chosen === -1) {
      //@ use SumTokensAntitone(tokens, start, i, end)
      return { found: false, firstKept: start, turnStart: -1, isSplitTurn: false };
    }
    //@ use SumTokensAntitone(tokens, start, i, end)
    //@ use SumTokensAntitone(tokens, chosen, i, end)
    cut = chosen;
  }
  if (roles[cut] === "user") {
    return { found: true, firstKept: cut, turnStart: -1, isSplitTurn: false };
  }
  const turnStart = findTurnStart(roles, cut, start);
  return { found: true, firstKept: cut, turnStart, isSplitTurn: turnStart !== -1 };
}
