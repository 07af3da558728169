// The compaction run, as a small step machine over an explicit run state (RunState, run-state.ts): plan a
// step against a read-only view of the store, summarize the stretch (and validate), commit
// through the version check, record what the step did; stop when under the trigger or when no
// stretch is eligible. A stretch whose summaries are rejected (not shorter, facts dropped) is
// left as it is and the run moves on past it, until the kernel's stop rule says
// max_rejected_summaries were rejected in a row; a summarizer that fails to answer, or a
// concurrent edit, ends the run. The clearing tier (clearing.ts, L13) runs once before the
// first plan when the strategy asks for it. Either way a failed step changes nothing and the report says
// why. The outcome is a pure classification of what the run did (outcome.ts), and the laws are
// checked on the result (law-checks.ts).
//
// This file holds the run's entry (compactStore) and its start: input a store, a parsed
// configuration and the options; output the run's report. The stages live beside it, by stage:
// run-state.ts (the state a step reads), step-plan.ts (plan one stretch), step-commit.ts (summarize,
// commit and record one stretch; the step loop), batch-plan.ts and batch-run.ts (the batch loop),
// dry-run.ts (a dry run's whole plan), run-report.ts (the report and its law checks).

import { type Config, SAME_AS_AGENT, snapshotConfig, summaryModel } from "../../model/config.ts";
import type { Summarizer } from "../../model/summarizer.ts";
import { assertParsedConfig, checkedFor, configForRun, configWithLimits } from "../boundary/config-rules.ts";
import { parsePins } from "../store/pins.ts";
import type { ConversationStore } from "../store/store.ts";
import { rememberMarkers } from "../store/summary-marks.ts";
import { UnshrinkableMemory } from "../store/unshrinkable.ts";
import { stretchBases } from "../summarize/summarize-step.ts";
import { batchWindow, plansBatches, usesBatches } from "./batch-plan.ts";
import { batchLoop } from "./batch-run.ts";
import { refusedOverByteFloor } from "./byte-budget.ts";
import { clearFirst, notDueClearing, withClearing } from "./clearing.ts";
import { dryRunBatch } from "./dry-run.ts";
import { dueFor } from "./due-verdict.ts";
import { itemMapOf } from "./item-map.ts";
import { callsSinceSummary, floorRefusal, lawfulFloorOf, tokenTrigger } from "./lawful-floor.ts";
import { budgetBytes, targetTokens } from "./plan.ts";
import { InputPositions } from "./positions.ts";
import type { CompactionReport } from "./report.ts";
import { callTotals, type RecordingSummarizer, recordingSummarizer } from "./run-hooks.ts";
import { type RunStart, runReport } from "./run-report.ts";
import { type CompactOptions, callFloor, judgedTokens, type RunEnd, type RunState, stepTrigger } from "./run-state.ts";
import { stepLoop } from "./step-commit.ts";
import { assertReportedPrefix, assertReportFitsSteps, assertReportJudgeable } from "./usage.ts";

export type { CompactOptions, RunProgress } from "./run-state.ts";

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

/** Start: the checks before any work, the counts before the run, and the initial run state. */
function startRun(store: ConversationStore, config: Config, o: CompactOptions): RunStart {
  // a JavaScript caller's raw or invalid settings are a ConfigError naming the setting, never a
  // boundary error (a parsed configuration is checked, not parsed again)
  // (one the caller resolved and checked with these limits already, configForRun, is taken as it is)
  const resolved =
    o.limits !== undefined && checkedFor(config, o.limits)
      ? { config, limits: o.limits }
      : o.limits === undefined
        ? configForRun(assertParsedConfig(config), {
            ...(o.agentModel === undefined ? {} : { agentModel: o.agentModel }),
            summarizerCallsModel: summarizerCallsModel(o.summarizer),
          })
        : { config: configWithLimits(assertParsedConfig(config), o.limits), limits: o.limits };
  const { limits } = resolved;
  const c = snapshotConfig(resolved.config);
  // L15: every view the run plans on (stretches, batches, clearing) holds the pinned messages
  store.usePins(parsePins(c.pin));
  if (o.usage !== undefined) {
    assertReportedPrefix(o.usage, store.messages.length);
    assertReportJudgeable(o.usage, store.view().tokens);
  }
  const judgedBefore = judgedTokens(store, o.usage);
  const positions = new InputPositions(o.items ?? itemMapOf(store.messageList()));
  // the caller's verdict on these very counts (a session's, o.due) is taken as it is: decided once
  const triggerBefore = dueFor(o.due, resolved.config, {
    tokens: judgedBefore,
    items: positions.items(store.messages.length),
    userTurns: store.userTurns,
    bytes: budgetBytes(c, store),
  });
  const dueBefore = triggerBefore !== "none";
  // due by bytes alone: the run goes on while the bytes are over the budget, not toward a token target
  const dueByBytes = triggerBefore === "request bytes";
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
    target: dueByBytes ? undefined : targetTokens(c),
    dueByBytes,
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
    bases: stretchBases(),
  };
  // the messages the laws compare the result with: only a run that is due may change them
  const before = dueBefore ? store.messageList() : undefined;
  return {
    run,
    judgedBefore,
    tokensBefore,
    bytesBefore: budgetBytes(c, store),
    messagesBefore: positions.files,
    ...(before ? { before } : {}),
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
  // the store as the run judged it: a run not due then, on these very messages, clears nothing
  const judgedAt = store.version;
  let end: RunEnd | undefined;
  store.beginCompaction();
  try {
    end =
      refusedOverByteFloor(run) ??
      (run.dueByBytes ? undefined : refusedUnderFloor(run)) ??
      (await askBefore(run, start.judgedBefore, recording));
    if (end === undefined) {
      // not due at the start (the trigger clearFirst would ask again, on the same counts): its
      // not-due step without a view of the store, which would build the kernel views for nothing
      run.clearing =
        !run.dueBefore && store.version === judgedAt
          ? notDueClearing(run.c, run.usage)
          : await clearFirst(store, run.c, run.positions, run.usage, o.dryRun, o.hardTrigger);
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
