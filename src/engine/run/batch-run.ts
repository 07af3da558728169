// The summarize and commit stages of a batch run: a planned batch's calls sent (at most
// batch_calls in flight), then its stretches committed in order, each as one step
// (commitAndRecord), and the batch loop that chains them. Input: the run state and a planned
// batch; output: undefined to go on, or a RunEnd. It plans nothing (batch-plan.ts).

import type { StoreView } from "../store/store.ts";
import { summarizeBatch } from "../summarize/summarize-batch.ts";
import type { StepResult } from "../summarize/summarize-step.ts";
import { batchCalls, batchPart, type PlannedBatch, planBatchNext } from "./batch-plan.ts";
import { inFlight, type PlannedStep, type RunEnd, type RunState, stepContext, stepTrigger } from "./run-state.ts";
import { commitAndRecord } from "./step-commit.ts";

/**
 * Summarize a batch: consecutive stretches grouped into calls of at most batch_tokens tokens of
 * stretches (at least one each), at most batch_calls of them in flight; the results in order.
 */
async function summarizeBatchOf(run: RunState, b: PlannedBatch): Promise<(StepResult | undefined)[]> {
  const calls = batchCalls(run, b);
  const results: (StepResult | undefined)[] = new Array(b.stretches.length).fill(undefined);
  const ctx = stepContext(run);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const g = calls[next++];
      const got = await inFlight(run, () =>
        summarizeBatch(
          g.map((k) => batchPart(b, k)),
          ctx,
        ),
      );
      got.forEach((r, i) => {
        results[g[i]] = r;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.c.batch_calls, calls.length) }, worker));
  return results;
}

/**
 * Commit a batch in order, each stretch as one step (commitAndRecord): an accepted summary is
 * spliced in and moves the stretches after it back by what it removed; a rejected or failed one
 * is left as it is, and only a failure ends the run, once the rest is committed. A commit the
 * version check refuses ends it at once. The first commit is checked against the planned view
 * (the await lies between); the next ones against the store as it stands after the one before (a
 * session's store awaits its write, and appends landing meanwhile are rebased over by the kernel's rule).
 */
async function commitBatch(
  run: RunState,
  b: PlannedBatch,
  results: readonly (StepResult | undefined)[],
): Promise<RunEnd | undefined> {
  let shift = 0;
  let planned: StoreView | undefined = b.snap;
  let failed: RunEnd | undefined;
  for (let k = 0; k < b.stretches.length; k++, run.step++) {
    const res = results[k];
    if (res === undefined) continue; // untried: the stop rule fired before it
    const x = b.stretches[k];
    const start = x.start - shift;
    const end = x.end - shift;
    const step: PlannedStep = {
      snap: planned ?? run.store.view(),
      // after a commit, the trigger is read on the store as it stands (a session records the same):
      // "none" once the batch has brought the run under it (reported as a step "to target")
      plan: {
        ...b.plan,
        trigger: planned === undefined ? stepTrigger(run) : b.plan.trigger,
        stretch: { start, end, replacedTokens: x.replacedTokens },
      },
      input: run.positions.range(start, end),
      messages: b.messages[k],
      aged: x.maxTokens !== undefined,
    };
    const stop = await commitAndRecord(run, step, res);
    if (res.ok && stop !== undefined) return stop;
    if (res.ok) {
      shift += x.end - x.start - 1;
      planned = undefined;
    } else failed ??= stop;
  }
  return failed;
}

/** The batch loop: plan a batch → summarize it → commit it in order, until a plan or a commit ends the run. */
export async function batchLoop(run: RunState): Promise<RunEnd> {
  for (;;) {
    const next = planBatchNext(run);
    if (!("stretches" in next)) return next;
    const stop = await commitBatch(run, next, await summarizeBatchOf(run, next));
    if (stop !== undefined) return stop;
  }
}
