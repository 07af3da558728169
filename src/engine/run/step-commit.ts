// The summarize and commit stages of the step machine: one planned stretch summarized (the only
// await of a step), then committed through the store's version check and recorded in the run
// state (replaced, left unchanged, or why the run ends), and the step loop that chains plan ->
// summarize -> commit. Input: the run state and a planned step; output: undefined to go on, or a
// RunEnd. It plans nothing itself (step-plan.ts) and builds no report (run-report.ts).

import { summaryMessage } from "../../model/message.ts";
import { gateUsageAfterSplice } from "../boundary/kernel-gate.ts";
import { agedMarker } from "../store/summary-marks.ts";
import { type StepResult, summarizeStretch } from "../summarize/summarize-step.ts";
import { countOf } from "./plural.ts";
import { stepTriggerOf } from "./report.ts";
import { inFlight, type PlannedStep, type RunEnd, type RunState, span, stepContext, tellState } from "./run-state.ts";
import { planNext } from "./step-plan.ts";

/** Summarize: the stretch's summary, validated (the only await of a step). */
async function summarize(run: RunState, p: PlannedStep): Promise<StepResult> {
  return inFlight(run, () => summarizeStretch(p.messages, p.plan.stretch.replacedTokens, stepContext(run)));
}

/** Commit and record: applies an accepted summary through the version check, or records why the step changed nothing. */
export async function commitAndRecord(run: RunState, p: PlannedStep, res: StepResult): Promise<RunEnd | undefined> {
  const { start, end, replacedTokens } = p.plan.stretch;
  const step = run.step;
  run.summarizerCalls += res.attempts;
  run.counts.done++;
  // told after the step's own record (a finally: every way out of this function)
  try {
    return await recordStep(run, p, res, start, end, replacedTokens, step);
  } finally {
    tellState(run);
  }
}

/** commitAndRecord's body: the step's record, or why it ends the run. */
async function recordStep(
  run: RunState,
  p: PlannedStep,
  res: StepResult,
  start: number,
  end: number,
  replacedTokens: number,
  step: number,
): Promise<RunEnd | undefined> {
  run.rejectedInARow = res.rejectedInARow;
  if (!res.ok && res.failure === "rejected") {
    // This stretch stays as it is; later stretches may still be summarized (L4: forward only).
    run.skipped.push({ input: p.input, start, end, replacedTokens, reason: res.reason, attempts: res.attempts });
    run.left.push({ input: p.input, reason: res.reason, cannotShrink: res.cannotShrink });
    run.progress(`step ${step}: left messages ${span(p.input)} unchanged: ${res.reason}`);
    // no later run pays for it again while it is unchanged (the kernel's worthACall reads the memory)
    if (res.cannotShrink) run.store.unshrinkable.add(start, end, p.messages);
    else run.passed.add(start, end, p.messages);
    if (res.stopsRun)
      return {
        reason: "",
        stopped: `stopped after ${countOf(run.rejectedInARow, "summary", "summaries")} in a row failed validation (max_rejected_summaries), conversation left unchanged since the last accepted one; last: ${res.reason}`,
      };
    run.skipFrom = end;
    run.from = end;
    return undefined;
  }
  if (!res.ok) {
    run.passed.add(start, end, p.messages);
    run.progress(`step ${step}: degraded: ${res.reason}`);
    return {
      reason: "",
      stopped: `summarizing messages ${span(p.input)} failed after ${res.attempts} attempt(s), conversation left unchanged by this step: ${res.reason}`,
      ...(res.failed === undefined ? {} : { failure: res.failed }),
    };
  }
  // computed on the counts before the splice, which changes them in place; res.tokens is the
  // summary message's count with the store's counter, as the store will count it
  const nextUsage =
    run.usage === undefined ? undefined : gateUsageAfterSplice(run.usage, p.snap.tokens, start, end, res.tokens);
  // awaited: a session's store decides and writes where its data lives; an aged summary's marker
  // counts how often it was aged, and travels with it
  const marker = p.aged === true ? agedMarker(p.messages[0]) : undefined;
  const summary = summaryMessage(res.text, marker);
  const commit = await run.store.commitSpliceAsync(p.snap, start, end, summary);
  if (commit.decision === "reject")
    return {
      reason: "",
      superseded:
        "another writer committed first (a compaction or an edit, not only appends, while this step was summarizing): the step was not applied and the run stopped; the conversation is as that writer left it",
    };
  run.passed.afterSplice(start, end);
  // the summary this run just wrote is not asked for again in this run: aging it now would
  // re-summarize what the same run wrote a moment ago (a call that frees a few tokens of churn)
  run.passed.add(start, start + 1, [summary]);
  // {0, 0}: no reported tokens are left in the judged count, which is then the counted total
  run.usage = nextUsage !== undefined && (nextUsage.reported > 0 || nextUsage.end > 0) ? nextUsage : undefined;
  // "rebase": messages were appended while summarizing and may have answered an ongoing call
  // before `start`, so a stretch may now start earlier: plan again from skipFrom
  run.from = commit.decision === "commit" ? start : run.skipFrom;
  run.stretches.push({
    start,
    end,
    replacedMessages: end - start,
    replacedTokens,
    summaryTokens: res.tokens,
    attempts: res.attempts,
    decision: commit.decision,
    summary: res.text,
    input: run.positions.splice(start, end),
    trigger: stepTriggerOf(p.plan.trigger),
    ...(p.aged === true ? { aged: true as const } : {}),
    ...(marker === undefined ? {} : { marker }),
  });
  run.progress(
    `step ${step}: replaced ${replacedTokens} tokens by a ${res.tokens}-token summary; total now ${run.store.totalTokens}`,
  );
  return undefined;
}

/** The step loop: plan → summarize → commit and record, one stretch at a time, until a step ends the run. */
export async function stepLoop(run: RunState): Promise<RunEnd> {
  for (; ; run.step++) {
    const next = planNext(run);
    if (!("plan" in next)) return next;
    const stop = await commitAndRecord(run, next, await summarize(run, next));
    if (stop !== undefined) return stop;
  }
}
