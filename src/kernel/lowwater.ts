// API: runContinues(dueAtStart, total, target): boolean;
//      summarizesAfterClearing(dueAtStart, dueAfterClearing, total, target): boolean;
//      lowWaterRun(total, due, target, savings): LowWaterRun;
//      batchWorthRewrite(trigger, judged, freed, freeAtLeast, callsSince, every): boolean;
//      clearsNow(summarizes, judged, hardTrigger): boolean
//      -- the low-water stop rule of a run (L1 unchanged, L8's progress), and when a run is worth
//      the prompt-cache re-write it causes.
// A run starts only when compaction is due (L1 decides that, as before); once started it goes on
// while the total is above a lower target, so one run frees down to the target instead of just
// under the trigger. A run that clears tool results first (L13) has started when it was due
// before clearing: it summarizes afterwards when clearing left it due or above its target.
// lowWaterRun is the progress model: with every step lowering the total by at least one token
// (L8's acceptSummary), a run ends within total - target steps, at or below the target unless it
// ran out of steps.
// Every run that changes the conversation makes the provider re-write its prompt cache from the
// first change on: batchWorthRewrite spaces out the runs that cannot take the count under the
// trigger (each would pay that re-write for a few tokens), and clearsNow lets a clearing that
// is not needed yet wait for the next summarizing run, so both share one re-write.

/** The end of a run in the low-water progress model: the total it ends at and the steps it took. */
export interface LowWaterRun {
  total: number;
  steps: number;
}

//@ verify
//@ ensures \result <==> (dueAtStart && total > target)
/** Whether a run takes another step: only a run that was due when it started (L1), and only while the total is above the target. */
export function runContinues(dueAtStart: boolean, total: number, target: number): boolean {
  if (!dueAtStart) return false;
  return total > target;
}

//@ verify
//@ ensures \result <==> (dueAtStart && (dueAfterClearing || total > target))
//@ ensures \result ==> dueAtStart
/**
 * Whether a run summarizes after its clearing tier: only a run that was due when it started,
 * before clearing (L1), and then when clearing left it still due or above its low-water target
 * (the rest of the way down is summarized, as runContinues goes on below the trigger).
 */
export function summarizesAfterClearing(
  dueAtStart: boolean,
  dueAfterClearing: boolean,
  total: number,
  target: number,
): boolean {
  if (dueAfterClearing) return dueAtStart;
  return runContinues(dueAtStart, total, target);
}

//@ verify
//@ requires forall(k: nat, k < savings.length ==> savings[k] >= 1 && savings[k] <= 9007199254740991)
//@ requires savings.length <= 9007199254740991 && total <= 9007199254740991 && target >= 0
//@ ensures !due ==> (\result.steps === 0 && \result.total === total)
//@ ensures 0 <= \result.steps && \result.steps <= savings.length
//@ ensures \result.total <= total - \result.steps
//@ ensures (due && \result.steps < savings.length) ==> \result.total <= target
//@ ensures \result.steps === 0 || \result.steps <= total - target
/**
 * Progress model of the low-water rule: step k lowers the total by savings[k] >= 1 (an accepted
 * summary, L8); the run takes steps while runContinues. A run that is not due takes none; one that
 * is due ends at or below the target unless the steps run out, and never takes more than
 * total - target steps, whatever the savings.
 * @model
 */
export function lowWaterRun(total: number, due: boolean, target: number, savings: readonly number[]): LowWaterRun {
  let cur = total;
  let steps = 0;
  while (steps < savings.length && runContinues(due, cur, target)) {
    //@ invariant 0 <= steps && steps <= savings.length
    //@ invariant cur <= total - steps
    //@ invariant !due ==> (steps === 0 && cur === total)
    //@ invariant steps === 0 || total - (steps - 1) > target
    //@ decreases savings.length - steps
    cur = cur - savings[steps];
    steps = steps + 1;
  }
  return { total: cur, steps: steps };
}

//@ verify
//@ requires 0 <= freed && freed <= judged && judged <= 9007199254740991 && 1 <= freeAtLeast && 0 <= callsSince && 1 <= every
//@ ensures \result <==> (judged - freed < trigger || (freed >= freeAtLeast && callsSince >= every))
//@ ensures (\result && judged - freed >= trigger) ==> (freed >= 1 && callsSince >= every)
/**
 * Whether a due run commits the first batch it planned, or ends without changing anything. A
 * batch that takes the judged count under the trigger (`judged - freed < trigger`, `freed` the
 * plan's estimate) always goes. One that would leave it at or over the trigger re-writes the
 * provider's prompt cache from its first change on and is due again at the next call: it goes
 * only when it frees at least `freeAtLeast` tokens and at least `every` calls have passed since
 * the last run that changed something (the lawful floor's spacing, for the floor the plan itself
 * reaches).
 */
export function batchWorthRewrite(
  trigger: number,
  judged: number,
  freed: number,
  freeAtLeast: number,
  callsSince: number,
  every: number,
): boolean {
  if (judged - freed < trigger) return true;
  if (freed < freeAtLeast) return false;
  return callsSince >= every;
}

//@ verify
//@ ensures \result <==> (summarizes || hardTrigger <= 0 || judged >= hardTrigger)
//@ ensures (hardTrigger > 0 && judged >= hardTrigger) ==> \result
/**
 * Deferred clearing: whether a run's clearing tier clears now. A run that summarizes anyway takes
 * the clearing with it (one prompt-cache re-write for both). A run that would only clear goes
 * now only when clearing alone is due: without it the request itself would be at or over its
 * trigger (`judged >= hardTrigger`; `hardTrigger` <= 0: the run is judged against its own
 * trigger, which fired). Otherwise the clearing waits to ride with the next summarizing run.
 */
export function clearsNow(summarizes: boolean, judged: number, hardTrigger: number): boolean {
  if (summarizes) return true;
  if (hardTrigger <= 0) return true;
  return judged >= hardTrigger;
}
