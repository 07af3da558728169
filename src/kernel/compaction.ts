// API: compactRolesOnce(roles, callOf, lastAnswer, ongoing, window): RoleStep -- L2-L6 composed.
// (The retained tail is stated in mapped form: message k >= n - window lands at k - (end - start) + 1.)
// One compaction step on the role view: the stretch selector's guarantees meet the splice's
// requirements, so the end-to-end facts hold without any runtime check in between.

import { isCompressible } from "./compressible.ts";
import type { Role } from "./roles.ts";
import { spliceRoles } from "./splice.ts";
import { selectStretchFrom } from "./stretch.ts";

/** The roles after one step; changed=false (and roles unchanged) when nothing was eligible. */
export interface RoleStep {
  changed: boolean;
  roles: readonly Role[];
  start: number;
  end: number;
}

//@ verify
//@ requires window >= 1 && roles.length <= 9007199254740991
//@ requires Pairing(roles, callOf, lastAnswer, ongoing)
//@ ensures !\result.changed ==> equal(\result.roles, roles)
//@ ensures !\result.changed ==> forall(s2: int, forall(e2: int, !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ ensures \result.changed ==> Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), \result.start, \result.end)
//@ ensures \result.changed ==> forall(e2: int, \result.end < e2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), \result.start, e2))
//@ ensures \result.changed ==> forall(s2: int, forall(e2: int, s2 < \result.start ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), s2, e2)))
//@ ensures \result.changed ==> 0 <= \result.start && \result.start < \result.end && \result.end + window <= roles.length
//@ ensures \result.changed ==> \result.roles.length === roles.length - (\result.end - \result.start) + 1
//@ ensures \result.changed ==> \result.roles[\result.start] === "summary"
//@ ensures \result.changed ==> forall(k: nat, k < roles.length && !isCompressible(roles[k]) && k < \result.start ==> \result.roles[k] === roles[k])
//@ ensures \result.changed ==> forall(k: nat, k < roles.length && !isCompressible(roles[k]) && \result.end <= k ==> \result.roles[k - (\result.end - \result.start) + 1] === roles[k])
//@ ensures \result.changed ==> forall(k: nat, k < roles.length && !isCompressible(roles[k]) ==> k < \result.start || \result.end <= k)
//@ ensures \result.changed ==> forall(k: nat, roles.length - window <= k && k < roles.length ==> \result.roles[k - (\result.end - \result.start) + 1] === roles[k])
/**
 * Select the earliest eligible stretch and replace it by one summary, on the role view (L2-L6 end to end).
 * @model
 */
export function compactRolesOnce(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
): RoleStep {
  // selectStretch is selectStretchFrom from 0 (plus CoherentIsLawful); calling the latter here
  // keeps the start position in view, so a selection that skips the earliest stretch is refuted.
  const st = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, 0);
  if (!st.found) return { changed: false, roles: roles, start: 0, end: 0 };
  //@ use CoherentIsLawful(roles, callOf, lastAnswer, ongoing, retentionCutoff(roles.length, window), st.start, st.end)
  const out = spliceRoles(roles, st.start, st.end, window);
  return { changed: true, roles: out, start: st.start, end: st.end };
}
