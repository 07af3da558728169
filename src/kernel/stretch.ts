// API: selectStretch(roles, callOf, lastAnswer, ongoing, window): Stretch; selectStretchFrom(.., window, from): Stretch; movable(roles, callOf, ongoing, s, j): boolean;
//      selectAfterSplice(old views, window, prev, new views): Stretch (proof model of L4 forward progress);
//      pairingOk(roles, callOf, lastAnswer, ongoing): boolean (== Pairing, the requires of selectStretch); pairingAt(.., j)
//      -- L4 (earliest), L5 (tool-call coherence), with L2 and L3 as side conditions.

import { isCompressible } from "./compressible.ts";
import { retentionCutoff } from "./retention.ts";
import type { Role } from "./roles.ts";

/** The stretch [start, end) to summarize (end exclusive); start = end = 0 when none was found. */
export interface Stretch {
  found: boolean;
  start: number;
  end: number;
}

//@ verify
//@ requires callOf.length === roles.length && ongoing.length === roles.length
//@ requires 0 <= j && j < roles.length
/** Message j may lie in a stretch starting at s: compressible, not an ongoing call, and (if a tool result) its call is not before s. */
export function movable(
  roles: readonly Role[],
  callOf: readonly number[],
  ongoing: readonly boolean[],
  s: number,
  j: number,
): boolean {
  return isCompressible(roles[j]) && !ongoing[j] && (callOf[j] < 0 || s <= callOf[j]);
}

//@ verify
//@ requires callOf.length === roles.length && lastAnswer.length === roles.length && ongoing.length === roles.length
//@ requires 0 <= j && j < roles.length
/** Message j satisfies the pairing view's well-formedness (the clauses of Pairing at index j). */
export function pairingAt(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  j: number,
): boolean {
  const c = callOf[j];
  const a = lastAnswer[j];
  if ((roles[j] === "tool") !== c >= 0) return false;
  if (c >= 0 && !(c < j && roles[c] === "assistant" && lastAnswer[c] >= j)) return false;
  if (a >= 0 && !(roles[j] === "assistant" && j < a && a < roles.length && callOf[a] === j)) return false;
  if (ongoing[j] && roles[j] !== "assistant") return false;
  return true;
}

//@ verify
//@ requires roles.length <= 9007199254740991
//@ ensures \result <==> Pairing(roles, callOf, lastAnswer, ongoing)
/** Runtime check of selectStretch's precondition Pairing, proven equal to it: the engine's guard at the kernel boundary. */
export function pairingOk(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
): boolean {
  const n = roles.length;
  if (callOf.length !== n || lastAnswer.length !== n || ongoing.length !== n) return false;
  let j = 0;
  while (j < n) {
    //@ invariant 0 <= j && j <= n
    //@ invariant forall(k: int, 0 <= k && k < j ==> pairingAt(roles, callOf, lastAnswer, ongoing, k))
    if (!pairingAt(roles, callOf, lastAnswer, ongoing, j)) return false;
    j = j + 1;
  }
  //@ use PairingFromEveryIndex(roles, callOf, lastAnswer, ongoing)
  return true;
}

// The predicates Pairing, Coherent, HasWork, Eligible and the lemma CoherentIsLawful live in
// proofs/dafny/stretch.dfy. Eligible(s, e) = Coherent(s, e) && HasWork(s, e), where Coherent says:
// 0 <= s < e <= cutoff, every message in [s, e) is movable from s, and every call in [s, e) has its
// last answer before e; HasWork says some message in [s, e) is not an earlier summary (a stretch
// made only of summaries is not worth re-summarizing, while one long assistant reply is).

//@ verify
//@ requires window >= 1
//@ requires 0 <= from
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ ensures \result.found ==> Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), \result.start, \result.end)
//@ ensures \result.found ==> from <= \result.start
//@ ensures \result.found ==> forall(e2: int, \result.end < e2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), \result.start, e2))
//@ ensures \result.found ==> forall(s2: int, forall(e2: int, from <= s2 && s2 < \result.start ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ ensures !\result.found ==> forall(s2: int, forall(e2: int, from <= s2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ ensures !\result.found ==> \result.start === 0 && \result.end === 0
/** The earliest maximal eligible stretch starting at or after `from`, or found=false if there is none (L4 from a position, L5). */
export function selectStretchFrom(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  from: number,
): Stretch {
  const cutoff = retentionCutoff(roles.length, window);
  let s = from;
  while (s < cutoff) {
    //@ invariant from <= s
    //@ invariant forall(s2: int, forall(e2: int, from <= s2 && s2 < s ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2)))
    // Scan forward from s while messages may join a stretch starting at s; `need` is the largest
    // last-answer index of the calls seen so far, so [s, k) keeps every answer iff need < k.
    let k = s;
    let need = -1;
    let work = false;
    let best = s;
    while (k < cutoff) {
      //@ invariant s <= k && k <= cutoff
      //@ invariant forall(j: int, s <= j && j < k ==> movable(roles, callOf, ongoing, s, j))
      //@ invariant forall(j: int, s <= j && j < k ==> lastAnswer[j] <= need)
      //@ invariant need === -1 || exists(j: int, s <= j && j < k && lastAnswer[j] === need)
      //@ invariant work <==> HasWork(roles, s, k)
      //@ invariant s <= best && best <= k
      //@ invariant best > s ==> Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, best)
      //@ invariant forall(e2: int, best < e2 && e2 <= k ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2))
      if (!movable(roles, callOf, ongoing, s, k)) break;
      if (lastAnswer[k] > need) need = lastAnswer[k];
      if (roles[k] !== "summary") work = true;
      k = k + 1;
      if (need < k && work) best = k;
    }
    if (best > s) {
      return { found: true, start: s, end: best };
    }
    // Nothing eligible starts at s: ends up to k were refuted in the scan; longer ones contain the
    // non-movable message k or pass the cutoff.
    //@ assert forall(e2: int, !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2))
    // Later starts p < k fail too when [s, p) keeps its answers (an eligible [p, e) would extend
    // to an eligible [s, e)) or p's answer lies at or past k (every stretch from p ends by k):
    // skip them (lemma SkipAfterFailure), so a run of summaries or of calls answered after a
    // user message is scanned once, not once per start.
    const failed = s;
    //@ assert forall(j: int, failed <= j && j < k ==> movable(roles, callOf, ongoing, failed, j))
    //@ assert k < cutoff ==> !movable(roles, callOf, ongoing, failed, k)
    //@ assert forall(e2: int, failed < e2 && e2 <= k ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, failed, e2))
    let bound = lastAnswer[s];
    while (s + 1 < k && (bound < s + 1 || lastAnswer[s + 1] >= k)) {
      //@ invariant failed <= s && (s === failed || s < k)
      //@ invariant forall(j: int, failed <= j && j <= s ==> lastAnswer[j] <= bound)
      //@ invariant forall(s2: int, forall(e2: int, failed <= s2 && s2 <= s ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2)))
      //@ use SkipAfterFailure(roles, callOf, lastAnswer, ongoing, cutoff, failed, k, s + 1, bound)
      if (lastAnswer[s + 1] > bound) bound = lastAnswer[s + 1];
      s = s + 1;
    }
    s = s + 1;
  }
  return { found: false, start: 0, end: 0 };
}

//@ verify
//@ requires window >= 1
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ ensures \result.found ==> Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), \result.start, \result.end)
//@ ensures \result.found ==> forall(e2: int, \result.end < e2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), \result.start, e2))
//@ ensures \result.found ==> forall(s2: int, forall(e2: int, s2 < \result.start ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ ensures !\result.found ==> forall(s2: int, forall(e2: int, !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ ensures \result.found ==> 0 <= \result.start && \result.start < \result.end && \result.end <= retentionCutoff(roles.length, window)
//@ ensures \result.found ==> forall(k: int, \result.start <= k && k < \result.end ==> isCompressible(roles[k]) && !ongoing[k])
//@ ensures \result.found ==> forall(k: int, \result.start <= k && k < \result.end && roles[k] === "tool" ==> \result.start <= callOf[k])
//@ ensures \result.found ==> forall(k: int, 0 <= k && k < roles.length && \result.start <= callOf[k] && callOf[k] < \result.end ==> k < \result.end)
//@ ensures \result.found ==> forall(k: int, \result.start <= k && k < \result.end ==> roles[k] !== "compaction")
/**
 * The earliest maximal eligible stretch before the retention window, or found=false if there is none (L4, L5).
 * A server-side compaction item is never inside it: like a user message, it bounds the stretches around it.
 */
export function selectStretch(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
): Stretch {
  // Selection from the very beginning; no stretch starts before 0 (Coherent needs 0 <= s).
  const st = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, 0);
  if (st.found) {
    //@ use CoherentIsLawful(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), st.start, st.end)
  }
  return st;
}

//@ verify
//@ requires window >= 1
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ requires prev.found
//@ requires Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), prev.start, prev.end)
//@ requires forall(s2: int, forall(e2: int, s2 < prev.start ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ requires callOf2.length === roles2.length && lastAnswer2.length === roles2.length && ongoing2.length === roles2.length
//@ requires roles2.length <= 9007199254740991
//@ requires SplicedViewSealed(roles, callOf, lastAnswer, ongoing, prev.start, prev.end, roles2, callOf2, lastAnswer2, ongoing2)
//@ ensures \result.found ==> \result.start >= prev.start
//@ ensures \result.found ==> Eligible(roles2, callOf2, lastAnswer2, ongoing2, retentionCutoff(roles2.length, window), \result.start, \result.end)
//@ ensures \result.found ==> forall(e2: int, \result.end < e2 ==> !Eligible(roles2, callOf2, lastAnswer2, ongoing2, retentionCutoff(roles2.length, window), \result.start, e2))
//@ ensures \result.found ==> forall(s2: int, forall(e2: int, s2 < \result.start ==> !Eligible(roles2, callOf2, lastAnswer2, ongoing2, retentionCutoff(roles2.length, window), s2, e2)))
//@ ensures !\result.found ==> forall(s2: int, forall(e2: int, !Eligible(roles2, callOf2, lastAnswer2, ongoing2, retentionCutoff(roles2.length, window), s2, e2)))
/**
 * Selection on the conversation after `prev` was spliced: well-formed again, the earliest maximal eligible stretch of the new
 * conversation (or none), and never earlier than prev (L4 forward progress).
 * @model
 */
export function selectAfterSplice(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  prev: Stretch,
  roles2: readonly Role[],
  callOf2: readonly number[],
  lastAnswer2: readonly number[],
  ongoing2: readonly boolean[],
): Stretch {
  // A proof-carrying model of two compaction rounds: the lemma shows the spliced views satisfy
  // the selection's requires and that nothing eligible starts before prev.start any more, so the
  // selection may resume at prev.start and still return the earliest maximal stretch (or none).
  //@ use AfterSplice(roles, callOf, lastAnswer, ongoing, window, prev.start, prev.end, roles2, callOf2, lastAnswer2, ongoing2)
  const next = selectStretchFrom(roles2, callOf2, lastAnswer2, ongoing2, window, prev.start);
  return next;
}
