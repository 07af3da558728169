// API: worthACall(tokens, start, end, floorTokens, shunStarts, shunEnds): boolean; notShrinkable(summaryTokens,
//      replacedTokens): boolean; recordAfterSplice(shunStart, shunEnd, spliceStart, spliceEnd): ShunnedStretch
//      -- which eligible stretch is worth a summarizer call (with L4, L8).
// A stretch is worth a call only above a floor of tokens, and not when its summary was already
// rejected as not shorter (L8) while the stretch is unchanged: such stretches are recorded by
// their bounds, and a record is kept across a splice only where the splice did not touch it
// (shifted when the splice lies before it), so a changed stretch is worth a call again. A summary
// carries its own record in its marker (the tokens it held when its aged summary was rejected), so
// the memory travels with the conversation through calls that keep nothing between them.
// The lawful floor is what the laws keep whatever a run does (user and system messages, the
// retention window and the keep-recent tail, summaries that cannot shrink): a trigger at or under
// it is reached again at every call, so a run there is refused unless it may free a stated amount
// and enough calls have passed since the last one.
import { rangeTokens } from "./progress.ts";

/** A recorded stretch [start, end) whose summary was rejected as not shorter; -1, -1: a record dropped. */
export interface ShunnedStretch {
  start: number;
  end: number;
}

//@ verify
//@ requires 0 <= start && start <= end && end <= tokens.length && tokens.length <= 9007199254740991
//@ requires forall(k: nat, start <= k && k < end ==> tokens[k] >= 0) && sumTokens(tokens, start, end) <= 9007199254740991
//@ requires shunStarts.length === shunEnds.length && shunStarts.length <= 9007199254740991
//@ ensures \result <==> (sumTokens(tokens, start, end) > floorTokens && forall(k: nat, k < shunStarts.length ==> !(shunStarts[k] === start && shunEnds[k] === end)))
/** Whether the stretch [start, end) is worth a summarizer call: above the floor, and not recorded as not shrinkable. */
export function worthACall(
  tokens: readonly number[],
  start: number,
  end: number,
  floorTokens: number,
  shunStarts: readonly number[],
  shunEnds: readonly number[],
): boolean {
  const size = rangeTokens(tokens, start, end);
  if (size <= floorTokens) return false;
  let i = 0;
  while (i < shunStarts.length) {
    //@ invariant 0 <= i && i <= shunStarts.length
    //@ invariant forall(k: nat, k < i ==> !(shunStarts[k] === start && shunEnds[k] === end))
    //@ decreases shunStarts.length - i
    if (shunStarts[i] === start && shunEnds[i] === end) return false;
    i = i + 1;
  }
  return true;
}

//@ verify
//@ ensures \result <==> summaryTokens >= replacedTokens
/** Whether a rejected summary shows its stretch cannot shrink (not shorter than what it replaces, L8): the stretch is then recorded. */
export function notShrinkable(summaryTokens: number, replacedTokens: number): boolean {
  return summaryTokens >= replacedTokens;
}

//@ verify
//@ requires shunStart <= shunEnd && shunEnd <= 9007199254740991
//@ requires 0 <= spliceStart && spliceStart < spliceEnd
//@ ensures shunEnd <= spliceStart ==> (\result.start === shunStart && \result.end === shunEnd)
//@ ensures spliceEnd <= shunStart ==> (\result.start === shunStart - (spliceEnd - spliceStart) + 1 && \result.end === shunEnd - (spliceEnd - spliceStart) + 1)
//@ ensures (spliceStart < shunEnd && shunStart < spliceEnd) ==> (\result.start === -1 && \result.end === -1)
/**
 * A record after [spliceStart, spliceEnd) was replaced by one summary (L6): a record ending at or
 * before the splice stays, one starting at or after its end moves with the messages after it, and
 * one the splice touched is dropped (-1, -1, which matches no stretch), since its stretch changed.
 */
export function recordAfterSplice(
  shunStart: number,
  shunEnd: number,
  spliceStart: number,
  spliceEnd: number,
): ShunnedStretch {
  if (shunEnd <= spliceStart) return { start: shunStart, end: shunEnd };
  if (spliceEnd <= shunStart) {
    return { start: shunStart - (spliceEnd - spliceStart - 1), end: shunEnd - (spliceEnd - spliceStart - 1) };
  }
  return { start: -1, end: -1 };
}

//@ verify
//@ ensures \result <==> (floorAt >= 0 && size <= floorAt)
/**
 * Whether a summary of `size` tokens is known not to shrink by its marker: the marker records
 * `floorAt`, the tokens it held when an aged summary of it was rejected (-1: no record), and a
 * summary no larger than that is not worth another aging call; a larger one (its text grew, or
 * the tokenizer changed) is worth one again.
 */
export function markedNotShrinkable(size: number, floorAt: number): boolean {
  if (floorAt < 0) return false;
  return size <= floorAt;
}

//@ verify
//@ requires 0 <= lawfulFloor && lawfulFloor <= total && total <= 9007199254740991 && 1 <= freeAtLeast && 0 <= callsSince && 1 <= every
//@ ensures \result <==> (trigger > lawfulFloor || (total - lawfulFloor >= freeAtLeast && callsSince >= every))
//@ ensures (\result && trigger <= lawfulFloor) ==> (total - lawfulFloor >= 1 && callsSince >= every)
/**
 * Whether a due run may start, judged against the lawful floor (`lawfulFloor`: the tokens the
 * laws keep whatever a run does). With the trigger above the floor, always. At or under it every
 * call is due again, so a run goes ahead only when what lies above the floor (`total -
 * lawfulFloor`, the most any run can free) is at least `freeAtLeast`, and `callsSince` (the calls
 * since the last run that changed something) has reached `every`: at most one run per `every`
 * calls, each with something to free (progress: at least one token above the floor).
 */
export function floorAllowsRun(
  trigger: number,
  lawfulFloor: number,
  total: number,
  freeAtLeast: number,
  callsSince: number,
  every: number,
): boolean {
  if (trigger > lawfulFloor) return true;
  if (total - lawfulFloor < freeAtLeast) return false;
  return callsSince >= every;
}
