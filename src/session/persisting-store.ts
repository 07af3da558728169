// A ConversationStore whose commits are guarded by a session: the engine's run (compactStore)
// plans and summarizes on it as on any store, and each commit it asks for is handed to the
// session's guard, which decides it against the session's current version where the data lives
// and, if the kernel allows it, applies it here and writes it there in one step.

import type { PlannedAgainst } from "../engine/store/store.ts";
import { type CommitOutcome, ConversationStore } from "../engine/store/store.ts";
import { SafecutError } from "../model/errors.ts";
import type { Message, SummaryMessage } from "../model/message.ts";
import type { TokenCounter } from "../model/tokens.ts";

/** The session's side of a commit: decide, apply (through `store.applySplice`), persist. */
export type CommitGuard = (
  store: PersistingStore,
  planned: PlannedAgainst,
  start: number,
  end: number,
  summary: SummaryMessage,
) => Promise<CommitOutcome>;

/** A store loaded from a session at a known session version, whose commits go through the session. */
export class PersistingStore extends ConversationStore {
  /** store version -> the session version the store reflected at it */
  private readonly sessionVersions = new Map<number, number>();

  constructor(
    counter: TokenCounter,
    messages: readonly Message[],
    sessionVersion: number,
    /** how many of the session's items the store holds */
    public items: number,
    private readonly guard: CommitGuard,
  ) {
    super(counter, messages);
    this.sessionVersions.set(this.version, sessionVersion);
  }

  /** Hands the commit to the session's guard (the engine's run awaits it). */
  override commitSpliceAsync(
    planned: PlannedAgainst,
    start: number,
    end: number,
    summary: SummaryMessage,
  ): Promise<CommitOutcome> {
    return this.guard(this, planned, start, end, summary);
  }

  /** Refused: a commit that bypassed the session's guard would change the store and not the session. */
  override commitSplice(): CommitOutcome {
    throw new SafecutError("internal", "a session's store commits through its guard (commitSpliceAsync)");
  }

  /** The in-memory commit (the kernel's version check, splice and watermark of the store itself). */
  applySplice(planned: PlannedAgainst, start: number, end: number, summary: SummaryMessage): CommitOutcome {
    return super.commitSplice(planned, start, end, summary);
  }

  /** The session version the store reflected when it was at store version `v`. */
  sessionVersionAt(v: number): number {
    const s = this.sessionVersions.get(v);
    if (s === undefined) throw new Error(`internal: no session version recorded for store version ${v}`);
    return s;
  }

  /** Records that the store, as it is now, reflects session version `s`. */
  reflects(s: number): void {
    this.sessionVersions.set(this.version, s);
  }
}
