// A ConversationStore whose commits are guarded by a session: the engine's run (compactStore)
// plans, clears and summarizes on it as on any store, and each commit it asks for (a splice, a
// clearing) is handed to the session's guard, which decides it against the session's current
// version where the data lives and, if the kernel allows it, applies it here and writes it there
// in one step.

import type { PlannedAgainst } from "../engine/store/store.ts";
import { type CommitOutcome, ConversationStore } from "../engine/store/store.ts";
import type { UnshrinkableMemory } from "../engine/store/unshrinkable.ts";
import { SafecutError } from "../model/errors.ts";
import type { Message, SummaryMessage } from "../model/message.ts";
import type { TokenCounter } from "../model/tokens.ts";

/** Cleared results as the engine commits them: a position, the cleared message, its count. */
export type Replacements = readonly { readonly index: number; readonly message: Message; readonly tokens: number }[];

/** The session's side of each commit: decide, apply (through `applySplice` / `applyClearing`), persist. */
export interface CommitGuards {
  splice(
    store: PersistingStore,
    planned: PlannedAgainst,
    start: number,
    end: number,
    summary: SummaryMessage,
  ): Promise<CommitOutcome>;
  clearing(store: PersistingStore, planned: PlannedAgainst, replaced: Replacements): Promise<CommitOutcome>;
}

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
    private readonly guards: CommitGuards,
    /** the stretches known not to shrink, as the session's records say */
    unshrinkable?: UnshrinkableMemory,
  ) {
    super(counter, messages, unshrinkable === undefined ? {} : { unshrinkable });
    this.sessionVersions.set(this.version, sessionVersion);
  }

  /** Hands the commit to the session's guard (the engine's run awaits it). */
  override commitSpliceAsync(
    planned: PlannedAgainst,
    start: number,
    end: number,
    summary: SummaryMessage,
  ): Promise<CommitOutcome> {
    return this.guards.splice(this, planned, start, end, summary);
  }

  /** Hands the clearing to the session's guard (the engine's run awaits it). */
  override commitClearingAsync(planned: PlannedAgainst, replaced: Replacements): Promise<CommitOutcome> {
    return this.guards.clearing(this, planned, replaced);
  }

  /** Refused: a commit that bypassed the session's guard would change the store and not the session. */
  override commitSplice(): CommitOutcome {
    throw new SafecutError("internal", "a session's store commits through its guard (commitSpliceAsync)");
  }

  /** Refused, as commitSplice. */
  override commitClearing(): CommitOutcome {
    throw new SafecutError("internal", "a session's store commits through its guard (commitClearingAsync)");
  }

  /** The in-memory commit (the kernel's version check, splice and watermark of the store itself). */
  applySplice(planned: PlannedAgainst, start: number, end: number, summary: SummaryMessage): CommitOutcome {
    return super.commitSplice(planned, start, end, summary);
  }

  /** The in-memory clearing (the kernel's version check and the replacement of the store itself). */
  applyClearing(planned: PlannedAgainst, replaced: Replacements): CommitOutcome {
    return super.commitClearing(planned, replaced);
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
