// The state of a compaction run between two steps (RunState) and what every stage reads from it.
// Holds: the run's options (CompactOptions, RunProgress), the run state, how a run ends (RunEnd),
// a planned step (PlannedStep), and the small readers every stage shares (the call floor, the
// judged total, the trigger as it stands, onState and the in-flight count, a step's summarizer
// context). Input: a run state; output: values read from it (or onState told). It plans, summarizes
// and commits nothing: the stages (step-plan.ts, step-commit.ts, batch-*.ts) do.

import type { ReportedPrefix } from "../../kernel/trigger.ts";
import type { SummarizerFailure } from "../../model/call-failure.ts";
import type { Config } from "../../model/config.ts";
import type { Message } from "../../model/message.ts";
import type { ModelLimitsReport } from "../../model/model-limits.ts";
import type { Summarizer } from "../../model/summarizer.ts";
import { gateUsageTokens } from "../boundary/kernel-gate.ts";
import type { ConversationStore, StoreView } from "../store/store.ts";
import type { UnshrinkableMemory } from "../store/unshrinkable.ts";
import type { StepContext, StretchBases } from "../summarize/summarize-step.ts";
import type { ClearingStep } from "./clearing.ts";
import type { DueVerdict } from "./due-verdict.ts";
import type { ItemMap } from "./item-map.ts";
import type { LeftStretch } from "./outcome.ts";
import { type ByteFloor, budgetBytes, type CallFloor, dueBy, type Plan } from "./plan.ts";
import type { InputPositions, InputRange } from "./positions.ts";
import type { CompactionReport, LawfulFloorReport, PlannedRun, ReplacedStretch, SkippedStretch } from "./report.ts";
import type { RunHooks } from "./run-hooks.ts";

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
   * After each step it is adjusted by the kernel's usageAfterSplice (see docs/library.md, "Reported usage").
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
   * the caller's "is it due" for this configuration (dueVerdict, made with the `config` given to
   * the run): taken when the run's counts before it are the ones it was decided on, so the run
   * does not decide again; default (or other counts): decided at the run's start
   */
  readonly due?: DueVerdict;
  /**
   * the token count at which the request itself is over its trigger, when this run is judged
   * against an earlier one (a background run at soft_token_threshold): a clearing that alone would
   * do waits under it for the next summarizing run (deferred clearing); default: none
   */
  readonly hardTrigger?: number;
}

/** A run between two steps: everything a step reads and the record of what the run did. */
export interface RunState {
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
  /** the request's bytes made the run due (no other trigger fired): it goes on while they are over max_request_bytes */
  readonly dueByBytes: boolean;
  /** set when the bytes were over max_request_bytes at the start (or at the end, its floor over): the byte floor, and whether it alone is over */
  byteFloor?: { readonly floor: ByteFloor; readonly over: boolean };
  /** what the run derived from each stretch it sized or asked for (StepContext.bases): each derived once */
  readonly bases: StretchBases;
}

/** Why a run ended: `reason` when nothing failed, `stopped` when a failure ended it, `superseded` when another writer's change did, `planned` for a dry run. */
export interface RunEnd {
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
export interface PlannedStep {
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
export function callFloor(run: RunState, snap: StoreView): CallFloor {
  const known = run.store.unshrinkable.bounds(snap.messages);
  const passed = run.passed.bounds(snap.messages);
  return {
    floorTokens: run.c.min_stretch_tokens,
    shun: { starts: [...known.starts, ...passed.starts], ends: [...known.ends, ...passed.ends] },
  };
}

export const span = (r: InputRange) => `${r.first}..${r.last}`;

/** What a summarization needs from the run: settings, summarizer, counter, model, signal and the rejection streak. */
export function stepContext(run: RunState): StepContext {
  return {
    config: run.c,
    summarizer: run.o.summarizer,
    counter: run.store.counter,
    model: run.model,
    signal: run.o.signal,
    rejectedInARow: run.rejectedInARow,
    bases: run.bases,
  };
}

/** Tells onState where the run stands. */
export function tellState(run: RunState): void {
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
export async function inFlight<T>(run: RunState, call: () => Promise<T>): Promise<T> {
  run.counts.inFlight++;
  tellState(run);
  try {
    return await call();
  } finally {
    run.counts.inFlight--;
    tellState(run);
  }
}

/**
 * The trigger reached on the store as it stands (the judged count, the caller's items), "none"
 * under every one: after a batch's commit, for the before hook, and for the report's end state.
 * `judged`: the store's judged total, when the caller has it already.
 */
export function stepTrigger(run: RunState, judged = judgedTokens(run.store, run.usage)): Plan["trigger"] {
  const { store } = run;
  return dueBy(
    run.c,
    judged,
    run.positions.items(store.messages.length),
    store.userTurns,
    run.usage !== undefined,
    budgetBytes(run.c, store),
  );
}

/** The token count the trigger judges: the report for a prefix plus the counts after it, or the counted total. */
export function judgedTokens(store: ConversationStore, usage: ReportedPrefix | undefined): number {
  return usage === undefined ? store.totalTokens : gateUsageTokens(usage, store.view().tokens);
}
