// API: countTools(roles, a, b): number (spec); lastAssistant(roles, b): number (spec);
//      keptCutoff(roles, keep): number; currentStep(roles): number;
//      mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k): boolean (spec);
//      clearableAt(.., limit, step, k): boolean; freedBy(tokens, after, mask, b): number (spec);
//      greedyFreed(.., window, keep, goal, b): number (spec);
//      selectClearing(.., window, keep, goal, clearAtLeast, due): boolean[]; noClearing(n): boolean[];
//      clearedTokens(tokens, after, mask): number[]; applyClearing<T>(xs, mask, replaced): T[];
//      callsToClear(callOf, mask, clearInputs): boolean[] -- L13, the clearing tier.
// Clearing replaces the content of old tool results by a short placeholder. The kernel decides
// which results (mayClear, selectClearing), proves that clearing changes nothing else
// (applyClearing, callsToClear) and that the token count falls by exactly what was freed
// (clearedTokens). `after[k]` is message k's token count with its content replaced: the engine
// counts it, the kernel only accepts a clearing that is strictly shorter (like L8).

import { sumTokens } from "./progress.ts";
import { retentionCutoff } from "./retention.ts";
import type { Role } from "./roles.ts";
import type { TriggerKind } from "./trigger.ts";

//@ spec
//@ requires 0 <= a && a <= b && b <= roles.length
//@ decreases b - a
/** How many tool results lie in roles[a..b) (recursive, for specifications). */
export function countTools(roles: readonly Role[], a: number, b: number): number {
  if (a === b) return 0;
  return (roles[a] === "tool" ? 1 : 0) + countTools(roles, a + 1, b);
}

//@ spec
//@ requires 0 <= b && b <= roles.length
//@ ensures -1 <= \result && \result < b
//@ decreases b
/** Index of the last assistant message in roles[..b), or -1 (recursive, for specifications). */
export function lastAssistant(roles: readonly Role[], b: number): number {
  if (b === 0) return -1;
  if (roles[b - 1] === "assistant") return b - 1;
  return lastAssistant(roles, b - 1);
}

//@ verify
//@ requires keep >= 0 && roles.length <= 9007199254740991
//@ ensures 0 <= \result && \result <= roles.length
//@ ensures forall(k: nat, k < roles.length && roles[k] === "tool" ==> (k < \result <==> countTools(roles, k + 1, roles.length) >= keep))
/** First index of the kept tail of tool uses: a tool result before it has at least `keep` tool results after it. */
export function keptCutoff(roles: readonly Role[], keep: number): number {
  const n = roles.length;
  let c = n;
  let count = 0;
  while (c > 0) {
    //@ invariant 0 <= c && c <= n
    //@ invariant count === countTools(roles, c, n)
    //@ invariant 0 <= count && count <= keep && count <= n - c
    //@ invariant forall(k: nat, c <= k && k < n && roles[k] === "tool" ==> countTools(roles, k + 1, n) < keep)
    if (roles[c - 1] === "tool") {
      if (count === keep) {
        //@ use CountToolsAntitoneAll(roles, c, n)
        break;
      }
      count = count + 1;
    }
    c = c - 1;
  }
  return c;
}

//@ verify
//@ requires roles.length <= 9007199254740991
//@ ensures \result === lastAssistant(roles, roles.length)
/** Index of the last assistant message (-1 if none): its calls and their results are the current step. */
export function currentStep(roles: readonly Role[]): number {
  let c = roles.length;
  while (c > 0 && roles[c - 1] !== "assistant") {
    //@ invariant 0 <= c && c <= roles.length
    //@ invariant lastAssistant(roles, roles.length) === lastAssistant(roles, c)
    c = c - 1;
  }
  return c - 1;
}

//@ spec
//@ requires callOf.length === roles.length && ongoing.length === roles.length && cleared.length === roles.length
//@ requires excluded.length === roles.length && tokens.length === roles.length && after.length === roles.length
//@ requires window >= 1 && keep >= 0 && 0 <= k && k < roles.length && roles.length <= 9007199254740991
/**
 * L13: message k may be cleared. It is a tool result, before the retention window, with at least
 * `keep` tool results after it, answering a call that is not ongoing and made before the last
 * assistant message (not the current step), not of an excluded tool, not cleared already, and
 * its placeholder is strictly shorter than it.
 */
export function mayClear(
  roles: readonly Role[],
  callOf: readonly number[],
  ongoing: readonly boolean[],
  cleared: readonly boolean[],
  excluded: readonly boolean[],
  tokens: readonly number[],
  after: readonly number[],
  window: number,
  keep: number,
  k: number,
): boolean {
  const n = roles.length;
  return (
    roles[k] === "tool" &&
    k < retentionCutoff(n, window) &&
    countTools(roles, k + 1, n) >= keep &&
    0 <= callOf[k] &&
    callOf[k] < lastAssistant(roles, n) &&
    !ongoing[callOf[k]] &&
    !excluded[k] &&
    !cleared[k] &&
    after[k] < tokens[k]
  );
}

//@ verify
//@ requires callOf.length === roles.length && ongoing.length === roles.length && cleared.length === roles.length
//@ requires excluded.length === roles.length && tokens.length === roles.length && after.length === roles.length
//@ requires step < roles.length && 0 <= k && k < roles.length
/** mayClear at run time, with the window, kept-tail and step bounds computed once (limit = the smaller cutoff). */
export function clearableAt(
  roles: readonly Role[],
  callOf: readonly number[],
  ongoing: readonly boolean[],
  cleared: readonly boolean[],
  excluded: readonly boolean[],
  tokens: readonly number[],
  after: readonly number[],
  limit: number,
  step: number,
  k: number,
): boolean {
  return (
    roles[k] === "tool" &&
    k < limit &&
    0 <= callOf[k] &&
    callOf[k] < step &&
    !ongoing[callOf[k]] &&
    !excluded[k] &&
    !cleared[k] &&
    after[k] < tokens[k]
  );
}

//@ spec
//@ requires 0 <= b && b <= mask.length && b <= tokens.length && b <= after.length
//@ decreases b
/** Tokens freed by clearing the messages mask marks in [0, b) (recursive, for specifications). */
export function freedBy(
  tokens: readonly number[],
  after: readonly number[],
  mask: readonly boolean[],
  b: number,
): number {
  if (b === 0) return 0;
  return freedBy(tokens, after, mask, b - 1) + (mask[b - 1] ? tokens[b - 1] - after[b - 1] : 0);
}

//@ spec
//@ requires callOf.length === roles.length && ongoing.length === roles.length && cleared.length === roles.length
//@ requires excluded.length === roles.length && tokens.length === roles.length && after.length === roles.length
//@ requires window >= 1 && keep >= 0 && 0 <= b && b <= roles.length && roles.length <= 9007199254740991
//@ decreases b
/**
 * What clearing oldest first frees over [0, b): each result that may be cleared (mayClear) is
 * taken while less than `goal` is freed before it (recursive, for specifications: what
 * selectClearing computes, before its clear_at_least rule).
 */
export function greedyFreed(
  roles: readonly Role[],
  callOf: readonly number[],
  ongoing: readonly boolean[],
  cleared: readonly boolean[],
  excluded: readonly boolean[],
  tokens: readonly number[],
  after: readonly number[],
  window: number,
  keep: number,
  goal: number,
  b: number,
): number {
  if (b === 0) return 0;
  if (
    greedyFreed(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, goal, b - 1) < goal &&
    mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, b - 1)
  ) {
    return (
      greedyFreed(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, goal, b - 1) +
      tokens[b - 1] -
      after[b - 1]
    );
  }
  return greedyFreed(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, goal, b - 1);
}

//@ verify
//@ requires n >= 0 && n <= 9007199254740991
//@ ensures \result.length === n
//@ ensures forall(k: nat, k < n ==> !\result[k])
/** The empty clearing: nothing marked. */
export function noClearing(n: number): boolean[] {
  const out: boolean[] = [];
  let i = 0;
  while (i < n) {
    //@ invariant 0 <= i && i <= n
    //@ invariant out.length === i
    //@ invariant forall(k: nat, k < i ==> !out[k])
    out.push(false);
    i = i + 1;
  }
  return out;
}

//@ verify
//@ requires callOf.length === roles.length && ongoing.length === roles.length && cleared.length === roles.length
//@ requires excluded.length === roles.length && tokens.length === roles.length && after.length === roles.length
//@ requires window >= 1 && keep >= 0 && roles.length <= 9007199254740991
//@ requires forall(k: nat, k < tokens.length ==> tokens[k] >= 0 && after[k] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991
//@ ensures \result.length === roles.length
//@ ensures due === "notDue" ==> forall(k: nat, k < roles.length ==> !\result[k])
//@ ensures forall(k: nat, k < roles.length && \result[k] ==> mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k))
//@ ensures forall(k: nat, k < roles.length && \result[k] ==> freedBy(tokens, after, \result, k) < goal)
//@ ensures forall(k: nat, k < roles.length && \result[k] ==> freedBy(tokens, after, \result, roles.length) > 0)
//@ ensures freedBy(tokens, after, \result, roles.length) === 0 || freedBy(tokens, after, \result, roles.length) >= clearAtLeast
//@ ensures due !== "notDue" && greedyFreed(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, goal, roles.length) >= clearAtLeast ==> freedBy(tokens, after, \result, roles.length) === greedyFreed(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, goal, roles.length)
//@ ensures forall(k: nat, k < roles.length && roles[k] === "compaction" ==> !\result[k])
//@ ensures freedBy(tokens, after, \result, roles.length) > 0 ==> forall(k: nat, k < roles.length && mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k) && freedBy(tokens, after, \result, k) < goal ==> \result[k])
/**
 * L13: which tool results to clear. Only when due (L1); oldest first, every result that may be
 * cleared until `goal` tokens are freed; and at least `clearAtLeast` tokens, or nothing at all:
 * nothing only when the oldest-first scan (greedyFreed) frees less than `clearAtLeast`.
 */
export function selectClearing(
  roles: readonly Role[],
  callOf: readonly number[],
  ongoing: readonly boolean[],
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
  const n = roles.length;
  if (due === "notDue") {
    const none = noClearing(n);
    //@ use FreedNone(tokens, after, none, n)
    return none;
  }
  const cut = keptCutoff(roles, keep);
  const limit = Math.min(retentionCutoff(n, window), cut);
  const step = currentStep(roles);
  const out: boolean[] = [];
  let freed = 0;
  let i = 0;
  while (i < n) {
    //@ invariant 0 <= i && i <= n
    //@ invariant out.length === i
    //@ invariant freed === freedBy(tokens, after, out, i)
    //@ invariant freed === greedyFreed(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, goal, i)
    //@ invariant freed >= 0 && freed <= sumTokens(tokens, 0, i)
    //@ invariant forall(k: nat, k < i && out[k] ==> mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k))
    //@ invariant forall(k: nat, k < i && out[k] ==> freedBy(tokens, after, out, k) < goal)
    //@ invariant forall(k: nat, k < i && out[k] ==> freed > 0)
    //@ invariant forall(k: nat, k < i && mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k) && freedBy(tokens, after, out, k) < goal ==> out[k])
    const take = freed < goal && clearableAt(roles, callOf, ongoing, cleared, excluded, tokens, after, limit, step, i);
    //@ assert take <==> (freed < goal && mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, i))
    //@ use FreedSnoc(tokens, after, out, take)
    //@ use SumTokensSplit(tokens, 0, i + 1, n)
    //@ use SumTokensNonNeg(tokens, i + 1, n)
    out.push(take);
    if (take) freed = freed + tokens[i] - after[i];
    i = i + 1;
  }
  if (freed < clearAtLeast) {
    const nothing = noClearing(n);
    //@ use FreedNone(tokens, after, nothing, n)
    return nothing;
  }
  return out;
}

//@ verify
//@ requires afterTokens.length === tokens.length && bytes.length === tokens.length && afterBytes.length === tokens.length && tokens.length <= 9007199254740991
//@ ensures \result.length === tokens.length
//@ ensures forall(k: nat, k < tokens.length ==> \result[k] === (afterTokens[k] < tokens[k] ? afterBytes[k] : bytes[k]))
//@ ensures forall(k: nat, k < tokens.length && \result[k] < bytes[k] ==> afterTokens[k] < tokens[k])
/**
 * L13 in bytes: what each message would weigh once cleared, for a selection whose goal is in bytes
 * (a request over max_request_bytes): its cleared bytes where its placeholder is also strictly
 * shorter in tokens, its bytes unchanged otherwise. A result the selection may clear (strictly
 * lighter) then shrinks in tokens too: a placeholder can be fewer bytes and as many tokens (or more).
 */
export function byteWeightsAfter(
  tokens: readonly number[],
  afterTokens: readonly number[],
  bytes: readonly number[],
  afterBytes: readonly number[],
): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < tokens.length) {
    //@ invariant 0 <= i && i <= tokens.length
    //@ invariant out.length === i
    //@ invariant forall(k: nat, k < i ==> out[k] === (afterTokens[k] < tokens[k] ? afterBytes[k] : bytes[k]))
    out.push(afterTokens[i] < tokens[i] ? afterBytes[i] : bytes[i]);
    i = i + 1;
  }
  return out;
}

//@ verify
//@ requires after.length === tokens.length && mask.length === tokens.length && tokens.length <= 9007199254740991
//@ ensures \result.length === tokens.length
//@ ensures forall(k: nat, k < tokens.length ==> \result[k] === (mask[k] ? after[k] : tokens[k]))
//@ ensures sumTokens(\result, 0, \result.length) === sumTokens(tokens, 0, tokens.length) - freedBy(tokens, after, mask, tokens.length)
/** L13: token counts after clearing: the total falls by exactly what was freed (strictly, when anything was). */
export function clearedTokens(tokens: readonly number[], after: readonly number[], mask: readonly boolean[]): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < tokens.length) {
    //@ invariant 0 <= i && i <= tokens.length
    //@ invariant out.length === i
    //@ invariant forall(k: nat, k < i ==> out[k] === (mask[k] ? after[k] : tokens[k]))
    //@ invariant sumTokens(out, 0, i) === sumTokens(tokens, 0, i) - freedBy(tokens, after, mask, i)
    const x = mask[i] ? after[i] : tokens[i];
    //@ use SumTokensSnoc(out, x)
    out.push(x);
    i = i + 1;
  }
  return out;
}

//@ verify
//@ requires mask.length === xs.length && replaced.length === xs.length && xs.length <= 9007199254740991
//@ ensures \result.length === xs.length
//@ ensures forall(k: nat, k < xs.length && mask[k] ==> equal(\result[k], replaced[k]))
//@ ensures forall(k: nat, k < xs.length && !mask[k] ==> equal(\result[k], xs[k]))
/** L13, the splice-like law of clearing: the marked messages are replaced in place, every other one is unchanged and nothing moves. */
export function applyClearing<T>(xs: readonly T[], mask: readonly boolean[], replaced: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < xs.length) {
    //@ invariant 0 <= i && i <= xs.length
    //@ invariant out.length === i
    //@ invariant forall(k: nat, k < i && mask[k] ==> equal(out[k], replaced[k]))
    //@ invariant forall(k: nat, k < i && !mask[k] ==> equal(out[k], xs[k]))
    out.push(mask[i] ? replaced[i] : xs[i]);
    i = i + 1;
  }
  return out;
}

//@ verify
//@ requires mask.length === callOf.length && callOf.length <= 9007199254740991
//@ requires forall(k: nat, k < callOf.length && mask[k] ==> 0 <= callOf[k] && callOf[k] < callOf.length)
//@ ensures \result.length === callOf.length
//@ ensures forall(k: nat, k < callOf.length && mask[k] && clearInputs ==> \result[callOf[k]])
//@ ensures forall(j: nat, j < callOf.length && \result[j] ==> clearInputs && exists(k: nat, k < callOf.length && mask[k] && callOf[k] === j))
/** L13, clear_inputs: the messages whose calls' arguments are cleared too: exactly the calls of cleared results, and only when asked. */
export function callsToClear(callOf: readonly number[], mask: readonly boolean[], clearInputs: boolean): boolean[] {
  const none = noClearing(callOf.length);
  if (!clearInputs) return none;
  const out = none.slice();
  let i = 0;
  while (i < callOf.length) {
    //@ invariant 0 <= i && i <= callOf.length
    //@ invariant out.length === callOf.length
    //@ invariant forall(k: nat, k < i && mask[k] ==> out[callOf[k]])
    //@ invariant forall(j: nat, j < callOf.length && out[j] ==> exists(k: nat, k < callOf.length && mask[k] && callOf[k] === j))
    if (mask[i]) {
      out[callOf[i]] = true;
    }
    i = i + 1;
  }
  return out;
}
