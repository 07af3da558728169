// Reference for src/kernel/stretch.ts: try every stretch, judged in the plain words of L2-L5.
// Tool pairing is judged through callOf alone (which result answers which call), not through
// the kernel's lastAnswer shortcut, so the two implementations read different evidence.
import type { Role } from "../kernel/roles.ts";
import type { Stretch } from "../kernel/stretch.ts";

function eligible(
  roles: readonly Role[],
  callOf: readonly number[],
  ongoing: readonly boolean[],
  s: number,
  e: number,
): boolean {
  const inside = (i: number): boolean => i >= s && i < e;
  let work = false;
  for (let k = s; k < e; k++) {
    const r = roles[k];
    if (r === "user" || r === "system" || r === "compaction") return false; // L2 (a server-side compaction item: a boundary like a user message)
    if (ongoing[k]) return false; // L5: ongoing calls stay
    if (r === "tool" && !inside(callOf[k])) return false; // L5: no result leaves without its call
    if (r !== "summary") work = true;
  }
  for (let j = 0; j < roles.length; j++) {
    if (roles[j] === "tool" && inside(callOf[j]) && !inside(j)) return false; // L5: no call leaves a result behind
  }
  return work;
}

/** Plain reference of selectStretch. */
export function selectStretch(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
): Stretch {
  return selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, 0);
}

/** Plain reference of selectStretchFrom: the first start at or after `from` with an eligible stretch, its longest one. */
export function selectStretchFrom(
  roles: readonly Role[],
  callOf: readonly number[],
  _lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  from: number,
): Stretch {
  const cutoff = Math.max(0, roles.length - window); // L3
  for (let s = from; s < cutoff; s++) {
    for (let e = cutoff; e > s; e--) {
      if (eligible(roles, callOf, ongoing, s, e)) return { found: true, start: s, end: e };
    }
  }
  return { found: false, start: 0, end: 0 };
}

/** Plain reference of pairingOk: each tool result names an earlier assistant message, lastAnswer is the latest result naming it (negative if none), only assistants are ongoing. */
export function pairingOk(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
): boolean {
  const n = roles.length;
  if (callOf.length !== n || lastAnswer.length !== n || ongoing.length !== n) return false;
  const latest = new Array<number>(n).fill(-1);
  for (let j = 0; j < n; j++) {
    const c = callOf[j];
    if (roles[j] === "tool") {
      if (!(c >= 0 && c < j && roles[c] === "assistant")) return false;
      latest[c] = j;
    } else if (c >= 0) {
      return false;
    }
    if (ongoing[j] && roles[j] !== "assistant") return false;
  }
  for (let i = 0; i < n; i++) {
    if (latest[i] >= 0 ? lastAnswer[i] !== latest[i] : lastAnswer[i] >= 0) return false;
  }
  return true;
}
