// The plan stage of a batch run: the stretches a batch summarizes together (the kernel's
// planBatch, and the old summaries aging adds: planAging), the window it plans under, and how the
// batch is cut into summarizer calls (planCallsOf). Input: the run state; output: a PlannedBatch
// or a RunEnd, and the calls of a planned batch. It sends nothing and commits nothing
// (batch-run.ts does).

import type { Message } from "../../model/message.ts";
import {
  gateAgedBudget,
  gateAgingDue,
  gateBatchWorthRewrite,
  gateKeepRecentCutoff,
  gatePlanAging,
  gatePlanBatch,
  gatePlanFreed,
  gateRangeTokens,
} from "../boundary/kernel-gate.ts";
import { plainArray } from "../store/gap-array.ts";
import type { StoreView } from "../store/store.ts";
import { factTokens, requiredFacts } from "../summarize/facts.ts";
import { type BatchStretch, planCallsOf } from "../summarize/summarize-batch.ts";
import { callsSinceSummary } from "./lawful-floor.ts";
import { type CallFloor, type Plan, planKeep } from "./plan.ts";
import { countOf } from "./plural.ts";
import { callFloor, type RunEnd, type RunState, stepContext, tellState } from "./run-state.ts";
import { noStretchReason, planHead } from "./step-plan.ts";

/** One stretch of a planned batch: a work stretch, or an aged summary [i, i + 1) with its tighter budget. */
interface BatchPart {
  readonly start: number;
  readonly end: number;
  readonly replacedTokens: number;
  /** an aged summary's budget (undefined: a work stretch, max_tokens) */
  readonly maxTokens?: number;
}

/** A batch planned against a view of the store: the disjoint stretches, earliest first, one call (or a few) summarizes. */
export interface PlannedBatch {
  readonly snap: StoreView;
  readonly plan: Plan;
  readonly stretches: readonly BatchPart[];
  readonly messages: readonly (readonly Message[])[];
  /** what the stretches are expected to free, each summary at its budget (planFreed; an aged one at its aged budget) */
  readonly freed: number;
}

/**
 * Whether the run plans batches: batch_tokens > 0, a low-water target to plan toward, and none of
 * what the step machine alone does (a dry run's one plan, maxSteps). keep_recent_tokens' cut is
 * the batch planner's cutoff too (batchWindow).
 */
export function usesBatches(run: RunState): boolean {
  return plansBatches(run) && run.o.dryRun !== true;
}

/** Whether a run under these settings plans batches (a dry run then shows the whole batch plan). */
export function plansBatches(run: RunState): boolean {
  const { c, o } = run;
  return c.batch_tokens > 0 && run.target !== undefined && o.maxSteps === undefined;
}

/**
 * The window a batch plans and ages under: the retention window in these messages, widened with
 * keep_recent_tokens to the kernel's keep-recent cutoff (keepRecentCutoff, L7), so that every
 * planned stretch and aged summary ends before the newest keep_recent_tokens.
 */
export function batchWindow(run: RunState, snap: StoreView): number {
  const n = snap.messages.length;
  const window = run.positions.window(n, run.c.retention_window);
  const keep = run.c.keep_recent_tokens;
  if (keep === null) return window;
  return Math.max(window, n - gateKeepRecentCutoff(plainArray(snap.tokens), window, keep));
}

/**
 * The summaries a batch ages besides its work stretches (kernel: agingDue, planAging, agedBudget):
 * when age_percent > 0, the work plan `flat` (`planned` tokens) frees `freed` of the `need` and
 * summaries hold at least age_share_percent of the context it leaves, the oldest summaries above age_floor_tokens outside the
 * plan that free the rest (not known not to shrink, their required facts strictly under their aged
 * budget: an answer must keep them), each [i, i + 1) with its budget (at most max_tokens).
 */
function agedParts(
  run: RunState,
  snap: StoreView,
  window: number,
  floor: CallFloor,
  flat: readonly number[],
  need: number,
  work: { readonly planned: number; readonly freed: number },
): BatchPart[] {
  const { planned, freed } = work;
  const c = run.c;
  if (c.age_percent === 0) return [];
  const roles = snap.views.roles;
  const tokens = plainArray(snap.tokens);
  let summaryTokens = 0;
  for (let i = 0; i < roles.length; i++) if (roles[i] === "summary") summaryTokens += tokens[i];
  if (!gateAgingDue(summaryTokens, snap.totalTokens, c.age_share_percent, freed, need, planned)) return [];
  // the tokens of each summary's required facts, as its aged answer must keep them (summaries only:
  // planAging ages nothing else)
  const facts = roles.map((r, i) =>
    r === "summary" ? factTokens(requiredFacts([snap.messages[i]], c.anchors), run.store.counter) : 0,
  );
  const at = gatePlanAging(
    roles,
    tokens,
    facts,
    window,
    c.age_floor_tokens,
    floor.shun.starts,
    floor.shun.ends,
    flat,
    need - freed,
    c.age_percent,
  );
  // a budget under one token (a tiny summary at a low age_percent) asks for no summary: left as it is
  return at
    .map((i) => ({
      start: i,
      end: i + 1,
      replacedTokens: tokens[i],
      maxTokens: Math.min(c.max_tokens, gateAgedBudget(tokens[i], c.age_percent)),
    }))
    .filter((x) => x.maxTokens >= 1);
}

/**
 * Plan a batch: the kernel's planBatch over the stretches worth a call, to free what lies between
 * the judged total and the target, and the old summaries aging adds when those stretches fall
 * short (agedParts); at least one of either, or the run ends. Each planned stretch is counted as
 * freeing its tokens less what its summary is expected to keep (planKeep: the budget its prompt
 * states; planBatch's batchFreed, summed by the kernel's planFreed).
 */
export function planBatchNext(run: RunState): PlannedBatch | RunEnd {
  const head = planHead(run, 0);
  if (!("plan" in head)) return head;
  const { snap, plan } = head;
  const window = batchWindow(run, snap);
  const floor = callFloor(run, snap);
  const need = Math.max(1, plan.triggerTokens - (run.target ?? 0));
  const keep = planKeep(run.c);
  // no stretch worth a call from 0 (planStep): planBatch would plan none either
  const flat =
    plan.stretch === undefined
      ? []
      : gatePlanBatch(
          snap.views,
          window,
          snap.tokens,
          floor.floorTokens,
          floor.shun.starts,
          floor.shun.ends,
          need,
          keep.allowance,
          keep.percent,
        );
  const work: BatchPart[] = [];
  for (let k = 0; k + 1 < flat.length; k += 2)
    work.push({
      start: flat[k],
      end: flat[k + 1],
      replacedTokens: gateRangeTokens(snap.tokens, flat[k], flat[k + 1]),
    });
  // planStep found a stretch worth a call from 0, which planBatch plans first: never empty
  if (plan.stretch !== undefined && work.length === 0)
    throw new Error("internal: planBatch planned nothing where planStep found a stretch");
  const freed = gatePlanFreed(snap.tokens, flat, keep.allowance, keep.percent);
  const planned = work.reduce((t, x) => t + x.replacedTokens, 0);
  const aged = agedParts(run, snap, window, floor, flat, need, { planned, freed });
  if (work.length === 0 && aged.length === 0) return { reason: noStretchReason(run, plan) };
  // disjoint (planAging leaves the work stretches out): committed in order of position
  const stretches = [...work, ...aged].sort((a, b) => a.start - b.start);
  const replaced = stretches.reduce((t, x) => t + x.replacedTokens, 0);
  const agedFreed = aged.reduce((t, x) => t + x.replacedTokens - (x.maxTokens ?? 0), 0);
  const spared = sparedRewrite(run, snap, plan, freed + agedFreed);
  if (spared !== undefined) return spared;
  run.counts.planned += stretches.length;
  tellState(run);
  run.progress(
    `step ${run.step}: summarizing ${countOf(stretches.length, "stretch", "stretches")} together${aged.length === 0 ? "" : `, ${countOf(aged.length, "aged summary", "aged summaries")} among them`} (${countOf(replaced, "token")}; total ${snap.totalTokens}; trigger: ${plan.trigger})`,
  );
  return {
    snap,
    plan,
    stretches,
    messages: stretches.map((x) => snap.messages.slice(x.start, x.end)),
    freed: freed + agedFreed,
  };
}

/**
 * A due run's first batch that the kernel's batchWorthRewrite says is not worth the prompt-cache
 * re-write it causes: it would leave the judged count at or over token_threshold (so the next call
 * is due again) and frees under floor_free_tokens, or comes within floor_run_every calls of the
 * last run. The run then ends changing nothing, with the figures; undefined
 * to go on. Only the token threshold is judged so: a run due by the context window (the request
 * would not fit), by messages or turns, or a dry run always goes on.
 */
function sparedRewrite(run: RunState, snap: StoreView, plan: Plan, freed: number): RunEnd | undefined {
  // at or under the lawful floor, the floor's own rule (refusedUnderFloor) has spaced this run already
  if (run.counts.planned !== 0 || !run.dueBefore || run.o.dryRun === true || run.lawfulFloor !== undefined)
    return undefined;
  if (plan.trigger !== "tokens" && plan.trigger !== "reported usage") return undefined;
  const trigger = run.c.token_threshold;
  if (trigger === null) return undefined;
  const judged = plan.triggerTokens;
  const frees = Math.min(judged, Math.max(0, freed));
  const since = callsSinceSummary(snap.messages, snap.views.roles) ?? run.c.floor_run_every;
  if (gateBatchWorthRewrite(trigger, judged, frees, run.c.floor_free_tokens, since, run.c.floor_run_every))
    return undefined;
  const why =
    frees < run.c.floor_free_tokens
      ? `it would free about ${frees}, under floor_free_tokens (${run.c.floor_free_tokens})`
      : `${since} calls since the last run, under floor_run_every (${run.c.floor_run_every})`;
  return {
    reason: `not run: what can be summarized now leaves ${judged - frees} of ${judged} tokens, at or over token_threshold (${trigger}), and every run re-writes the provider's prompt cache from its first change; ${why}`,
  };
}

/**
 * How a batch is cut into calls (index lists into its stretches, in order): consecutive stretches
 * grouped by at most batch_tokens tokens of stretches, at least one each, and each group cut into
 * calls that fit the summarizer's window and output cap (planCallsOf: the kernel's planCalls). The
 * one place that cuts a batch: the run sends these, and a dry run shows them.
 */
export function batchCalls(run: RunState, b: PlannedBatch): number[][] {
  const groups: number[][] = [];
  let size = Number.POSITIVE_INFINITY;
  b.stretches.forEach((x, k) => {
    if (size + x.replacedTokens > run.c.batch_tokens) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push(k);
    size += x.replacedTokens;
  });
  const ctx = stepContext(run);
  return groups.flatMap((g) =>
    planCallsOf(
      g.map((k) => batchPart(b, k)),
      ctx,
    ).map((c) => c.map((i) => g[i])),
  );
}

/** The batch part a summarizer call is given for stretch `k` of a batch. */
export function batchPart(b: PlannedBatch, k: number): BatchStretch {
  return {
    messages: b.messages[k],
    replacedTokens: b.stretches[k].replacedTokens,
    ...(b.stretches[k].maxTokens === undefined ? {} : { agedBudget: b.stretches[k].maxTokens }),
  };
}
