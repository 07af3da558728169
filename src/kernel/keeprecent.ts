// API: selectKeepRecent(roles, tokens, callOf, lastAnswer, ongoing, window, from, keepRecentTokens): Stretch;
//      keptPrefixEnd(.., start, end, keepRecentTokens): number; suffixTokens(tokens, from): number;
//      keepRecentCutoff(tokens, window, keepRecentTokens): number
// -- L7 (keep-recent form) on top of L4/L5: the stretch to summarize when the newest
// keepRecentTokens tokens must stay. KeepsRecent(s, e) (proofs/dafny/keeprecent.dfy) is
// Eligible(s, e) and sumTokens(tokens, e, n) >= keepRecentTokens.
//
// Why not findCutPoint: its valid cut points serve the "summarize everything before the cut"
// form, so it refuses a cut under a call made before the stretch and answered after it. Inside a
// stretch such a cut is harmless (the call and its answer are both kept), and refusing it would
// make found=false although an eligible, budget-keeping stretch exists. Scanning the stretch's
// prefixes directly gives the exact answer: found=false iff no such stretch exists.

import { sumTokens } from "./progress.ts";
import { retentionCutoff } from "./retention.ts";
import type { Role } from "./roles.ts";
import { type Stretch, selectStretchFrom } from "./stretch.ts";

//@ verify
//@ requires 0 <= from && from <= tokens.length && tokens.length <= 9007199254740991
//@ requires forall(k: nat, from <= k && k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, from, tokens.length) <= 9007199254740991
//@ ensures \result === sumTokens(tokens, from, tokens.length)
/** Sum of tokens[from..n), by a loop (sumTokens is //@ spec: it recurses once per element). */
export function suffixTokens(tokens: readonly number[], from: number): number {
  let acc = 0;
  let i = tokens.length;
  while (i > from) {
    //@ invariant from <= i && i <= tokens.length
    //@ invariant acc === sumTokens(tokens, i, tokens.length)
    i = i - 1;
    //@ use SumTokensFront(tokens, i, tokens.length)
    //@ use SumTokensSplit(tokens, from, i, tokens.length)
    //@ use SumTokensNonNeg(tokens, from, i)
    //@ use SumTokensNonNeg(tokens, i, tokens.length)
    acc = acc + tokens[i];
  }
  return acc;
}

//@ verify
//@ requires callOf.length === roles.length && lastAnswer.length === roles.length && ongoing.length === roles.length && tokens.length === roles.length
//@ requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, start, end)
//@ requires forall(e2: int, end < e2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, start, e2))
//@ requires after === sumTokens(tokens, start, tokens.length)
//@ requires end <= roles.length && roles.length <= 9007199254740991 && after <= 9007199254740991
//@ requires forall(j: int, 0 <= j && j < tokens.length ==> tokens[j] >= 0)
//@ ensures start <= \result && \result <= end
//@ ensures \result > start ==> KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keepRecentTokens, start, \result)
//@ ensures forall(e2: int, \result < e2 ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keepRecentTokens, start, e2))
/** The largest e in (start, end] such that [start, e) keeps the budget, or start if none does; [start, end) is a maximal eligible stretch, `after` the tokens from start on. */
export function keptPrefixEnd(
  roles: readonly Role[],
  tokens: readonly number[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  cutoff: number,
  start: number,
  end: number,
  keepRecentTokens: number,
  after: number,
): number {
  // Every message of [start, end) is movable from start, so a prefix [start, k) is eligible iff
  // it keeps every answer (need < k) and holds work; `rest` is what stays after it.
  let rest = after;
  let k = start;
  let need = -1;
  let work = false;
  let best = start;
  while (k < end) {
    //@ invariant start <= k && k <= end
    //@ invariant rest === sumTokens(tokens, k, tokens.length) && rest <= after
    //@ invariant forall(j: int, start <= j && j < k ==> lastAnswer[j] <= need)
    //@ invariant need === -1 || exists(j: int, start <= j && j < k && lastAnswer[j] === need)
    //@ invariant work <==> HasWork(roles, start, k)
    //@ invariant start <= best && best <= k
    //@ invariant best > start ==> KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keepRecentTokens, start, best)
    //@ invariant forall(e2: int, best < e2 && e2 <= k ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keepRecentTokens, start, e2))
    if (lastAnswer[k] > need) need = lastAnswer[k];
    if (roles[k] !== "summary") work = true;
    //@ use SumTokensFront(tokens, k, tokens.length)
    //@ use SumTokensNonNeg(tokens, k + 1, tokens.length)
    rest = rest - tokens[k];
    k = k + 1;
    if (need < k && work && rest >= keepRecentTokens) best = k;
  }
  return best;
}

//@ verify
//@ requires window >= 1
//@ requires 0 <= from
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ requires tokens.length === roles.length && roles.length <= 9007199254740991
//@ requires forall(j: int, 0 <= j && j < tokens.length ==> tokens[j] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991
//@ ensures \result.found ==> KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, retentionCutoff(roles.length, window), keepRecentTokens, \result.start, \result.end)
//@ ensures \result.found ==> from <= \result.start
//@ ensures \result.found ==> forall(e2: int, \result.end < e2 ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, retentionCutoff(roles.length, window), keepRecentTokens, \result.start, e2))
//@ ensures \result.found ==> forall(s2: int, forall(e2: int, from <= s2 && s2 < \result.start ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, retentionCutoff(roles.length, window), keepRecentTokens, s2, e2)))
//@ ensures !\result.found ==> forall(s2: int, forall(e2: int, from <= s2 ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, retentionCutoff(roles.length, window), keepRecentTokens, s2, e2)))
//@ ensures \result.found ==> 0 <= \result.start && \result.start < \result.end && \result.end <= retentionCutoff(roles.length, window)
//@ ensures \result.found ==> sumTokens(tokens, \result.end, roles.length) >= keepRecentTokens
//@ ensures \result.found ==> forall(k: int, \result.start <= k && k < \result.end ==> isCompressible(roles[k]) && !ongoing[k])
//@ ensures \result.found ==> forall(k: int, \result.start <= k && k < \result.end && roles[k] === "tool" ==> \result.start <= callOf[k])
//@ ensures \result.found ==> forall(k: int, 0 <= k && k < roles.length && \result.start <= callOf[k] && callOf[k] < \result.end ==> k < \result.end)
/** The earliest stretch at or after `from` that is eligible and leaves at least keepRecentTokens after it, longest at that start; found=false if none (L4, L5, L7). */
export function selectKeepRecent(
  roles: readonly Role[],
  tokens: readonly number[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  from: number,
  keepRecentTokens: number,
): Stretch {
  const cutoff = retentionCutoff(roles.length, window);
  let next = from;
  while (next < cutoff) {
    //@ invariant from <= next
    //@ invariant forall(s2: int, forall(e2: int, from <= s2 && s2 < next ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keepRecentTokens, s2, e2)))
    // The earliest eligible start is the only candidate before the next one: a budget-keeping
    // stretch is eligible. Shorten it as little as the budget allows; if no prefix keeps the
    // budget, nothing starting there does, and the search moves one start on.
    const sel = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, next);
    if (!sel.found) return { found: false, start: 0, end: 0 };
    //@ use SumTokensSplit(tokens, 0, sel.start, tokens.length)
    //@ use SumTokensNonNeg(tokens, 0, sel.start)
    const after = suffixTokens(tokens, sel.start);
    if (after < keepRecentTokens) {
      // Every later stretch keeps even less (token counts are >= 0): stop here, so that a
      // budget larger than the history costs one pass, not one per start.
      //@ use NoBudgetFrom(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keepRecentTokens, sel.start)
      return { found: false, start: 0, end: 0 };
    }
    const end = keptPrefixEnd(
      roles,
      tokens,
      callOf,
      lastAnswer,
      ongoing,
      cutoff,
      sel.start,
      sel.end,
      keepRecentTokens,
      after,
    );
    if (end > sel.start) {
      //@ use CoherentIsLawful(roles, callOf, lastAnswer, ongoing, cutoff, sel.start, end)
      return { found: true, start: sel.start, end: end };
    }
    next = sel.start + 1;
  }
  return { found: false, start: 0, end: 0 };
}

//@ verify
//@ requires window >= 1 && tokens.length <= 9007199254740991
//@ requires forall(j: int, 0 <= j && j < tokens.length ==> tokens[j] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991
//@ ensures 0 <= \result && \result <= retentionCutoff(tokens.length, window)
//@ ensures \result > 0 ==> sumTokens(tokens, \result, tokens.length) >= keepRecentTokens
//@ ensures forall(c: int, \result < c && c <= retentionCutoff(tokens.length, window) ==> sumTokens(tokens, c, tokens.length) < keepRecentTokens)
/**
 * The cutoff of the keep-recent form as one index, for the planners that take a cutoff (a batch,
 * aging): the latest index at or before the retention cutoff (L3) whose suffix holds
 * keepRecentTokens, or 0 when none does. A stretch ending at or before it keeps the budget after
 * it (L7: sumTokens is antitone in its start), and every index after it, up to the retention
 * cutoff, holds less than the budget: no stretch that keeps the budget is cut off.
 */
export function keepRecentCutoff(tokens: readonly number[], window: number, keepRecentTokens: number): number {
  const cut = retentionCutoff(tokens.length, window);
  //@ use SumTokensSplit(tokens, 0, cut, tokens.length)
  //@ use SumTokensNonNeg(tokens, 0, cut)
  let acc = suffixTokens(tokens, cut);
  let c = cut;
  while (c > 0 && acc < keepRecentTokens) {
    //@ invariant 0 <= c && c <= cut
    //@ invariant acc === sumTokens(tokens, c, tokens.length)
    //@ invariant forall(c2: int, c < c2 && c2 <= cut ==> sumTokens(tokens, c2, tokens.length) < keepRecentTokens)
    //@ decreases c
    c = c - 1;
    //@ use SumTokensFront(tokens, c, tokens.length)
    //@ use SumTokensSplit(tokens, 0, c, tokens.length)
    //@ use SumTokensNonNeg(tokens, 0, c)
    //@ use SumTokensNonNeg(tokens, c, tokens.length)
    acc = acc + tokens[c];
  }
  if (acc >= keepRecentTokens) return c;
  return 0;
}
