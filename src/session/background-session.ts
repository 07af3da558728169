// Background mode on a session (issue 20, item 5, across processes): at soft_token_threshold a
// compaction of the session starts in the background while the agent goes on appending; the
// agent blocks only when a trigger of the configuration fires. What is appended meanwhile, by
// this process or others, is rebased over or the run rejected exactly as the kernel's commit
// rule decides. A background run is adopted at one step (issue 31): its clearing and every batch
// are written together when it ends, one commit (staged-run.ts), so the agent's prompt cache is
// re-written once per run; killed midway, it leaves nothing. At most one background run per
// session at a time, across workers: the session's compaction lease (lease.ts). A worker whose
// hard trigger fires while another holds the lease waits, bounded, for that run to bring the
// session under the trigger or to end, then compacts itself if it is still due.

import { parseConfig } from "../engine/boundary/config-rules.ts";
import { BackgroundSlot, softConfig } from "../engine/run/background.ts";
import { judgedConfig } from "../engine/run/compact.ts";
import { dueBy, type Plan } from "../engine/run/plan.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import type { Json } from "../model/json.ts";
import { type TokenCounter, tokenCounter } from "../model/tokens.ts";
import { type Lease, tryLease } from "./lease.ts";
import type { Session, SessionCompactOptions } from "./session.ts";
import type { ContextCounts } from "./session-context.ts";

/** How long a worker whose hard trigger fires waits, at most, for another worker's background run. */
export const LEASE_WAIT_MS = 30_000;
/** How often a waiting worker looks at the session and the lease again. */
const LEASE_POLL_MS = 25;

/** What a background session did, for its caller's records. */
export type BackgroundEvent =
  /** this worker took the lease and began a background run */
  | { readonly kind: "started" }
  /** this worker's background run ended (its lease is released right after) */
  | { readonly kind: "ended"; readonly report?: CompactionReport }
  /** the hard trigger fired: the worker waited `ms` for a background run (its own, or another worker's) */
  | { readonly kind: "waited"; readonly ms: number; readonly other: boolean };

/** Options of a background session: a compaction's options, where reports and events go, and the wait bound. */
export interface BackgroundSessionOptions extends SessionCompactOptions {
  /** receives the report of every run, background or blocking */
  readonly onReport?: (r: CompactionReport) => void;
  readonly onEvent?: (e: BackgroundEvent) => void;
  /** the most a worker waits for another worker's background run when its hard trigger fires (default LEASE_WAIT_MS) */
  readonly leaseWaitMs?: number;
}

/** One step of an agent on a session in background mode. */
export interface BackgroundSessionStep {
  /** the context to send the model next */
  readonly items: Json[];
  /** the report of the run this step ran when the hard trigger fired (undefined under it: no run) */
  readonly report?: CompactionReport;
  /** the step waited on a compaction (a trigger fired) */
  readonly waited: boolean;
  /** the step started a background run */
  readonly started: boolean;
}

/** The trigger of `c` for these counts of a session's context (the kernel's, through dueBy), or "none". */
function dueOn(c: Config, n: ContextCounts): Plan["trigger"] {
  return dueBy(c, n.tokens, n.items, n.userTurns, false, n.bytes);
}

/** The trigger of `c` for the session's context (what compact() judges), from its running counts. */
export async function sessionDue(session: Session, c: Config, counter: TokenCounter): Promise<Plan["trigger"]> {
  return dueOn(c, await session.contextCounts(counter));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An agent's session in background mode: call `step(newItems)` before each model call; see the
 * file comment. Without soft_token_threshold every run blocks, as sessionStep does (no lease). `settle()`
 * waits for this worker's background run; `close()` waits for it too (the session stays open).
 */
export class BackgroundSession {
  private readonly c: Config;
  private readonly soft: Config | undefined;
  private readonly judged: Config;
  private readonly counter: TokenCounter;
  private readonly slot = new BackgroundSlot();

  constructor(
    readonly session: Session,
    config: ConfigInput | Config,
    private readonly o: BackgroundSessionOptions = {},
  ) {
    this.c = parseConfig(config);
    // the triggers judged with the model limits a run resolves (the agent's model's context_window)
    this.judged = judgedConfig(this.c, o.agentModel, o.summarizer);
    this.soft = softConfig(this.c);
    this.counter = o.counter ?? tokenCounter(this.c.tokenizer);
  }

  /** Whether this worker's background run is in flight. */
  get inFlight(): boolean {
    return this.slot.inFlight;
  }

  /** Waits for this worker's background run, if any; its failure is thrown here. */
  settle(): Promise<void> {
    return this.slot.settle();
  }

  private compactOptions(): SessionCompactOptions {
    const { onReport: _r, onEvent: _e, leaseWaitMs: _w, ...o } = this.o;
    return o;
  }

  private hardDue(): Promise<boolean> {
    return sessionDue(this.session, this.judged, this.counter).then((t) => t !== "none");
  }

  /**
   * The hard trigger fired and this worker has no run in flight: waits, up to the bound, until
   * the session is no longer due or the lease is free (then taken, for the blocking run).
   */
  private async awaitOther(): Promise<{ lease: Lease | undefined; due: boolean; ms: number }> {
    const t0 = performance.now();
    const limit = this.o.leaseWaitMs ?? LEASE_WAIT_MS;
    for (;;) {
      const lease = await tryLease(this.session.location);
      if (lease !== undefined) return { lease, due: await this.hardDue(), ms: performance.now() - t0 };
      if (!(await this.hardDue())) return { lease, due: false, ms: performance.now() - t0 };
      if (performance.now() - t0 >= limit) return { lease, due: true, ms: performance.now() - t0 };
      await sleep(LEASE_POLL_MS);
    }
  }

  /** Starts a background run holding `lease`; it begins on a later turn (the step returns first). */
  private start(lease: Lease, soft: Config): void {
    this.o.onEvent?.({ kind: "started" });
    this.slot.start(
      // adopted at one step: its clearing and every batch reach the session together when it ends,
      // so the agent's prompt cache is re-written once per run, not once per commit
      () => this.session.compact(soft, { ...this.compactOptions(), atOneStep: true }),
      async (report) => {
        if (report !== undefined) this.o.onReport?.(report);
        // said before the release: another worker's "started" always comes after this "ended"
        this.o.onEvent?.({ kind: "ended", ...(report === undefined ? {} : { report }) });
        await lease.release().catch(() => {});
      },
    );
  }

  /**
   * Appends `newItems` (durable when this resolves), compacts as the file comment says, and
   * returns the context. A step under the hard trigger reads what was written since the last step
   * (the session's running counts and context follow it) and runs nothing.
   */
  async step(newItems: readonly Json[]): Promise<BackgroundSessionStep> {
    if (newItems.length > 0) await this.session.append(newItems);
    if (!this.slot.inFlight && this.slot.hasFailed) await this.settle();
    const soft = this.soft;
    // without a soft threshold every run blocks, as sessionStep's: no lease, nothing to wait for
    if (soft === undefined) {
      const report = await this.session.compact(this.c, this.compactOptions());
      if (report.dueBefore) this.o.onReport?.(report);
      return { items: await this.session.context(), report, waited: report.dueBefore, started: false };
    }
    // one reading of the counts judges both thresholds
    const counts = await this.session.contextCounts(this.counter);
    if (dueOn(this.judged, counts) === "none") {
      let started = false;
      if (!this.slot.inFlight && dueOn(soft, counts) !== "none") {
        const taken = await tryLease(this.session.location);
        if (taken !== undefined) {
          this.start(taken, soft);
          started = true;
        }
      }
      return { items: await this.session.context(), waited: false, started };
    }
    // the hard trigger fired: wait for this worker's run, then (bounded) for another worker's
    const t0 = performance.now();
    if (this.slot.inFlight) {
      await this.settle();
      this.o.onEvent?.({ kind: "waited", ms: performance.now() - t0, other: false });
    }
    let lease: Lease | undefined;
    if (await this.hardDue()) {
      const other = await this.awaitOther();
      lease = other.lease;
      if (other.ms >= LEASE_POLL_MS) this.o.onEvent?.({ kind: "waited", ms: other.ms, other: true });
    }
    let report: CompactionReport;
    try {
      // still due: the blocking run (under the lease when it was taken); no longer due: it does nothing
      report = await this.session.compact(this.c, this.compactOptions());
    } finally {
      await lease?.release();
    }
    if (report.dueBefore) this.o.onReport?.(report);
    return { items: await this.session.context(), report, waited: true, started: false };
  }

  /** Waits for this worker's background run (the session itself stays open). */
  close(): Promise<void> {
    return this.settle();
  }
}
