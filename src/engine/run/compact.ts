// The compaction run, as a small step machine over an explicit run state (RunState): plan a
// step against a read-only view of the store, summarize the stretch (and validate), commit
// through the version check, record what the step did; stop when under the trigger or when no
// stretch is eligible. A stretch whose summaries are rejected (not shorter, facts dropped) is
// left as it is and the run moves on past it, until the kernel's stop rule says
// max_rejected_summaries were rejected in a row; a summarizer that fails to answer, or a
// concurrent edit, ends the run. The clearing tier (clearing.ts, L13) runs once before the
// first plan when the strategy asks for it. Either way a failed step changes nothing and the report says
// why. The outcome is a pure classification of what the run did (outcome.ts), and the laws are
// checked on the result (law-checks.ts).

import type { ReportedPrefix } from "../../kernel/trigger.ts";
import type { SummarizerFailure } from "../../model/call-failure.ts";
import { type Config, SAME_AS_AGENT, snapshotConfig, summaryModel } from "../../model/config.ts";
import { type Message, summaryMessage } from "../../model/message.ts";
import type { ModelLimitsReport } from "../../model/model-limits.ts";
import type { Summarizer } from "../../model/summarizer.ts";
import { messageTokens } from "../../model/tokens.ts";
import { assertParsedConfig, configForRun, configWithLimits } from "../boundary/config-rules.ts";
import {
  gateAgedBudget,
  gateAgingDue,
  gateBatchWorthRewrite,
  gateKeepRecentCutoff,
  gatePlanAging,
  gatePlanBatch,
  gatePlanFreed,
  gateRangeTokens,
  gateRetentionCutoff,
  gateRunContinues,
  gateSummarizesAfterClearing,
  gateUsageAfterSplice,
  gateUsageTokens,
} from "../boundary/kernel-gate.ts";
import { plainArray } from "../store/gap-array.ts";
import { ConversationStore, type StoreView } from "../store/store.ts";
import { agedMarker, rememberMarkers } from "../store/summary-marks.ts";
import { UnshrinkableMemory } from "../store/unshrinkable.ts";
import { factTokens, requiredFacts } from "../summarize/facts.ts";
import { type BatchStretch, callSize, planCallsOf, summarizeBatch } from "../summarize/summarize-batch.ts";
import { type StepContext, type StepResult, summarizeStretch } from "../summarize/summarize-step.ts";
import { type ClearingStep, clearFirst, withClearing } from "./clearing.ts";
import { type ItemMap, itemMapOf } from "./item-map.ts";
import { checkLaws } from "./law-checks.ts";
import { callsSinceSummary, floorRefusal, lawfulFloorOf, tokenTrigger } from "./lawful-floor.ts";
import { NOT_DUE_REASON } from "./not-due-report.ts";
import { classifyRun, type LeftStretch } from "./outcome.ts";
import { type CallFloor, dueBy, type Plan, planKeep, planStep, targetTokens } from "./plan.ts";
import { countOf } from "./plural.ts";
import { InputPositions, type InputRange } from "./positions.ts";
import type {
  CompactionReport,
  LawCheck,
  LawfulFloorReport,
  PlannedRun,
  RemainingTokens,
  ReplacedStretch,
  SkippedStretch,
  UsageReport,
} from "./report.ts";
import { callTotals, type RecordingSummarizer, type RunHooks, recordingSummarizer } from "./run-hooks.ts";
import { assertReportedPrefix, assertReportFitsSteps, assertReportJudgeable } from "./usage.ts";

/** Where a run stands (CompactOptions.onState). */
export interface RunProgress {
  /** stretches summarized or left unchanged so far */
  readonly stretchesDone: number;
  /** stretches planned so far (a batch adds all of its own when planned) */
  readonly stretchesPlanned: number;
  /** summarizer calls sent and not yet answered */
  readonly callsInFlight: number;
  /** the counted total before the run, now, and the low-water target (undefined: none) */
  readonly tokensBefore: number;
  readonly tokensNow: number;
  readonly target: number | undefined;
}

/** Options of a compaction run. */
export interface CompactOptions {
  readonly summarizer: Summarizer;
  /** the agent's model, used when the configured model is "same as agent" */
  readonly agentModel?: string;
  readonly signal?: AbortSignal;
  /** progress lines for long runs */
  readonly onProgress?: (line: string) => void;
  /** where the run stands, told at each change (a stretch planned or done, a call sent or answered): for a progress display */
  readonly onState?: (state: RunProgress) => void;
  /** plan the first step and stop, changing nothing */
  readonly dryRun?: boolean;
  /**
   * stop after this many summarizer steps (default: no limit; each accepted step lowers the token
   * total, so the loop ends anyway: L8). A run stopped by it while still due ends `compacted-still-due`.
   */
  readonly maxSteps?: number;
  /**
   * a token count the provider reported for the store's first `end` messages: the trigger judges
   * it plus the counts of the messages after it instead of the counted total (L1 with usage).
   * After each step it is adjusted by the kernel's usageAfterSplice (see README, "Reported usage").
   */
  readonly usage?: ReportedPrefix;
  /**
   * the caller's items (item-map.ts): message_threshold, retention_window and the report count
   * them; default: from the messages' sources (one item per message, an Anthropic message one)
   */
  readonly items?: ItemMap;
  /** hooks before a run that is due (instructions, cancel), after it, and on failure (run-hooks.ts) */
  readonly hooks?: RunHooks;
  /**
   * the model limits, when the caller resolved them already for this configuration and these
   * models (configForRun: a session judges its trigger with them before the run); default: resolved here
   */
  readonly limits?: ModelLimitsReport;
  /**
   * the token count at which the request itself is over its trigger, when this run is judged
   * against an earlier one (a background run at soft_token_threshold): a clearing that alone would
   * do waits under it for the next summarizing run (deferred clearing); default: none
   */
  readonly hardTrigger?: number;
}

/** Whether a summarizer sends its requests to a model with limits (every one but the offline summarizer). */
export function summarizerCallsModel(s: Summarizer): boolean {
  return s.name !== "offline";
}

/**
 * The configuration a caller's trigger checks judge with before a run: `c` with the model limits
 * the run will resolve (configForRun), for the agent's model and the caller's summarizer (none:
 * the one the settings name, which calls a model unless the provider is offline).
 */
export function judgedConfig(c: Config, agentModel: string | undefined, summarizer: Summarizer | undefined): Config {
  return configForRun(c, {
    ...(agentModel === undefined ? {} : { agentModel }),
    summarizerCallsModel: summarizer === undefined ? c.provider !== "offline" : summarizerCallsModel(summarizer),
  }).config;
}

/** The model summaries are requested from. */
function resolveModel(c: Config, agentModel: string | undefined): string {
  return summaryModel(c.model, agentModel) ?? SAME_AS_AGENT;
}

/** Where the tokens of a conversation that is still due are (the last `retention_window` messages first). */
function remainingTokens(store: ConversationStore, c: Config, positions: InputPositions): RemainingTokens {
  // plain copies: one pass over every message, cheaper than reading the store's live view
  const { messages: ms, tokens: counts } = store.snapshot();
  // the retention window in the caller's items, cut where the kernel cuts it (L3)
  const windowStart = gateRetentionCutoff(ms.length, positions.window(ms.length, c.retention_window));
  let userSystem = 0;
  let summaries = 0;
  let retentionWindow = 0;
  let other = 0;
  for (let i = 0; i < ms.length; i++) {
    const role = ms[i].role;
    if (i >= windowStart) retentionWindow += counts[i];
    else if (role === "user" || role === "system") userSystem += counts[i];
    else if (role === "summary") summaries += counts[i];
    else other += counts[i];
  }
  return { userSystem, summaries, retentionWindow, other };
}

/** What the report says of a run given reported usage: the counts the trigger judged, and whether the report still counts. */
function usageReport(
  given: ReportedPrefix,
  left: ReportedPrefix | undefined,
  before: number,
  after: number,
): UsageReport {
  return {
    reportedTokens: given.reported,
    judgedTokensBefore: before,
    judgedTokensAfter: after,
    dropped: left === undefined,
  };
}

/** A run between two steps: everything a step reads and the record of what the run did. */
interface RunState {
  readonly store: ConversationStore;
  readonly c: Readonly<Config>;
  readonly o: CompactOptions;
  /** the model limits the run used (the catalogue's, or the settings'), already in `c` */
  readonly limits: ModelLimitsReport;
  readonly model: string;
  readonly progress: (line: string) => void;
  /** counts for onState: stretches planned, stretches done, calls in flight, and the total before */
  readonly counts: { planned: number; done: number; inFlight: number; readonly tokensBefore: number };
  /** counts and report positions in the caller's items, whatever earlier splices did */
  readonly positions: InputPositions;
  readonly dueBefore: boolean;
  /** the low-water target: a run that was due goes on while the judged total is above it (undefined: while due) */
  readonly target: number | undefined;
  /**
   * whether the run summarizes, decided at its first plan: the low-water rule's start. Due then;
   * or, after the clearing tier brought a due run under the trigger, the kernel's
   * summarizesAfterClearing (still above the target: summarized the rest of the way down)
   */
  summarizes: boolean;
  /** the report the trigger judges (undefined: the counted total); carried across every step */
  usage: ReportedPrefix | undefined;
  step: number;
  /** summaries in a row that failed validation (the kernel's stop rule reads it) */
  rejectedInARow: number;
  /** every call of the summarizer (an HTTP request each), retries included */
  summarizerCalls: number;
  /** what the clearing tier did before the first plan; `only`: the strategy never summarizes */
  clearing: ClearingStep;
  /** stretches this run left unchanged (rejected answers, failed calls), moved along by its splices */
  readonly passed: UnshrinkableMemory;
  /** stretches before it were tried and rejected; no plan looks before it */
  skipFrom: number;
  /**
   * where the next plan starts: skipFrom, or the start of the stretch just committed, since after
   * a splice nothing eligible starts before it (kernel lemma ForwardProgress, L4)
   */
  from: number;
  readonly stretches: ReplacedStretch[];
  readonly skipped: SkippedStretch[];
  readonly left: LeftStretch[];
  /** set when the run was due with its token trigger at or under the lawful floor */
  lawfulFloor?: LawfulFloorReport;
}

/** Why a run ended: `reason` when nothing failed, `stopped` when a failure ended it, `superseded` when another writer's change did, `planned` for a dry run. */
interface RunEnd {
  readonly reason: string;
  readonly stopped?: string;
  readonly superseded?: string;
  /** a summarizer that failed to answer ended the run: what failed */
  readonly failure?: SummarizerFailure;
  readonly planned?: NonNullable<CompactionReport["plannedStretch"]>;
  /** a dry run that plans batches: the whole plan */
  readonly wholePlan?: PlannedRun;
  /** a dry run that was due planned to summarize nothing (clearing alone would do) */
  readonly dryRunPlanned?: true;
}

/** A step planned against a view of the store: the stretch to summarize. */
interface PlannedStep {
  readonly snap: StoreView;
  readonly plan: Plan & { readonly stretch: NonNullable<Plan["stretch"]> };
  readonly input: InputRange;
  /** the stretch's messages, copied when planned */
  readonly messages: readonly Message[];
  /** an aging step: one old summary re-summarized in place under a tighter budget (aging.ts) */
  readonly aged?: boolean;
}

/**
 * What a stretch must pass to be worth a call: the min_stretch_tokens floor, not be known not to
 * shrink, and not have been left unchanged earlier in this run.
 */
function callFloor(run: RunState, snap: StoreView): CallFloor {
  const known = run.store.unshrinkable.bounds(snap.messages);
  const passed = run.passed.bounds(snap.messages);
  return {
    floorTokens: run.c.min_stretch_tokens,
    shun: { starts: [...known.starts, ...passed.starts], ends: [...known.ends, ...passed.ends] },
  };
}

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
function noStretchReason(run: RunState, plan: Plan): string {
  if (plan.due)
    return "compaction is due but no stretch is eligible (only user/system messages, ongoing tool calls, the retention window, keep_recent_tokens, stretches not worth a call (min_stretch_tokens, known not to shrink) or skipped stretches remain)";
  return `under the trigger; no stretch worth a call is left above the low-water target (${run.target} tokens)`;
}

const span = (r: InputRange) => `${r.first}..${r.last}`;

/** A plan against a fresh view of the store, with its first stretch; or why the run ends here. */
function planFirst(run: RunState, from: number): { snap: StoreView; plan: PlannedStep["plan"] } | RunEnd {
  const head = planHead(run, from);
  if (!("plan" in head)) return head;
  const stretch = head.plan.stretch;
  if (stretch === undefined) return { reason: noStretchReason(run, head.plan) };
  return { snap: head.snap, plan: { ...head.plan, stretch } };
}

/** A plan against a fresh view of the store, with or without a stretch worth a call; or why the run ends here (not going on). */
function planHead(run: RunState, from: number): { snap: StoreView; plan: Plan } | RunEnd {
  const { store, c, positions } = run;
  // a read-only view, not a copy: it is used before the await and stamped for the commit
  const snap = store.view();
  // the window and message_threshold count the caller's items; the kernel sees counts of these messages
  const length = snap.messages.length;
  // not due at the start: no plan (a plan reads counts the trigger did not need, e.g. the keep-recent suffix's)
  const plan =
    (run.step === 1 && !run.dueBefore) || run.clearing.only
      ? undefined
      : planStep(
          snap,
          c,
          from,
          positions.window(length, c.retention_window),
          positions.items(length),
          run.usage,
          callFloor(run, snap),
        );
  if (plan === undefined || !runGoesOn(run, plan))
    return {
      reason:
        run.stretches.length === 0
          ? NOT_DUE_REASON
          : run.target === undefined
            ? "under the trigger"
            : `at or under the low-water target (${run.target} tokens)`,
    };
  return { snap, plan };
}

/** Plan: the next stretch to summarize, or why the run ends here. */
function planNext(run: RunState): PlannedStep | RunEnd {
  const { o, positions } = run;
  const first = planFirst(run, run.from);
  if (!("plan" in first)) return first;
  const { snap, plan } = first;
  const stretch = plan.stretch;
  const input = positions.range(stretch.start, stretch.end);
  const count = input.last - input.first + 1;
  if (o.dryRun)
    return {
      planned: { ...stretch, input, trigger: plan.trigger },
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

/** What a summarization needs from the run: settings, summarizer, counter, model, signal and the rejection streak. */
function stepContext(run: RunState): StepContext {
  return {
    config: run.c,
    summarizer: run.o.summarizer,
    counter: run.store.counter,
    model: run.model,
    signal: run.o.signal,
    rejectedInARow: run.rejectedInARow,
  };
}

/** Summarize: the stretch's summary, validated (the only await of a step). */
async function summarize(run: RunState, p: PlannedStep): Promise<StepResult> {
  return inFlight(run, () => summarizeStretch(p.messages, p.plan.stretch.replacedTokens, stepContext(run)));
}

/** Tells onState where the run stands. */
function tellState(run: RunState): void {
  const tell = run.o.onState;
  if (tell === undefined) return;
  const k = run.counts;
  tell({
    stretchesDone: k.done,
    stretchesPlanned: k.planned,
    callsInFlight: k.inFlight,
    tokensBefore: k.tokensBefore,
    tokensNow: run.store.totalTokens,
    target: run.target,
  });
}

/** Runs one summarizer request (a call, with its retries) counted in flight for onState. */
async function inFlight<T>(run: RunState, call: () => Promise<T>): Promise<T> {
  run.counts.inFlight++;
  tellState(run);
  try {
    return await call();
  } finally {
    run.counts.inFlight--;
    tellState(run);
  }
}

/** Commit and record: applies an accepted summary through the version check, or records why the step changed nothing. */
async function commitAndRecord(run: RunState, p: PlannedStep, res: StepResult): Promise<RunEnd | undefined> {
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
    trigger: p.plan.trigger,
    ...(p.aged === true ? { aged: true as const } : {}),
    ...(marker === undefined ? {} : { marker }),
  });
  run.progress(
    `step ${step}: replaced ${replacedTokens} tokens by a ${res.tokens}-token summary; total now ${run.store.totalTokens}`,
  );
  return undefined;
}

/** One stretch of a planned batch: a work stretch, or an aged summary [i, i + 1) with its tighter budget. */
interface BatchPart {
  readonly start: number;
  readonly end: number;
  readonly replacedTokens: number;
  /** an aged summary's budget (undefined: a work stretch, max_tokens) */
  readonly maxTokens?: number;
}

/** A batch planned against a view of the store: the disjoint stretches, earliest first, one call (or a few) summarizes. */
interface PlannedBatch {
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
function usesBatches(run: RunState): boolean {
  return plansBatches(run) && run.o.dryRun !== true;
}

/** Whether a run under these settings plans batches (a dry run then shows the whole batch plan). */
function plansBatches(run: RunState): boolean {
  const { c, o } = run;
  return c.batch_tokens > 0 && run.target !== undefined && o.maxSteps === undefined;
}

/**
 * The window a batch plans and ages under: the retention window in these messages, widened with
 * keep_recent_tokens to the kernel's keep-recent cutoff (keepRecentCutoff, L7), so that every
 * planned stretch and aged summary ends before the newest keep_recent_tokens.
 */
function batchWindow(run: RunState, snap: StoreView): number {
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
function planBatchNext(run: RunState): PlannedBatch | RunEnd {
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
function batchCalls(run: RunState, b: PlannedBatch): number[][] {
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
function batchPart(b: PlannedBatch, k: number): BatchStretch {
  return {
    messages: b.messages[k],
    replacedTokens: b.stretches[k].replacedTokens,
    ...(b.stretches[k].maxTokens === undefined ? {} : { agedBudget: b.stretches[k].maxTokens }),
  };
}

/**
 * A dry run's whole plan: the batch the run would plan first (after what clearing would free,
 * planned on a copy of the store with clearing applied), the calls that would send it (each
 * summarizer call of a batch, or one per stretch for a summarizer without batches), and the total
 * it would leave with each summary at its budget; whether the run would then still be due.
 */
async function dryRunBatch(run: RunState): Promise<RunEnd> {
  const shadow = await clearedCopy(run);
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
    trigger: b.plan.trigger,
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
    planned: { ...first, input: stretches[0].input, trigger: b.plan.trigger },
    wholePlan: plan,
    reason: `would summarize ${countOf(stretches.length, "stretch", "stretches")} (first: messages ${span(stretches[0].input)}, ${countOf(stretches[0].input.last - stretches[0].input.first + 1, "message")}) in ${countOf(calls.length, "call")} to ${run.model} (${countOf(inputTokens, "token")} in, up to ${countOf(outputTokens, "token")} out), leaving about ${expected} tokens (target ${plan.target})${stillDueBy === "none" ? "" : `: would end still due (${stillDueBy})`}`,
  };
}

/** A dry run whose clearing would clear something: a copy of the store with it cleared (the dry run plans on it), and the usage it carries. */
async function clearedCopy(
  run: RunState,
): Promise<{ store: ConversationStore; usage: ReportedPrefix | undefined } | undefined> {
  const { store } = run;
  if (run.c.strategy === "summarize" || run.clearing.only || !run.clearing.report?.reason.startsWith("would clear"))
    return undefined;
  const copy = new ConversationStore(store.counter, store.messageList(), { unshrinkable: store.unshrinkable });
  const cleared = await clearFirst(copy, run.c, run.positions, run.usage, false);
  return { store: copy, usage: cleared.usage };
}

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
      // "none" once the batch has brought the run under it (a low-water step)
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

/**
 * The trigger reached on the store as it stands (the judged count, the caller's items), "none"
 * under every one: after a batch's commit, for the before hook, and for the report's end state.
 * `judged`: the store's judged total, when the caller has it already.
 */
function stepTrigger(run: RunState, judged = judgedTokens(run.store, run.usage)): Plan["trigger"] {
  const { store } = run;
  return dueBy(run.c, judged, run.positions.items(store.messages.length), store.userTurns, run.usage !== undefined);
}

/** The batch loop: plan a batch → summarize it → commit it in order, until a plan or a commit ends the run. */
async function batchLoop(run: RunState): Promise<RunEnd> {
  for (;;) {
    const next = planBatchNext(run);
    if (!("stretches" in next)) return next;
    const stop = await commitBatch(run, next, await summarizeBatchOf(run, next));
    if (stop !== undefined) return stop;
  }
}

/** The step loop: plan → summarize → commit and record, one stretch at a time, until a step ends the run. */
async function stepLoop(run: RunState): Promise<RunEnd> {
  for (; ; run.step++) {
    const next = planNext(run);
    if (!("plan" in next)) return next;
    const stop = await commitAndRecord(run, next, await summarize(run, next));
    if (stop !== undefined) return stop;
  }
}

/**
 * The laws on the run's result: the store's messages before the run (plus any appended while it
 * ran) against its messages after. A run that was not due changed nothing: its own messages.
 */
function runLaws(
  run: RunState,
  before: readonly Message[] | undefined,
  tokens: { before: number | null; after: number | null },
): LawCheck[] {
  const { store, c, o } = run;
  const after = store.messageList();
  const appended = store.appendedDuringCompaction();
  const input = before === undefined ? after : appended.length === 0 ? before : [...before, ...appended];
  const appendedTokens = appended.reduce((t, m) => t + messageTokens(store.counter, m), 0);
  const items =
    o.items === undefined || appended.length === 0
      ? o.items
      : {
          items: o.items.items + appended.length,
          spans: [
            ...o.items.spans,
            ...appended.map((_, k) => ({ first: o.items!.items + k, last: o.items!.items + k })),
          ],
        };
  return checkLaws(
    input,
    after,
    run.stretches,
    c,
    {
      before: tokens.before === null ? null : tokens.before + appendedTokens,
      after: tokens.after,
      dueBefore: run.dueBefore,
    },
    // a store holds well-formed messages only (its load and appends check them)
    { wellFormed: true, cleared: run.clearing.report?.records ?? [], ...(items === undefined ? {} : { items }) },
  );
}

/** What a run knows once it has started, besides its state: the counts before it and the messages the laws compare with. */
interface RunStart {
  readonly run: RunState;
  readonly judgedBefore: number;
  readonly tokensBefore: number | null;
  readonly messagesBefore: number;
  /** the messages before the run, when it may change them (it is due) */
  readonly before?: readonly Message[];
}

/** Start: the checks before any work, the counts before the run, and the initial run state. */
function startRun(store: ConversationStore, config: Config, o: CompactOptions): RunStart {
  // a JavaScript caller's raw or invalid settings are a ConfigError naming the setting, never a
  // boundary error (a parsed configuration is checked, not parsed again)
  const parsed = assertParsedConfig(config);
  const resolved =
    o.limits === undefined
      ? configForRun(parsed, {
          ...(o.agentModel === undefined ? {} : { agentModel: o.agentModel }),
          summarizerCallsModel: summarizerCallsModel(o.summarizer),
        })
      : { config: configWithLimits(parsed, o.limits), limits: o.limits };
  const { limits } = resolved;
  const c = snapshotConfig(resolved.config);
  if (o.usage !== undefined) {
    assertReportedPrefix(o.usage, store.messages.length);
    assertReportJudgeable(o.usage, store.view().tokens);
  }
  const judgedBefore = judgedTokens(store, o.usage);
  const positions = new InputPositions(o.items ?? itemMapOf(store.messageList()));
  const dueBefore = dueBy(c, judgedBefore, positions.items(store.messages.length), store.userTurns) !== "none";
  // what the summaries' markers say cannot shrink joins the memory (only a run that plans reads it)
  if (dueBefore) rememberMarkers(store);
  // The counted total, unless the run is not due and the store left messages uncounted (a usage
  // report covers them): then no decision needs their counts, and none is computed or reported.
  // Nothing has changed since the run started (no await yet), so this is the total before it.
  const tokensBefore = dueBefore || store.uncounted === 0 ? store.totalTokens : null;
  // a run that may splice checks, before its first summarizer call, that every step can carry the report
  if (o.usage !== undefined && dueBefore) assertReportFitsSteps(o.usage, store.totalTokens);
  const run: RunState = {
    store,
    c,
    o,
    limits,
    model: resolveModel(c, o.agentModel),
    progress: o.onProgress ?? (() => {}),
    // the total before, as counted (a not-due run given usage counts nothing: 0, never told)
    counts: { planned: 0, done: 0, inFlight: 0, tokensBefore: tokensBefore ?? 0 },
    positions,
    dueBefore,
    target: targetTokens(c),
    summarizes: false,
    usage: o.usage,
    step: 1,
    rejectedInARow: 0,
    summarizerCalls: 0,
    clearing: { report: undefined, usage: o.usage, only: false },
    passed: new UnshrinkableMemory(),
    skipFrom: 0,
    from: 0,
    stretches: [],
    skipped: [],
    left: [],
  };
  // the messages the laws compare the result with: only a run that is due may change them
  const before = dueBefore ? store.messageList() : undefined;
  return { run, judgedBefore, tokensBefore, messagesBefore: positions.files, ...(before ? { before } : {}) };
}

/** The token count the trigger judges: the report for a prefix plus the counts after it, or the counted total. */
function judgedTokens(store: ConversationStore, usage: ReportedPrefix | undefined): number {
  return usage === undefined ? store.totalTokens : gateUsageTokens(usage, store.view().tokens);
}

/** Record the run: its classified outcome, its counts and its law checks. */
function runReport(s: RunStart, end: RunEnd): CompactionReport {
  const { run } = s;
  const { store, c, o, positions } = run;
  const judgedAfter = judgedTokens(store, run.usage);
  const itemsAfter = positions.items(store.messages.length);
  const dueAfter = stepTrigger(run, judgedAfter) !== "none";
  const { outcome, reason } = classifyRun({
    planned: end.planned !== undefined || end.dryRunPlanned === true,
    ...(end.stopped === undefined ? {} : { stopped: end.stopped }),
    ...(end.superseded === undefined ? {} : { superseded: end.superseded }),
    replaced: run.stretches.length,
    left: run.left,
    dueAfter,
    reason: end.reason,
  });
  const stillDue = outcome === "compacted-still-due" || outcome === "still-due";
  // left uncounted only by a run that counted nothing before either (nothing changed)
  const tokensAfter = s.tokensBefore === null ? null : store.totalTokens;
  return {
    outcome,
    reason,
    ...(end.failure === undefined ? {} : { failure: end.failure }),
    tokensBefore: s.tokensBefore,
    tokensAfter,
    messagesBefore: s.messagesBefore,
    messagesAfter: itemsAfter,
    dueBefore: run.dueBefore,
    dueAfter,
    stretches: run.stretches,
    skipped: run.skipped,
    ...(end.planned ? { plannedStretch: end.planned } : {}),
    ...(end.wholePlan ? { plan: end.wholePlan } : {}),
    ...(stillDue ? { remaining: remainingTokens(store, c, positions) } : {}),
    ...(run.lawfulFloor === undefined ? {} : { lawfulFloor: run.lawfulFloor }),
    ...(o.usage === undefined ? {} : { usage: usageReport(o.usage, run.usage, s.judgedBefore, judgedAfter) }),
    watermark: store.watermark,
    modelLimits: run.limits,
    summarizer: o.summarizer.name,
    summarizerCalls: run.summarizerCalls,
    calls: [],
    callTotals: callTotals([]),
    tokenizer: store.counter.name,
    laws: runLaws(run, s.before, { before: s.tokensBefore, after: tokensAfter }),
  };
}

/**
 * Compacts a store in place until it is under the trigger; `config` is a configuration from
 * parseConfig (anything else is a ConfigError naming the setting), snapshotted at the start.
 * The run: start, then plan → summarize → commit and record until a step ends it, then the report,
 * with each summarizer call's duration and reported usage; the hooks (o.hooks) around it.
 */
export async function compactStore(
  store: ConversationStore,
  config: Config,
  o: CompactOptions,
): Promise<CompactionReport> {
  const recording = recordingSummarizer(o.summarizer, o.hooks?.call);
  let report: CompactionReport;
  try {
    report = await runSteps(store, config, { ...o, summarizer: recording.summarizer }, recording);
  } catch (error) {
    o.hooks?.failure?.({ error });
    throw error;
  }
  report = { ...report, calls: recording.calls, callTotals: callTotals(recording.calls) };
  o.hooks?.after?.(report);
  if (report.outcome === "degraded") o.hooks?.failure?.({ report });
  return report;
}

/** Asks the before hook of a run that is due: undefined to go on (its instructions given to the summarizer), or the run's end. */
async function askBefore(run: RunState, judged: number, recording: RecordingSummarizer): Promise<RunEnd | undefined> {
  const before = run.o.hooks?.before;
  if (before === undefined || !run.dueBefore || run.o.dryRun) return undefined;
  const items = run.positions.items(run.store.messages.length);
  const trigger = stepTrigger(run, judged);
  const answer = await before({ trigger, tokens: judged, messages: items });
  if (answer?.cancel !== undefined) return { reason: `cancelled before it began by the before hook: ${answer.cancel}` };
  if (answer?.instructions !== undefined) recording.instruct(answer.instructions);
  return undefined;
}

/**
 * A due run refused up front by the lawful floor (lawful-floor.ts, the kernel's floorAllowsRun):
 * the trigger at or under what no run can shrink, with too little above it or too few calls since
 * the last run. A dry run only plans, and is never refused.
 */
function refusedUnderFloor(run: RunState): RunEnd | undefined {
  if (!run.dueBefore || run.o.dryRun === true) return undefined;
  const snap = run.store.view();
  const ages = usesBatches(run) && run.c.age_percent > 0;
  const floor = lawfulFloorOf(snap, run.c, batchWindow(run, snap), callFloor(run, snap), ages);
  const trigger = tokenTrigger(run.c);
  if (trigger !== undefined && trigger <= floor.total) run.lawfulFloor = { trigger, ...floor };
  const reason = floorRefusal(run.c, floor, run.store.totalTokens, callsSinceSummary(snap.messages, snap.views.roles));
  return reason === undefined ? undefined : { reason };
}

/** The run itself (see compactStore), its summarizer the recording one. */
async function runSteps(
  store: ConversationStore,
  config: Config,
  o: CompactOptions,
  recording: RecordingSummarizer,
): Promise<CompactionReport> {
  const start = startRun(store, config, o);
  const { run } = start;
  let end: RunEnd | undefined;
  store.beginCompaction();
  try {
    end = refusedUnderFloor(run) ?? (await askBefore(run, start.judgedBefore, recording));
    if (end === undefined) {
      run.clearing = await clearFirst(store, run.c, run.positions, run.usage, o.dryRun, o.hardTrigger);
      run.usage = run.clearing.usage;
      end =
        run.clearing.deferred === true
          ? { reason: run.clearing.report?.reason ?? "clearing deferred" }
          : o.dryRun === true && plansBatches(run)
            ? await dryRunBatch(run)
            : usesBatches(run)
              ? await batchLoop(run)
              : await stepLoop(run);
    }
  } finally {
    store.endCompaction();
  }
  return withClearing(runReport(start, end), run.clearing);
}
