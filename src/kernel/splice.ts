// API: splice<T>(xs, start, end, summary): T[]; spliceRoles(roles, start, end, window): Role[] -- L6.

import { isCompressible } from "./compressible.ts";
import { retentionCutoff } from "./retention.ts";
import type { Role } from "./roles.ts";

//@ verify
//@ requires 0 <= start && start < end && end <= xs.length && xs.length <= 9007199254740991
//@ ensures \result.length === xs.length - (end - start) + 1
//@ ensures equal(\result[start], summary)
//@ ensures forall(k: nat, k < start ==> equal(\result[k], xs[k]))
//@ ensures forall(k: nat, end <= k && k < xs.length ==> equal(\result[k - (end - start) + 1], xs[k]))
/** xs[..start] ++ [summary] ++ xs[end..]: the only way a compaction changes a conversation (L6). */
export function splice<T>(xs: readonly T[], start: number, end: number, summary: T): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < start) {
    //@ invariant 0 <= i && i <= start
    //@ invariant out.length === i
    //@ invariant forall(k: nat, k < i ==> equal(out[k], xs[k]))
    out.push(xs[i]);
    i = i + 1;
  }
  out.push(summary);
  let j = end;
  while (j < xs.length) {
    //@ invariant end <= j && j <= xs.length
    //@ invariant out.length === start + 1 + (j - end)
    //@ invariant equal(out[start], summary)
    //@ invariant forall(k: nat, k < start ==> equal(out[k], xs[k]))
    //@ invariant forall(k: nat, end <= k && k < j ==> equal(out[k - (end - start) + 1], xs[k]))
    out.push(xs[j]);
    j = j + 1;
  }
  return out;
}

//@ verify
//@ requires 0 <= start && start < end && window >= 1 && roles.length <= 9007199254740991
//@ requires end <= retentionCutoff(roles.length, window)
//@ requires forall(k: nat, start <= k && k < end ==> isCompressible(roles[k]))
//@ ensures \result.length === roles.length - (end - start) + 1
//@ ensures \result[start] === "summary"
//@ ensures forall(k: nat, k < roles.length && !isCompressible(roles[k]) && k < start ==> \result[k] === roles[k])
//@ ensures forall(k: nat, k < roles.length && !isCompressible(roles[k]) && end <= k ==> \result[k - (end - start) + 1] === roles[k])
//@ ensures forall(k: nat, end <= k && k < roles.length ==> \result[k - (end - start) + 1] === roles[k])
//@ ensures forall(k: nat, k < window && k < roles.length ==> \result[\result.length - 1 - k] === roles[roles.length - 1 - k])
//@ ensures forall(k: nat, k < start && roles[k] === "compaction" ==> \result[k] === "compaction")
//@ ensures forall(k: nat, end <= k && k < roles.length && roles[k] === "compaction" ==> \result[k - (end - start) + 1] === "compaction")
/**
 * The role-level view of a splice: user/system messages and server-side compaction items keep
 * their order (each compaction item stays where it stands, before or after the summary) and the
 * retained tail is identical (L2, L3, L6).
 */
export function spliceRoles(roles: readonly Role[], start: number, end: number, window: number): Role[] {
  // Every user/system message lies outside [start, end) (the stretch is all compressible), so it
  // is either in the unchanged prefix or in the suffix shifted left by a fixed amount: its order is kept.
  const out = splice(roles, start, end, "summary");
  return out;
}
