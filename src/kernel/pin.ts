// API: pinnedOngoing(roles, callOf, lastAnswer, ongoing, pinned): boolean[];
//      selectPinned(roles, callOf, lastAnswer, ongoing, pinned, window): Stretch (proof model);
//      clearPinned(.., pinned, .., due): boolean[] (proof model)
// -- L15, pinned content: what a pin means for the kernel's decisions. A pinned message stays in
// the context sent as it is: it is never summarized and never cleared. User and system messages
// are kept anyway (L2). A pinned assistant message is held like a call still waiting for its
// result: no stretch may hold it, so neither its results (L5: a result never leaves without its
// call). A pinned tool result pins its call the same way, so the call and every result of it stay
// together (L5), and clearing, which clears only results of calls that are not held (L13), never
// clears it. Summaries are never pinned: they are compaction's own output. The engine passes the
// views pinnedOngoing returns to every selection (stretches, batches, keep-recent, clearing).
import { selectClearing } from "./clearing.ts";
import type { Role } from "./roles.ts";
import { type Stretch, selectStretch } from "./stretch.ts";
import type { TriggerKind } from "./trigger.ts";

//@ verify
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ requires pinned.length === roles.length
//@ ensures \result.length === roles.length
//@ ensures Pairing(roles, callOf, lastAnswer, \result)
//@ ensures forall(j: nat, j < roles.length && ongoing[j] ==> \result[j])
//@ ensures forall(j: nat, j < roles.length && pinned[j] && roles[j] === "assistant" ==> \result[j])
//@ ensures forall(k: nat, k < roles.length && pinned[k] && roles[k] === "tool" ==> \result[callOf[k]])
//@ ensures forall(j: nat, j < roles.length && \result[j] ==> ongoing[j] || (pinned[j] && roles[j] === "assistant") || exists(k: nat, k < roles.length && pinned[k] && roles[k] === "tool" && callOf[k] === j))
/**
 * The ongoing view with the pins applied: every message held before (a call waiting for its
 * result), every pinned assistant message, and the call of every pinned tool result; nothing else.
 * The pairing view stays well-formed, so every selection accepts it.
 */
export function pinnedOngoing(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  pinned: readonly boolean[],
): boolean[] {
  const n = roles.length;
  const out: boolean[] = [];
  let i = 0;
  while (i < n) {
    //@ invariant 0 <= i && i <= n
    //@ invariant out.length === i
    //@ invariant forall(j: nat, j < i ==> (out[j] <==> ongoing[j] || (pinned[j] && roles[j] === "assistant")))
    out.push(ongoing[i] || (pinned[i] && roles[i] === "assistant"));
    i = i + 1;
  }
  let k = 0;
  while (k < n) {
    //@ invariant 0 <= k && k <= n
    //@ invariant out.length === n
    //@ invariant forall(j: nat, j < n && ongoing[j] ==> out[j])
    //@ invariant forall(j: nat, j < n && pinned[j] && roles[j] === "assistant" ==> out[j])
    //@ invariant forall(k2: nat, k2 < k && pinned[k2] && roles[k2] === "tool" ==> out[callOf[k2]])
    //@ invariant forall(j: nat, j < n && out[j] ==> ongoing[j] || (pinned[j] && roles[j] === "assistant") || exists(k2: nat, k2 < k && pinned[k2] && roles[k2] === "tool" && callOf[k2] === j))
    //@ invariant forall(j: nat, j < n && out[j] ==> roles[j] === "assistant")
    if (pinned[k] && roles[k] === "tool") {
      out[callOf[k]] = true;
    }
    k = k + 1;
  }
  return out;
}

//@ verify
//@ requires window >= 1
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ requires pinned.length === roles.length
//@ requires forall(k: nat, k < roles.length && pinned[k] ==> roles[k] !== "summary")
//@ ensures \result.found ==> 0 <= \result.start && \result.start < \result.end && \result.end <= roles.length
//@ ensures \result.found ==> forall(k: int, \result.start <= k && k < \result.end ==> !pinned[k])
/**
 * L15 for summarizing: the stretch chosen on the pinned view holds no pinned message, and no
 * result of a pinned call (L5 keeps a call and its results together).
 * @model
 */
export function selectPinned(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  pinned: readonly boolean[],
  window: number,
): Stretch {
  const held = pinnedOngoing(roles, callOf, lastAnswer, ongoing, pinned);
  const st = selectStretch(roles, callOf, lastAnswer, held, window);
  //@ use PinnedOutsideStretch(roles, callOf, lastAnswer, ongoing, pinned, held, st.found, st.start, st.end)
  return st;
}

//@ verify
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ requires pinned.length === roles.length
//@ requires cleared.length === roles.length && excluded.length === roles.length && tokens.length === roles.length && after.length === roles.length
//@ requires window >= 1 && keep >= 0
//@ requires forall(k: nat, k < tokens.length ==> tokens[k] >= 0 && after[k] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991
//@ ensures \result.length === roles.length
//@ ensures forall(k: nat, k < roles.length && pinned[k] ==> !\result[k])
/**
 * L15 for clearing: the clearing chosen on the pinned view clears no pinned tool result (its call
 * is held, and L13 clears only results of calls that are not).
 * @model
 */
export function clearPinned(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  pinned: readonly boolean[],
  cleared: readonly boolean[],
  excluded: readonly boolean[],
  tokens: readonly number[],
  after: readonly number[],
  window: number,
  keep: number,
  goal: number,
  clearAtLeast: number,
  due: TriggerKind,
): boolean[] {
  const held = pinnedOngoing(roles, callOf, lastAnswer, ongoing, pinned);
  const mask = selectClearing(
    roles,
    callOf,
    held,
    cleared,
    excluded,
    tokens,
    after,
    window,
    keep,
    goal,
    clearAtLeast,
    due,
  );
  return mask;
}
