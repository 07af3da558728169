// Reference for src/kernel/keeprecent.ts: try every stretch from `from` on, judged in the plain
// words of L2-L5 plus the L7 budget (what stays after the stretch holds keepRecentTokens).
// Shares nothing with the kernel: tool pairing is read through callOf alone.
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
    if (r === "user" || r === "system" || r === "compaction" || ongoing[k]) return false; // L2, L5 (ongoing calls stay)
    if (r === "tool" && !inside(callOf[k])) return false; // L5: no result leaves without its call
    if (r !== "summary") work = true;
  }
  for (let j = 0; j < roles.length; j++) {
    if (roles[j] === "tool" && inside(callOf[j]) && !inside(j)) return false; // L5: no call leaves a result behind
  }
  return work;
}

function tokensFrom(tokens: readonly number[], e: number): number {
  let t = 0;
  for (let k = e; k < tokens.length; k++) t += tokens[k];
  return t;
}

/** Plain reference of selectKeepRecent: the first start at or after `from` with a budget-keeping eligible stretch, its longest one. */
export function selectKeepRecent(
  roles: readonly Role[],
  tokens: readonly number[],
  callOf: readonly number[],
  _lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
  from: number,
  keepRecentTokens: number,
): Stretch {
  const cutoff = Math.max(0, roles.length - window); // L3
  for (let s = from; s < cutoff; s++) {
    for (let e = cutoff; e > s; e--) {
      if (eligible(roles, callOf, ongoing, s, e) && tokensFrom(tokens, e) >= keepRecentTokens)
        return { found: true, start: s, end: e };
    }
  }
  return { found: false, start: 0, end: 0 };
}

/** Plain reference of keepRecentCutoff: the latest index at or before the retention cutoff whose suffix holds the budget, else 0. */
export function keepRecentCutoff(tokens: readonly number[], window: number, keepRecentTokens: number): number {
  for (let c = Math.max(0, tokens.length - window); c > 0; c--) if (tokensFrom(tokens, c) >= keepRecentTokens) return c;
  return 0;
}
