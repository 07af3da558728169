// API: decideCommit(plan: PlanStamp, now: CurrentStamp): CommitDecision; raceTwoPlans(a, b, now): RaceOutcome (model) -- L9.

/** What the engine knew when it planned a compaction. */
export interface PlanStamp {
  /** conversation version the plan was computed against */
  version: number;
  /** number of messages at planning time */
  length: number;
  /** exclusive end of the planned stretch */
  stretchEnd: number;
}

/** What the engine sees when the summary comes back. */
export interface CurrentStamp {
  version: number;
  length: number;
  /** true iff every change since the plan's version appended messages (nothing edited, removed or compacted) */
  onlyAppends: boolean;
}

/** commit: apply as planned; rebase: apply to the appended-to conversation; reject: leave it as it is. */
export type CommitDecision = "commit" | "rebase" | "reject";

//@ verify
//@ requires plan.length >= 0 && now.length >= 0 && plan.stretchEnd >= 0
//@ ensures \result === "commit" ==> (now.version === plan.version && now.length === plan.length && plan.stretchEnd <= plan.length)
//@ ensures \result === "rebase" ==> (now.version !== plan.version && now.onlyAppends && plan.length <= now.length && plan.stretchEnd <= plan.length)
//@ ensures (now.version !== plan.version && !now.onlyAppends) ==> \result === "reject"
//@ ensures (now.version === plan.version && now.length === plan.length && plan.stretchEnd <= plan.length) ==> \result === "commit"
//@ ensures (now.version !== plan.version && now.onlyAppends && plan.length <= now.length && plan.stretchEnd <= plan.length) ==> \result === "rebase"
/** Decide whether a planned compaction may still be applied (L9: no lost updates). */
export function decideCommit(plan: PlanStamp, now: CurrentStamp): CommitDecision {
  // A plan whose stretch does not even fit its own snapshot is malformed: never apply it.
  if (plan.stretchEnd > plan.length) return "reject";
  if (now.version === plan.version) {
    // Same version but a different length means the caller's bookkeeping is broken: refuse.
    if (now.length === plan.length) return "commit";
    return "reject";
  }
  // Appends only touch indices >= plan.length, and the stretch ends at or before it, so the
  // planned indices still name the same messages in the current conversation.
  if (now.onlyAppends && now.length >= plan.length) return "rebase";
  return "reject";
}

/** The two verdicts when two compactions planned against the same version race (first to return wins). */
export interface RaceOutcome {
  first: CommitDecision;
  second: CommitDecision;
}

//@ verify
//@ requires a.length >= 0 && b.length >= 0 && now.length >= 0 && a.stretchEnd >= 0 && b.stretchEnd >= 0
//@ requires a.version === b.version && now.version >= a.version && 0 <= now.version && now.version < 9007199254740991
//@ ensures \result.first === "reject" || \result.second === "reject"
//@ ensures \result.first === decideCommit(a, now)
//@ ensures \result.first === "reject" ==> \result.second === decideCommit(b, now)
/**
 * Model of the store's discipline (L9, no overlap): a committed compaction makes a new version that is not an append, so of two plans from one version at most one is applied.
 * @model
 */
export function raceTwoPlans(a: PlanStamp, b: PlanStamp, now: CurrentStamp): RaceOutcome {
  const first = decideCommit(a, now);
  if (first === "reject") return { first: first, second: decideCommit(b, now) };
  // Applying the first compaction bumps the version; the store records it as a non-append change.
  const after: CurrentStamp = { version: now.version + 1, length: now.length, onlyAppends: false };
  return { first: first, second: decideCommit(b, after) };
}
