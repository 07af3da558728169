// API: batchFreed(tokens, plan, allowance, keepPercent, k): number (spec); planBatch(roles, callOf, lastAnswer, ongoing, window, tokens, floorTokens, shunStarts, shunEnds, need,
//      allowance, keepPercent): number[] -- the stretches one run summarizes (L4, L5, with the floor);
//      planFreed(tokens, plan, allowance, keepPercent): number -- what such a plan is expected to free.
// One run plans the disjoint stretches it needs to free `need` tokens, earliest first: each is the
// earliest eligible stretch (selectStretchFrom) at or after the end of the one before that is worth
// a summarizer call (worthACall); a stretch that is not worth one is passed over whole, as the
// engine's planStep does, so the scan is linear (and the plan is never copied). Each planned
// stretch is counted as freeing its tokens less what its summary is expected to keep: `allowance`
// plus `keepPercent` percent of the stretch (rounded down), an estimate used only to plan (a
// summary is never held to it); the plan stops once those reach `need`. The stretches come back flat: stretch k is [result[2k], result[2k + 1]).
// Committed in order, each stays eligible (lemma EligibleAfterEarlierSplice,
// proofs/dafny/batch.dfy): a splice before a stretch only moves it.
import { worthACall } from "./floor.ts";
import { rangeTokens, sumTokens } from "./progress.ts";
import type { Role } from "./roles.ts";
import { selectStretchFrom } from "./stretch.ts";

//@ spec
//@ requires 0 <= k && 2 * k <= plan.length
//@ requires forall(j: nat, 2 * j + 1 < plan.length ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= tokens.length)
//@ decreases k
/**
 * The tokens the first k stretches of a flat plan are expected to free: each its tokens less the
 * allowance and less keepPercent percent of them, rounded down (what its summary is expected to keep; a specification).
 */
export function batchFreed(
  tokens: readonly number[],
  plan: readonly number[],
  allowance: number,
  keepPercent: number,
  k: number,
): number {
  if (k === 0) return 0;
  return (
    batchFreed(tokens, plan, allowance, keepPercent, k - 1) +
    sumTokens(tokens, plan[2 * k - 2], plan[2 * k - 1]) -
    allowance -
    Math.floor((sumTokens(tokens, plan[2 * k - 2], plan[2 * k - 1]) * keepPercent) / 100)
  );
}

//@ verify
//@ requires window >= 1
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ requires tokens.length === roles.length
//@ requires forall(k: nat, k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, 0, tokens.length) * 100 <= 9007199254740991
//@ requires shunStarts.length === shunEnds.length && shunStarts.length <= 9007199254740991
//@ requires 0 <= allowance && allowance * roles.length <= 9007199254740991
//@ requires 0 <= keepPercent && keepPercent <= 100
//@ ensures \result.length === 2 * Math.floor(\result.length / 2)
//@ ensures forall(k: nat, 2 * k + 1 < \result.length ==> Plannable(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, \result[2 * k], \result[2 * k + 1]))
//@ ensures forall(k: nat, 2 * k + 1 < \result.length ==> 0 <= \result[2 * k] && \result[2 * k] <= \result[2 * k + 1] && \result[2 * k + 1] <= tokens.length)
//@ ensures forall(k: nat, 2 * k + 3 < \result.length ==> \result[2 * k + 1] <= \result[2 * k + 2])
//@ ensures forall(k: nat, 2 * k + 1 < \result.length ==> batchFreed(tokens, \result, allowance, keepPercent, k) < need)
//@ ensures batchFreed(tokens, \result, allowance, keepPercent, Math.floor(\result.length / 2)) >= need || NoneWorthFrom(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, \result.length === 0 ? 0 : \result[\result.length - 1])
/**
 * The disjoint stretches, earliest first, that one run summarizes to free `need` tokens (flat
 * [start, end) pairs). It stops short of the need only when nothing worth a call is left after
 * its last stretch (NoneWorthFrom, proofs/dafny/batch.dfy): it never plans less than it could.
 */
export function planBatch(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  tokens: readonly number[],
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
  need: number,
  allowance: number,
  keepPercent: number,
): number[] {
  const out: number[] = [];
  let from = 0;
  let freed = 0;
  while (freed < need && from < roles.length) {
    //@ invariant 0 <= from && from <= roles.length
    //@ invariant out.length === 2 * Math.floor(out.length / 2)
    //@ invariant forall(k: nat, 2 * k + 1 < out.length ==> Plannable(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, out[2 * k], out[2 * k + 1]))
    //@ invariant forall(k: nat, 2 * k + 1 < out.length ==> 0 <= out[2 * k] && out[2 * k] <= out[2 * k + 1] && out[2 * k + 1] <= tokens.length)
    //@ invariant forall(k: nat, 2 * k + 3 < out.length ==> out[2 * k + 1] <= out[2 * k + 2])
    //@ invariant out.length === 0 || out[out.length - 1] <= from
    //@ invariant freed === batchFreed(tokens, out, allowance, keepPercent, Math.floor(out.length / 2))
    //@ invariant -(allowance * from) <= freed && freed <= sumTokens(tokens, 0, from)
    //@ invariant allowance * from <= allowance * roles.length
    //@ invariant forall(k: nat, 2 * k + 1 < out.length ==> batchFreed(tokens, out, allowance, keepPercent, k) < need)
    //@ invariant NoneWorthFrom(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, from) ==> NoneWorthFrom(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, out.length === 0 ? 0 : out[out.length - 1])
    //@ decreases roles.length - from
    const st = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, from);
    //@ use NoneWorthAtEnd(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, from)
    if (!st.found) break;
    //@ use SumTokensSplit(tokens, 0, st.start, tokens.length)
    //@ use SumTokensSplit(tokens, st.start, st.end, tokens.length)
    //@ use SumTokensNonNeg(tokens, 0, st.start)
    //@ use SumTokensNonNeg(tokens, st.end, tokens.length)
    //@ assert from <= st.start && st.start < st.end && st.end <= roles.length
    //@ use SumTokensNonNeg(tokens, st.start, st.end)
    //@ use SumTokensSplit(tokens, 0, from, st.start)
    //@ use SumTokensSplit(tokens, 0, st.start, st.end)
    //@ use SumTokensSplit(tokens, 0, st.start, st.start + 1)
    //@ use SumTokensNonNeg(tokens, from, st.start)
    //@ use SumTokensNonNeg(tokens, st.start, st.start + 1)
    //@ use MulMono(allowance, from + 1, st.end)
    //@ use MulMono(allowance, st.end, roles.length)
    //@ use MulMono(allowance, st.start + 1, roles.length)
    //@ use MulMono(allowance, from, st.start + 1)
    //@ use MulMono(allowance, 1, roles.length)
    //@ assert allowance * (from + 1) === allowance * from + allowance
    const worth = worthACall(tokens, st.start, st.end, floorTokens, shunStarts, shunEnds);
    if (worth) {
      const size = rangeTokens(tokens, st.start, st.end);
      //@ use KeepShareBounds(size, keepPercent, sumTokens(tokens, 0, tokens.length))
      //@ assert Plannable(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, st.start, st.end)
      // what the plan frees after the two pushes, stated of the plan before them (no copy is made)
      //@ use AppendPairFrees(tokens, out, Math.floor(out.length / 2), st.start, st.end, allowance, keepPercent, need)
      out.push(st.start);
      out.push(st.end);
      freed = freed + (size - allowance - Math.floor((size * keepPercent) / 100));
      from = st.end;
    } else {
      // passed over whole, as the engine's planStep does: a part of a stretch under the floor is
      // under it too, and one known not to shrink would cost a call to learn the same
      //@ use NoneWorthPast(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, from, st.start, st.end)
      from = st.end;
    }
  }
  //@ use NoneWorthAtEnd(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), tokens, floorTokens, shunStarts, shunEnds, from)
  return out;
}

//@ verify
//@ requires forall(k: nat, k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, 0, tokens.length) * 100 <= 9007199254740991
//@ requires tokens.length <= 9007199254740991 && plan.length < 9007199254740991
//@ requires forall(i: nat, i < plan.length ==> 0 <= plan[i] && plan[i] <= tokens.length)
//@ requires forall(i: nat, i + 1 < plan.length ==> plan[i] <= plan[i + 1])
//@ requires 0 <= allowance && allowance * plan.length <= 9007199254740991
//@ requires 0 <= keepPercent && keepPercent <= 100
//@ ensures PairsWithin(tokens, plan) && \result === batchFreed(tokens, plan, allowance, keepPercent, Math.floor(plan.length / 2))
/**
 * What a flat plan of ascending [start, end) pairs (planBatch's) is expected to free: batchFreed
 * over all its pairs, each stretch's tokens less the allowance and keepPercent percent of them.
 */
export function planFreed(
  tokens: readonly number[],
  plan: readonly number[],
  allowance: number,
  keepPercent: number,
): number {
  //@ use PairsWithinOf(tokens, plan)
  let freed = 0;
  let k = 0;
  let end = 0;
  while (2 * k + 1 < plan.length) {
    //@ invariant 0 <= k && 2 * k <= plan.length
    //@ invariant 0 <= end && end <= tokens.length && (k > 0 ==> end === plan[2 * k - 1]) && (k === 0 ==> end === 0)
    //@ invariant freed === batchFreed(tokens, plan, allowance, keepPercent, k)
    //@ invariant -(allowance * k) <= freed && freed <= sumTokens(tokens, 0, end)
    //@ decreases plan.length - 2 * k
    //@ use PlanFreedStep(tokens, plan, allowance, keepPercent, k, end, freed)
    const size = rangeTokens(tokens, plan[2 * k], plan[2 * k + 1]);
    freed = freed + (size - allowance - Math.floor((size * keepPercent) / 100));
    end = plan[2 * k + 1];
    k = k + 1;
  }
  return freed;
}
