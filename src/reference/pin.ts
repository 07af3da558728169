// Reference for src/kernel/pin.ts: the pins as a set of held calls, then the reference selections.
import type { Role } from "../kernel/roles.ts";
import type { Stretch } from "../kernel/stretch.ts";
import type { TriggerKind } from "../kernel/trigger.ts";
import { selectClearing } from "./clearing.ts";
import { selectStretch } from "./stretch.ts";

/** Plain reference of pinnedOngoing: ongoing, or a pinned assistant message, or the call of a pinned tool result. */
export function pinnedOngoing(
  roles: readonly Role[],
  callOf: readonly number[],
  _lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  pinned: readonly boolean[],
): boolean[] {
  const heldCalls = new Set(roles.flatMap((r, k) => (pinned[k] && r === "tool" ? [callOf[k]] : [])));
  return roles.map((r, j) => ongoing[j] || (pinned[j] && r === "assistant") || heldCalls.has(j));
}

/** Plain reference of selectPinned: the reference selection on the pinned view. */
export function selectPinned(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  pinned: readonly boolean[],
  window: number,
): Stretch {
  return selectStretch(roles, callOf, lastAnswer, pinnedOngoing(roles, callOf, lastAnswer, ongoing, pinned), window);
}

/** Plain reference of clearPinned: the reference clearing on the pinned view. */
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
  return selectClearing(roles, callOf, held, cleared, excluded, tokens, after, window, keep, goal, clearAtLeast, due);
}
