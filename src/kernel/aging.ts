// API: agingDue(summaryTokens, totalTokens, sharePercent, freed, need, planned): boolean; agedBudget(size, percent): number;
//      agingFreed(tokens, aged, percent, k): number (spec); inPlan(plan, j): boolean;
//      planAging(roles, tokens, facts, window, floorTokens, shunStarts, shunEnds, plan, need, percent): number[]
//      -- which old summaries a run re-summarizes under a tighter budget (L2, L3, L6, L8).
// L2 keeps every user message and L6 puts one summary where its stretch began, so each gap
// between two user messages keeps a summary, and a stretch made only of summaries is not
// eligible (HasWork): without aging those summaries stay at the size they were first written.
// Aging re-summarizes one summary message in place (one message for one message, so no position
// moves and the order around user messages is kept), oldest first, each to a budget strictly
// below its current size (so L8's "strictly shorter" can hold), and only when the tokens of the
// facts its answer must keep fit strictly under that budget (else every answer is rejected). It is due only when the run's
// work stretches cannot free what the run needs and summaries hold at least a share of the context.
import { worthACall } from "./floor.ts";
import { retentionCutoff } from "./retention.ts";
import type { Role } from "./roles.ts";

//@ verify
//@ requires 0 <= summaryTokens && summaryTokens <= totalTokens
//@ requires 0 <= sharePercent && sharePercent <= 100
//@ requires 0 <= planned && planned <= totalTokens && -planned <= freed && freed <= planned
//@ ensures \result <==> (totalTokens <= 30023997515803 && freed < need && (summaryTokens + planned - freed) * 100 >= sharePercent * (totalTokens - freed))
/**
 * Whether a run ages summaries: the work stretches it planned (`planned` tokens, expected to free
 * `freed` of them) fall short of the `need`, and summaries hold at least sharePercent of the
 * context those stretches leave: the summaries there, and the planned stretches' summaries (what
 * they keep), of the total less what they free (counts up to 2^53 / 300: beyond that, never).
 */
export function agingDue(
  summaryTokens: number,
  totalTokens: number,
  sharePercent: number,
  freed: number,
  need: number,
  planned: number,
): boolean {
  if (totalTokens > 30023997515803) return false;
  if (freed >= need) return false;
  //@ use AgingMulMono(totalTokens - freed, sharePercent, 100)
  return (summaryTokens + planned - freed) * 100 >= sharePercent * (totalTokens - freed);
}

//@ verify
//@ requires 0 <= size && size * 100 <= 9007199254740991
//@ requires 0 <= percent && percent < 100
//@ ensures \result === Math.floor((size * percent) / 100)
//@ ensures 0 <= \result && (size >= 1 ==> \result < size)
/** The budget of an aged summary of `size` tokens: percent of it, rounded down, so strictly below it (L8). */
export function agedBudget(size: number, percent: number): number {
  //@ use AgingMulMono(size, percent, 99)
  return Math.floor((size * percent) / 100);
}

//@ spec
//@ requires 0 <= k && k <= aged.length
//@ requires forall(i: nat, i < aged.length ==> 0 <= aged[i] && aged[i] < tokens.length)
//@ decreases k
/** The tokens the first k aged summaries free at least: each its size less its budget (a specification). */
export function agingFreed(tokens: readonly number[], aged: readonly number[], percent: number, k: number): number {
  if (k === 0) return 0;
  return (
    agingFreed(tokens, aged, percent, k - 1) + tokens[aged[k - 1]] - Math.floor((tokens[aged[k - 1]] * percent) / 100)
  );
}

//@ verify
//@ requires plan.length < 9007199254740991
//@ ensures \result <==> exists(k: nat, 2 * k + 1 < plan.length && plan[2 * k] <= j && j < plan[2 * k + 1])
/** Whether message j lies in one of a flat plan's stretches [plan[2k], plan[2k + 1]). */
export function inPlan(plan: readonly number[], j: number): boolean {
  let k = 0;
  while (2 * k + 1 < plan.length) {
    //@ invariant 0 <= k && 2 * k <= plan.length
    //@ invariant forall(i: nat, i < k ==> !(plan[2 * i] <= j && j < plan[2 * i + 1]))
    //@ decreases plan.length - 2 * k
    if (plan[2 * k] <= j && j < plan[2 * k + 1]) return true;
    k = k + 1;
  }
  return false;
}

//@ verify
//@ requires window >= 1 && tokens.length === roles.length && roles.length <= 9007199254740991
//@ requires facts.length === tokens.length
//@ requires forall(k: nat, k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, 0, tokens.length) * 100 <= 9007199254740991
//@ requires shunStarts.length === shunEnds.length && shunStarts.length <= 9007199254740991
//@ requires plan.length < 9007199254740991
//@ requires forall(i: nat, i + 1 < plan.length ==> plan[i] <= plan[i + 1])
//@ requires 0 <= percent && percent < 100
//@ ensures forall(k: nat, k < \result.length ==> 0 <= \result[k] && \result[k] < tokens.length)
//@ ensures forall(k: nat, k < \result.length ==> Agable(roles, tokens, facts, percent, retentionCutoff(roles.length, window), floorTokens, shunStarts, shunEnds, plan, \result[k]))
//@ ensures forall(k: nat, k < \result.length ==> facts[\result[k]] < Math.floor((tokens[\result[k]] * percent) / 100))
//@ ensures forall(k: nat, k + 1 < \result.length ==> \result[k] < \result[k + 1])
//@ ensures forall(k: nat, k < \result.length ==> agingFreed(tokens, \result, percent, k) < need)
//@ ensures forall(i: int, Agable(roles, tokens, facts, percent, retentionCutoff(roles.length, window), floorTokens, shunStarts, shunEnds, plan, i) && \result.length > 0 && i < \result[\result.length - 1] ==> exists(k: nat, k < \result.length && \result[k] === i))
//@ ensures agingFreed(tokens, \result, percent, \result.length) < need ==> forall(i: int, Agable(roles, tokens, facts, percent, retentionCutoff(roles.length, window), floorTokens, shunStarts, shunEnds, plan, i) ==> exists(k: nat, k < \result.length && \result[k] === i))
/**
 * The summaries a run ages, oldest first, to free `need` tokens: summary messages before the
 * retention cutoff (L3), above the floor and not known not to shrink (worthACall on the one
 * message), outside the plan's work stretches, whose facts (`facts`, the tokens of the facts its
 * answer must keep, parallel to `tokens`) fit strictly under its budget (agedBudget): the answer
 * must hold them, so one whose facts fill its budget is never asked for. Each frees its size less
 * its budget.
 * Every such summary before the last one taken is taken, and all of them when they free less
 * than the need. The indices come back increasing (one message each, so disjoint). The work plan's
 * entries never decrease (planBatch's ordered, ascending, disjoint pairs), so one scan walks the
 * messages and the plan together, and the list of aged summaries is never copied: linear in both.
 */
export function planAging(
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
  const cutoff = retentionCutoff(roles.length, window);
  const out: number[] = [];
  let freed = 0;
  let j = 0;
  let p = 0;
  while (j < cutoff && freed < need) {
    //@ invariant 0 <= j && j <= cutoff && cutoff <= roles.length
    //@ invariant 0 <= p && 2 * p <= plan.length
    //@ invariant forall(i: nat, i < p ==> plan[2 * i + 1] <= j)
    //@ invariant forall(k: nat, k < out.length ==> 0 <= out[k] && out[k] < j)
    //@ invariant forall(k: nat, k < out.length ==> Agable(roles, tokens, facts, percent, cutoff, floorTokens, shunStarts, shunEnds, plan, out[k]))
    //@ invariant forall(k: nat, k + 1 < out.length ==> out[k] < out[k + 1])
    //@ invariant freed === agingFreed(tokens, out, percent, out.length)
    //@ invariant 0 <= freed && freed <= sumTokens(tokens, 0, j)
    //@ invariant forall(k: nat, k < out.length ==> agingFreed(tokens, out, percent, k) < need)
    //@ invariant forall(i: int, 0 <= i && i < j && Agable(roles, tokens, facts, percent, cutoff, floorTokens, shunStarts, shunEnds, plan, i) ==> exists(k: nat, k < out.length && out[k] === i))
    //@ decreases cutoff - j
    //@ use SumTokensSplit(tokens, 0, j + 1, tokens.length)
    //@ use SumTokensNonNeg(tokens, j + 1, tokens.length)
    //@ use SumTokensNonNeg(tokens, 0, j)
    //@ assert sumTokens(tokens, 0, j + 1) === sumTokens(tokens, 0, j) + tokens[j]
    //@ assert sumTokens(tokens, j, j + 1) === tokens[j]
    // the work plan's pairs ending at or before j are passed: the plan ascends, so none of them
    // holds j or a later message, and p walks the plan once over the whole scan (linear)
    while (2 * p + 1 < plan.length && plan[2 * p + 1] <= j) {
      //@ invariant 0 <= p && 2 * p <= plan.length
      //@ invariant forall(i: nat, i < p ==> plan[2 * i + 1] <= j)
      //@ decreases plan.length - 2 * p
      p = p + 1;
    }
    //@ use OutsidePlan(plan, p, j)
    const inside = 2 * p + 1 < plan.length && plan[2 * p] <= j;
    if (roles[j] === "summary" && !inside) {
      const worth = worthACall(tokens, j, j + 1, floorTokens, shunStarts, shunEnds);
      const budget = agedBudget(tokens[j], percent);
      // its answer must keep its facts: when they take the whole budget, every answer is rejected
      if (worth && facts[j] < budget) {
        // what the plan frees after the push, stated of the plan before it (no copy is made)
        //@ use AgingAppendFrees(tokens, out, j, percent, need)
        out.push(j);
        freed = freed + (tokens[j] - budget);
      }
    }
    j = j + 1;
  }
  return out;
}
