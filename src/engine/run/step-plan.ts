// The plan stage of the step machine: the next stretch to summarize against a fresh read-only
// view of the store (planStep through plan.ts), or why the run ends here (not due, under the
// low-water target, nothing eligible, maxSteps, a dry run's one plan). Input: the run state;
// output: a PlannedStep or a RunEnd. It calls no summarizer and changes no message (only the run's
// counts and its `summarizes` decision at the first plan).

import { gateRunContinues, gateSummarizesAfterClearing } from "../boundary/kernel-gate.ts";
import type { StoreView } from "../store/store.ts";
import { NOT_DUE_REASON } from "./not-due-report.ts";
import { type Plan, planStep } from "./plan.ts";
import { countOf } from "./plural.ts";
import { stepTriggerOf } from "./report.ts";
import { callFloor, type PlannedStep, type RunEnd, type RunState, span, tellState } from "./run-state.ts";

/**
 * The low-water rule: does the run take another step? While it is due, always (L1); below the
 * trigger, while the kernel's runContinues says so (the run summarizes, the total judged is above
 * the target). Whether it summarizes is decided at the first plan: when due then, or by the
 * kernel's summarizesAfterClearing from the run's start (before the clearing tier) and the total
 * clearing left.
 */
function runGoesOn(run: RunState, plan: Plan): boolean {
  if (run.step === 1)
    run.summarizes =
      run.target === undefined
        ? plan.due
        : gateSummarizesAfterClearing(run.dueBefore, plan.due, plan.triggerTokens, run.target);
  if (plan.due) return true;
  return run.target !== undefined && gateRunContinues(run.summarizes, plan.triggerTokens, run.target);
}

/** Why a run that planned `plan` ends without a stretch to summarize. */
export function noStretchReason(run: RunState, plan: Plan): string {
  if (plan.due)
    return "compaction is due but no stretch is eligible (only user/system messages, ongoing tool calls, the retention window, keep_recent_tokens, stretches not worth a call (min_stretch_tokens, known not to shrink) or skipped stretches remain)";
  return `under the trigger; no stretch worth a call is left above the target (${run.target} tokens)`;
}

/** A plan against a fresh view of the store, with its first stretch; or why the run ends here. */
function planFirst(run: RunState, from: number): { snap: StoreView; plan: PlannedStep["plan"] } | RunEnd {
  const head = planHead(run, from);
  if (!("plan" in head)) return head;
  const stretch = head.plan.stretch;
  if (stretch === undefined) return { reason: noStretchReason(run, head.plan) };
  return { snap: head.snap, plan: { ...head.plan, stretch } };
}

/** A plan against a fresh view of the store, with or without a stretch worth a call; or why the run ends here (not going on). */
export function planHead(run: RunState, from: number): { snap: StoreView; plan: Plan } | RunEnd {
  const { store, c, positions } = run;
  // not due at the start: no plan (a plan reads counts the trigger did not need, e.g. the
  // keep-recent suffix's), and no view either (a view builds the kernel views no one reads then)
  if ((run.step === 1 && !run.dueBefore) || run.clearing.only) return endsHere(run);
  // a read-only view, not a copy: it is used before the await and stamped for the commit
  const snap = store.view();
  // the window and message_threshold count the caller's items; the kernel sees counts of these messages
  const length = snap.messages.length;
  const plan = planStep(
    snap,
    c,
    from,
    positions.window(length, c.retention_window),
    positions.items(length),
    run.usage,
    callFloor(run, snap),
  );
  if (!runGoesOn(run, plan)) return endsHere(run);
  return { snap, plan };
}

/** Why a run that takes no further step ends (nothing replaced: not due; otherwise under the trigger or the target). */
function endsHere(run: RunState): RunEnd {
  return {
    reason:
      run.stretches.length === 0
        ? NOT_DUE_REASON
        : run.target === undefined
          ? "under the trigger"
          : `at or under the target (${run.target} tokens)`,
  };
}

/** Plan: the next stretch to summarize, or why the run ends here. */
export function planNext(run: RunState): PlannedStep | RunEnd {
  const { o, positions } = run;
  const first = planFirst(run, run.from);
  if (!("plan" in first)) return first;
  const { snap, plan } = first;
  const stretch = plan.stretch;
  const input = positions.range(stretch.start, stretch.end);
  const count = input.last - input.first + 1;
  if (o.dryRun)
    return {
      planned: { ...stretch, input, trigger: stepTriggerOf(plan.trigger) },
      reason: `would summarize messages ${span(input)} (${count} messages, ${stretch.replacedTokens} tokens; trigger: ${plan.trigger})`,
    };
  const maxSteps = o.maxSteps ?? Number.POSITIVE_INFINITY;
  if (run.step > maxSteps) return { reason: `stopped after ${maxSteps} steps (the maxSteps option)` };
  run.counts.planned++;
  tellState(run);
  run.progress(
    `step ${run.step}: summarizing messages ${span(input)} (${countOf(count, "message")}, ${countOf(stretch.replacedTokens, "token")}; total ${snap.totalTokens}; trigger: ${plan.trigger})`,
  );
  return { snap, plan, input, messages: snap.messages.slice(stretch.start, stretch.end) };
}
