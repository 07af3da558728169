// Reference for src/kernel/clearing.ts: the clearing tier written plainly (filters, counts from
// the end, a sorted candidate list), for the differential tests.
import type { Role } from "../kernel/roles.ts";
import type { TriggerKind } from "../kernel/trigger.ts";

/** Plain reference of countTools. */
export function countTools(roles: readonly Role[], a: number, b: number): number {
  return roles.slice(a, b).filter((r) => r === "tool").length;
}

/** Plain reference of lastAssistant. */
export function lastAssistant(roles: readonly Role[], b: number): number {
  return roles.slice(0, b).lastIndexOf("assistant");
}

/** Plain reference of keptCutoff: just after the newest tool result that has `keep` tool results after it. */
export function keptCutoff(roles: readonly Role[], keep: number): number {
  const tools = roles.flatMap((r, i) => (r === "tool" ? [i] : []));
  if (tools.length <= keep) return 0;
  return tools[tools.length - 1 - keep] + 1;
}

/** Plain reference of currentStep. */
export function currentStep(roles: readonly Role[]): number {
  return roles.lastIndexOf("assistant");
}

/** Plain reference of mayClear. */
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
  if (roles[k] !== "tool" || k >= Math.max(0, n - window)) return false;
  if (countTools(roles, k + 1, n) < keep) return false;
  const call = callOf[k];
  if (call < 0 || call >= lastAssistant(roles, n) || ongoing[call]) return false;
  return !excluded[k] && !cleared[k] && after[k] < tokens[k];
}

/** Plain reference of clearableAt. */
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
  const call = callOf[k];
  return (
    roles[k] === "tool" &&
    k < limit &&
    call >= 0 &&
    call < step &&
    !ongoing[call] &&
    !excluded[k] &&
    !cleared[k] &&
    after[k] < tokens[k]
  );
}

/** Plain reference of freedBy. */
export function freedBy(
  tokens: readonly number[],
  after: readonly number[],
  mask: readonly boolean[],
  b: number,
): number {
  let sum = 0;
  for (let k = 0; k < b; k++) if (mask[k]) sum += tokens[k] - after[k];
  return sum;
}

/** Plain reference of greedyFreed: the oldest-first scan over [0, b), taking what may be cleared while under the goal. */
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
  let freed = 0;
  for (let k = 0; k < b; k++) {
    if (freed < goal && mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k)) {
      freed += tokens[k] - after[k];
    }
  }
  return freed;
}

/** Plain reference of noClearing. */
export function noClearing(n: number): boolean[] {
  return new Array<boolean>(n).fill(false);
}

/** Plain reference of selectClearing: candidates oldest first, taken until the goal, then the clear_at_least rule. */
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
  const out = noClearing(roles.length);
  if (due === "notDue") return out;
  const candidates = roles
    .map((_, k) => k)
    .filter((k) => mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, k));
  let freed = 0;
  for (const k of candidates) {
    if (freed >= goal) break;
    out[k] = true;
    freed += tokens[k] - after[k];
  }
  return freed < clearAtLeast ? noClearing(roles.length) : out;
}

/** Plain reference of byteWeightsAfter: the cleared bytes where the tokens fall too, else the bytes. */
export function byteWeightsAfter(
  tokens: readonly number[],
  afterTokens: readonly number[],
  bytes: readonly number[],
  afterBytes: readonly number[],
): number[] {
  return bytes.map((b, k) => (afterTokens[k] < tokens[k] ? afterBytes[k] : b));
}

/** Plain reference of clearedTokens. */
export function clearedTokens(tokens: readonly number[], after: readonly number[], mask: readonly boolean[]): number[] {
  return tokens.map((t, k) => (mask[k] ? after[k] : t));
}

/** Plain reference of applyClearing. */
export function applyClearing<T>(xs: readonly T[], mask: readonly boolean[], replaced: readonly T[]): T[] {
  return xs.map((x, k) => (mask[k] ? replaced[k] : x));
}

/** Plain reference of callsToClear. */
export function callsToClear(callOf: readonly number[], mask: readonly boolean[], clearInputs: boolean): boolean[] {
  const calls = new Set(clearInputs ? callOf.filter((_, k) => mask[k]) : []);
  return callOf.map((_, j) => calls.has(j));
}
