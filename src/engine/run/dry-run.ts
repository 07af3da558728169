// A dry run's whole plan: the batch the run would plan first (on a copy of the store with clearing
// applied, when clearing would clear something), the calls that would send it with their token
// sizes, the total it would leave, and whether it would end still due. Input: the run state;
// output: a RunEnd carrying the PlannedRun. It summarizes nothing and changes no message of the store.

import type { ReportedPrefix } from "../../kernel/trigger.ts";
import { ConversationStore, type StoreOptions } from "../store/store.ts";
import { KNOWN, type KnownOption } from "../store/store-known.ts";
import { callSize } from "../summarize/summarize-batch.ts";
import { batchCalls, batchPart, planBatchNext } from "./batch-plan.ts";
import { dueBy } from "./plan.ts";
import { countOf } from "./plural.ts";
import { type PlannedRun, stepTriggerOf } from "./report.ts";
import { type RunEnd, type RunState, span, stepContext } from "./run-state.ts";

/**
 * A dry run's whole plan: the batch the run would plan first (after what clearing would free,
 * planned on a copy of the store with clearing applied), the calls that would send it (each
 * summarizer call of a batch, or one per stretch for a summarizer without batches), and the total
 * it would leave with each summary at its budget; whether the run would then still be due.
 */
export async function dryRunBatch(run: RunState): Promise<RunEnd> {
  const shadow = clearedCopy(run);
  // planned quietly: nothing is summarizing
  const quiet = { ...run, progress: () => {} };
  const planning: RunState = shadow === undefined ? quiet : { ...quiet, store: shadow.store, usage: shadow.usage };
  const b = planBatchNext(planning);
  // a run that was due but would summarize nothing (clearing alone would do, say): still a dry run's plan
  if (!("stretches" in b))
    return run.dueBefore && !run.clearing.only && shadow !== undefined
      ? { ...b, reason: `${run.clearing.report?.reason}, then summarize nothing: ${b.reason}`, dryRunPlanned: true }
      : b;
  const ctx = stepContext(planning);
  const single = run.o.summarizer.summarizeBatch === undefined;
  const calls = batchCalls(planning, b)
    .flatMap((g) => (single ? g.map((k) => [k]) : [g]))
    .map((g) => ({
      stretches: g,
      ...callSize(
        g.map((k) => batchPart(b, k)),
        ctx,
      ),
    }));
  const { positions } = run;
  const stretches = b.stretches.map((x) => ({
    input: positions.range(x.start, x.end),
    replacedTokens: x.replacedTokens,
    ...(x.maxTokens === undefined ? {} : { aged: true as const }),
  }));
  const expected = Math.max(0, b.plan.triggerTokens - b.freed);
  const removed = stretches.reduce((t, x) => t + x.input.last - x.input.first, 0);
  const store = planning.store;
  const stillDueBy = dueBy(
    run.c,
    expected,
    positions.items(store.messages.length) - removed,
    store.userTurns,
    planning.usage !== undefined,
  );
  const plan: PlannedRun = {
    model: run.model,
    summarizer: run.o.summarizer.name,
    trigger: stepTriggerOf(b.plan.trigger),
    tokens: b.plan.triggerTokens,
    target: run.target ?? 0,
    stretches,
    calls,
    expectedTokensAfter: expected,
    stillDueBy,
  };
  const first = b.stretches[0];
  const outputTokens = calls.reduce((t, c) => t + c.outputTokens, 0);
  const inputTokens = calls.reduce((t, c) => t + c.inputTokens, 0);
  return {
    planned: { ...first, input: stretches[0].input, trigger: stepTriggerOf(b.plan.trigger) },
    wholePlan: plan,
    reason: `would summarize ${countOf(stretches.length, "stretch", "stretches")} (first: messages ${span(stretches[0].input)}, ${countOf(stretches[0].input.last - stretches[0].input.first + 1, "message")}) in ${countOf(calls.length, "call")} to ${run.model} (${countOf(inputTokens, "token")} in, up to ${countOf(outputTokens, "token")} out), leaving about ${expected} tokens (target ${plan.target})${stillDueBy === "none" ? "" : `: would end still due (${stillDueBy})`}`,
  };
}

/**
 * A dry run whose clearing would clear something: a copy of the store with it cleared (the dry run
 * plans on it), and the usage it carries. The clearing is the one the dry run's clearing tier
 * chose (ClearingStep.wouldClear: the replacements a run would commit, the usage it would carry),
 * committed on the copy as clearFirst would commit it there, without asking the selection again.
 */
function clearedCopy(run: RunState): { store: ConversationStore; usage: ReportedPrefix | undefined } | undefined {
  const would = run.clearing.wouldClear;
  if (run.c.strategy === "summarize" || run.clearing.only || would === undefined) return undefined;
  const copy = copyOf(run.store);
  if (copy.commitClearing(copy.view(), would.replaced).decision !== "commit")
    throw new Error("internal: a dry run's copy refused the clearing its store would commit");
  return { store: copy, usage: would.usage };
}

/**
 * A new store with `store`'s messages and unshrinkable memory: what `new ConversationStore(counter,
 * store.messageList(), { unshrinkable })` holds, its token and byte counts taken from `store`'s
 * when every message is counted (else counted so). The copy checks and indexes the messages as
 * any load does; no later change of one reaches the other.
 */
function copyOf(store: ConversationStore): ConversationStore {
  const options: StoreOptions = { unshrinkable: store.unshrinkable };
  if (store.uncounted === 0) {
    const known: StoreOptions & KnownOption = {
      ...options,
      [KNOWN]: { tokens: store.tokenCounts(), bytes: store.countedBytes() },
    };
    return new ConversationStore(store.counter, store.messageList(), known);
  }
  return new ConversationStore(store.counter, store.messageList(), options);
}
