// Background mode: a running agent starts compaction at a soft threshold (soft_token_threshold)
// and keeps going while it runs; it waits only when a configured trigger fires (the hard one,
// or the context window). What the agent appends meanwhile is kept by the kernel's commit rule
// (L9: a plan commits over pure appends, `rebase`, never over a rewrite). Every "is it due" is
// the kernel's trigger through the gate: the soft threshold is judged as a token trigger of the
// same configuration with token_threshold set to it (and no soft threshold of its own).
import type { CommitDecision } from "../../kernel/commit.ts";
import type { Config } from "../../model/config.ts";
import type { SummaryMessage } from "../../model/message.ts";
import { assertConfigValid } from "../boundary/config-rules.ts";
import { gateDecideCommit } from "../boundary/kernel-gate.ts";
import {
  type ClearedReplacement,
  type CommitOutcome,
  ConversationStore,
  type PlannedAgainst,
  type StagedChange,
} from "../store/store.ts";
import { type CompactOptions, compactStore } from "./compact.ts";
import { storeDueBy, targetTokens } from "./plan.ts";
import type { CompactionReport } from "./report.ts";

/**
 * The configuration a background run compacts under: the soft threshold as its token trigger
 * (the run goes on down to its low-water target), or undefined when soft_token_threshold is not
 * set. Its batch is split across batch_calls concurrent calls: batch_tokens is at most the
 * tokens between the soft threshold and the target over batch_calls. The agent waits on a
 * background run only when the hard trigger fires while it is in flight, so what counts is how
 * soon its summaries are in, not how few calls it makes (bench:background, strategy summarize:
 * about a third of the wait for about 12% more calls). batch_tokens 0 (no batches) stays 0.
 */
export function softConfig(c: Config): Config | undefined {
  const soft = assertConfigValid(c).soft_token_threshold;
  if (soft === null) return undefined;
  const run = assertConfigValid({ ...c, token_threshold: soft, soft_token_threshold: null });
  const target = targetTokens(run);
  const share = target === undefined ? 0 : Math.ceil((soft - target) / run.batch_calls);
  return share > 0 && share < run.batch_tokens ? assertConfigValid({ ...run, batch_tokens: share }) : run;
}

/**
 * L9 for a list compacted in the background from `planned` (a copy of the list when the run
 * began) while the agent went on to `current`: "commit" when nothing changed, "rebase" when
 * `current` is `planned` (the same items, by identity) plus appended ones, "reject" otherwise.
 * The kernel decides, through the gate; the run may have touched any planned item.
 */
export function decideOverAppends<T>(planned: readonly T[], current: readonly T[]): CommitDecision {
  let onlyAppends = planned.length <= current.length;
  for (let i = 0; onlyAppends && i < planned.length; i++) onlyAppends = planned[i] === current[i];
  const unchanged = onlyAppends && planned.length === current.length;
  return gateDecideCommit(
    { version: 0, length: planned.length, stretchEnd: planned.length },
    { version: unchanged ? 0 : 1, length: current.length, onlyAppends },
  );
}

/** What one check before a step did. */
export interface BackgroundStep {
  /** the agent waited for a compaction (a trigger fired) */
  readonly waited: boolean;
  /** a background run was started at the soft threshold */
  readonly started: boolean;
}

/** Options of a background compaction: a run's options, and where each run's report goes. */
export interface BackgroundOptions extends CompactOptions {
  /** receives the report of every run, background or blocking */
  readonly onReport?: (r: CompactionReport) => void;
}

/**
 * The one background run of an owner at a time: started on a later turn of the event loop (the
 * check that starts it returns first), its failure kept for `settle()` to throw.
 */
export class BackgroundSlot {
  private running: Promise<void> | undefined;
  private failed: { error: unknown } | undefined;

  /** Whether a run is in flight. */
  get inFlight(): boolean {
    return this.running !== undefined;
  }

  /** Whether a run failed and its failure was not thrown yet. */
  get hasFailed(): boolean {
    return this.failed !== undefined;
  }

  /** Waits for the run in flight, if any; a failure of it is thrown here. */
  async settle(): Promise<void> {
    if (this.running !== undefined) await this.running;
    const failed = this.failed;
    this.failed = undefined;
    if (failed !== undefined) throw failed.error;
  }

  /**
   * Starts `run` on a later turn; `done` receives its result (undefined when it threw) and runs
   * before the slot is free again (what it throws is kept for settle() too).
   */
  start<T>(run: () => Promise<T>, done: (result: T | undefined) => void | Promise<void>): void {
    let result: T | undefined;
    this.running = laterTurn()
      .then(run)
      .then(
        (r) => {
          result = r;
        },
        (error: unknown) => {
          this.failed = { error };
        },
      )
      .then(async () => {
        try {
          await done(result);
        } catch (error) {
          this.failed ??= { error };
        }
      })
      .finally(() => {
        this.running = undefined;
      });
  }
}

/**
 * A copy of a store that a background run compacts: it records every change the run commits, so
 * the store it was copied from adopts them all at one step when the run ends (ConversationStore.adopt).
 */
export class StagingStore extends ConversationStore {
  /** the run's changes so far, in order */
  readonly changes: StagedChange[] = [];

  /** A copy of `store` as it is now (its messages and its memory of unshrinkable stretches). */
  constructor(store: ConversationStore) {
    super(store.counter, store.messageList(), { unshrinkable: store.unshrinkable.copy() });
  }

  override commitSplice(planned: PlannedAgainst, start: number, end: number, summary: SummaryMessage): CommitOutcome {
    const done = super.commitSplice(planned, start, end, summary);
    if (done.decision !== "reject") this.changes.push({ kind: "splice", start, end, summary });
    return done;
  }

  override commitClearing(planned: PlannedAgainst, replaced: readonly ClearedReplacement[]): CommitOutcome {
    const done = super.commitClearing(planned, replaced);
    if (done.decision !== "reject" && replaced.length > 0) this.changes.push({ kind: "clearing", replaced });
    return done;
  }
}

/**
 * Background compaction of an agent's ConversationStore: call `beforeStep()` before each model
 * call (after appending the step's messages). At the soft threshold it starts a run and returns
 * at once; the agent keeps appending (the store rebases the run's commits over them, L9). It
 * waits only when a trigger of the configuration fires: for the run in flight, then, if still
 * due, for a blocking run. A check that starts a run does none of the run's work: the run begins
 * on a later turn of the event loop. `settle()` waits for the run in flight. Without soft_token_threshold
 * every run blocks, as compactStore does.
 */
export class BackgroundCompaction {
  private readonly slot = new BackgroundSlot();
  private readonly soft: Config | undefined;

  constructor(
    private readonly store: ConversationStore,
    private readonly c: Config,
    private readonly o: BackgroundOptions,
  ) {
    this.soft = softConfig(c);
  }

  /** Whether a background run is in flight. */
  get inFlight(): boolean {
    return this.slot.inFlight;
  }

  /** Waits for the run in flight, if any; a failure of it is thrown here. */
  settle(): Promise<void> {
    return this.slot.settle();
  }

  private report(r: CompactionReport): void {
    this.o.onReport?.(r);
  }

  /** The check before a step; see the class comment. `items`: the caller's item count (default one per message). */
  async beforeStep(items?: number): Promise<BackgroundStep> {
    const dueNow = () => storeDueBy(this.store, this.c, items ?? this.store.messages.length) !== "none";
    let waited = false;
    if (this.slot.inFlight) {
      if (!dueNow()) return { waited: false, started: false };
      await this.settle();
      waited = true;
    } else if (this.slot.hasFailed) await this.settle();
    if (dueNow()) {
      this.report(await compactStore(this.store, this.c, this.o));
      return { waited: true, started: false };
    }
    const soft = this.soft;
    if (soft === undefined || storeDueBy(this.store, soft, items ?? this.store.messages.length) === "none")
      return { waited, started: false };
    // the run does its work (reading, planning) after this check returned, while the agent's model
    // call is out, on a copy: its clearing and every batch reach the store together when it ends,
    // so the agent's prompt cache is re-written once per run, not once per commit
    let planned = { version: 0, length: 0 };
    let staging: StagingStore | undefined;
    this.slot.start(
      () => {
        planned = { version: this.store.version, length: this.store.messages.length };
        staging = new StagingStore(this.store);
        // a clearing that alone would do waits for the hard trigger (or rides with a summarizing run)
        return compactStore(staging, soft, { ...this.o, hardTrigger: this.c.token_threshold ?? 0 });
      },
      (r) => {
        const decision = staging === undefined ? "reject" : this.store.adopt(planned, staging.changes);
        if (decision !== "reject" && staging !== undefined) this.store.unshrinkable.replaceWith(staging.unshrinkable);
        if (r !== undefined) this.report(adoptedReport(r, decision, (staging?.changes.length ?? 0) > 0));
      },
    );
    return { waited, started: true };
  }
}

/**
 * The report of a run whose whole result was adopted at one step with `decision` (the kernel's
 * commit rule, L9): rebased over appends, each stretch says so; rejected after it had changed
 * something (`changed`), the run is superseded and none of its stretches was applied.
 */
export function adoptedReport(r: CompactionReport, decision: CommitDecision, changed: boolean): CompactionReport {
  if (decision === "reject" && changed)
    return {
      ...r,
      outcome: "superseded",
      reason:
        "another writer changed the conversation (not only appends) while this background run compacted a copy of it: none of the run's changes was applied; the conversation is as that writer left it",
      stretches: [],
    };
  // each stretch reached the conversation with the adoption: appended to meanwhile, it was rebased over (L9)
  return decision === "rebase" ? { ...r, stretches: r.stretches.map((x) => ({ ...x, decision })) } : r;
}

/**
 * Resolves on a later turn of the event loop (a timer), after the caller's synchronous work and
 * every microtask it queued: a background run started behind it does none of its work (reading,
 * counting, planning) inside the check that started it, but while the agent's model call is out.
 */
export function laterTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
