// API: onlyAppendsSince(rewrites: boolean[], since: number): boolean; decideLogCommit(plan: PlanStamp, tail: boolean[], nowLength: number): CommitDecision -- L9 over an append-only log.
import { type CommitDecision, type CurrentStamp, decideCommit, type PlanStamp } from "./commit.ts";

//@ verify
//@ requires 0 <= since && since <= rewrites.length && rewrites.length <= 9007199254740991
//@ ensures \result <==> forall(k: nat, since <= k && k < rewrites.length ==> !rewrites[k])
/** True iff no entry from `since` on rewrites the conversation (`rewrites[k]`: entry k is a compaction, not an append). */
export function onlyAppendsSince(rewrites: boolean[], since: number): boolean {
  let k = since;
  while (k < rewrites.length) {
    //@ invariant since <= k && k <= rewrites.length
    //@ invariant forall(j: nat, since <= j && j < k ==> !rewrites[j])
    //@ decreases rewrites.length - k
    if (rewrites[k]) return false;
    k = k + 1;
  }
  return true;
}

//@ verify
//@ requires plan.length >= 0 && nowLength >= 0 && plan.stretchEnd >= 0
//@ requires 0 <= plan.version && plan.version + tail.length <= 9007199254740991
//@ ensures \result !== "reject" ==> forall(k: nat, k < tail.length ==> !tail[k])
//@ ensures \result === "commit" ==> (tail.length === 0 && nowLength === plan.length && plan.stretchEnd <= plan.length)
//@ ensures \result === "rebase" ==> (tail.length > 0 && plan.length <= nowLength && plan.stretchEnd <= plan.length)
//@ ensures (tail.length === 0 && nowLength === plan.length && plan.stretchEnd <= plan.length) ==> \result === "commit"
//@ ensures (tail.length > 0 && forall(k: nat, k < tail.length ==> !tail[k]) && plan.length <= nowLength && plan.stretchEnd <= plan.length) ==> \result === "rebase"
/**
 * L9 for a log whose version is its number of entries: a plan made when the log held
 * `plan.version` entries, judged when `tail` more were written after them (`tail[k]`: the k-th
 * of those is a compaction) and the context holds `nowLength` messages. Pure appends since the
 * plan means no compaction among the entries written after it; the verdict is decideCommit's.
 */
export function decideLogCommit(plan: PlanStamp, tail: boolean[], nowLength: number): CommitDecision {
  const appendsOnly = onlyAppendsSince(tail, 0);
  const now: CurrentStamp = { version: plan.version + tail.length, length: nowLength, onlyAppends: appendsOnly };
  return decideCommit(plan, now);
}
