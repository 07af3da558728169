// Plain reference for src/kernel/cutpoint.ts (the fuzzing oracle): quadratic where that is
// clearer, defined from callOf alone (what "no orphan" means), sharing nothing with the kernel.

import type { Role } from "../kernel/roles.ts";

/** Plain sum of tokens[from..to). */
export function sumRange(tokens: readonly number[], from: number, to: number): number {
  let s = 0;
  for (let k = from; k < to; k++) s += tokens[k];
  return s;
}

/** c is a valid cut: not a tool result, and every tool result from c on has its call from c on. */
function isValidCut(roles: readonly Role[], callOf: readonly number[], c: number): boolean {
  if (roles[c] === "tool") return false;
  for (let j = c; j < roles.length; j++) {
    if (roles[j] === "tool" && callOf[j] < c) return false;
  }
  return true;
}

/** Every valid cut in [start, end), ascending. */
export function findValidCutPoints(
  roles: readonly Role[],
  callOf: readonly number[],
  start: number,
  end: number,
): number[] {
  const out: number[] = [];
  for (let c = start; c < end; c++) if (isValidCut(roles, callOf, c)) out.push(c);
  return out;
}

/** The nearest user message at or before index, not before start; -1 if none. */
export function findTurnStart(roles: readonly Role[], index: number, start: number): number {
  for (let k = index; k >= start; k--) if (roles[k] === "user") return k;
  return -1;
}

/** The keep-recent cut, straight from its meaning. */
export function findCutPoint(
  roles: readonly Role[],
  tokens: readonly number[],
  callOf: readonly number[],
  start: number,
  end: number,
  keep: number,
): { found: boolean; firstKept: number; turnStart: number; isSplitTurn: boolean } {
  const notFound = { found: false, firstKept: start, turnStart: -1, isSplitTurn: false };
  const points = findValidCutPoints(roles, callOf, start, end);
  if (points.length === 0) return notFound;
  // the budget index: the latest index whose suffix already holds `keep` tokens
  let budgetIndex = -1;
  for (let i = end; i >= start; i--) {
    if (sumRange(tokens, i, end) >= keep) {
      budgetIndex = i;
      break;
    }
  }
  let cut: number;
  if (budgetIndex === -1) {
    cut = points[0]; // the whole range holds less than the budget: keep all that can be kept
  } else {
    const before = points.filter((p) => p <= budgetIndex);
    if (before.length === 0) return notFound;
    cut = before[before.length - 1];
  }
  if (roles[cut] === "user") return { found: true, firstKept: cut, turnStart: -1, isSplitTurn: false };
  const turnStart = findTurnStart(roles, cut, start);
  return { found: true, firstKept: cut, turnStart, isSplitTurn: turnStart !== -1 };
}
