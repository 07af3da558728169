// Reference for src/kernel/floor.ts.

/** Plain reference of worthACall: the stretch's tokens above the floor and no record with its bounds. */
export function worthACall(
  tokens: readonly number[],
  start: number,
  end: number,
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
): boolean {
  const size = tokens.slice(start, end).reduce((a, b) => a + b, 0);
  return size > floorTokens && !shunStarts.some((s, k) => s === start && shunEnds[k] === end);
}

/** Plain reference of notShrinkable. */
export function notShrinkable(summaryTokens: number, replacedTokens: number): boolean {
  return !(summaryTokens < replacedTokens);
}

/** Plain reference of recordAfterSplice: the splice's messages become one, so later positions move back by their count less one. */
export function recordAfterSplice(
  shunStart: number,
  shunEnd: number,
  spliceStart: number,
  spliceEnd: number,
): { start: number; end: number } {
  const removed = spliceEnd - spliceStart - 1;
  const disjointBefore = shunEnd <= spliceStart;
  const disjointAfter = shunStart >= spliceEnd;
  if (!disjointBefore && !disjointAfter) return { start: -1, end: -1 };
  return disjointBefore ? { start: shunStart, end: shunEnd } : { start: shunStart - removed, end: shunEnd - removed };
}

/** Plain reference of markedNotShrinkable: a record exists and the summary has not grown past it. */
export function markedNotShrinkable(size: number, floorAt: number): boolean {
  return !(floorAt === -1 || floorAt < -1 || size > floorAt);
}

/** Plain reference of floorAllowsRun: refused only at or under the floor, short of the amount or of the calls. */
export function floorAllowsRun(
  trigger: number,
  lawfulFloor: number,
  total: number,
  freeAtLeast: number,
  callsSince: number,
  every: number,
): boolean {
  const underFloor = !(trigger > lawfulFloor);
  const refused = underFloor && (total - lawfulFloor < freeAtLeast || callsSince < every);
  return !refused;
}
