// The records a session's guarded write writes (StepEntry, NewEntry: one record, or a run's records
// together) and a step's decision at the commit (StepDecision), with the account of a run written
// into each record. Declarations only (and recordsOf): the decisions that build them live in
// commit-decisions.ts and staged-run.ts, the writes in the backends.

import type { MemoryCandidate } from "../engine/memory/candidates.ts";
import type { Plan } from "../engine/run/plan.ts";
import type { CommitOutcome } from "../engine/store/store.ts";
import type { Message } from "../model/message.ts";
import type { CallLedger } from "./call-ledger.ts";
import type {
  ClearingRecord,
  ClearRecord,
  CompactionRecord,
  PopRecord,
  RestoreRecord,
  UnshrinkableRecord,
} from "./record.ts";

/** The account of a compaction run, written into each of its records. */
export interface StepAccount {
  readonly summarizer: string;
  readonly model?: string;
  /** the trigger reached, read on the store just before the splice */
  readonly trigger: () => Plan["trigger"];
  /** the run's summarizer calls, accounted to its steps */
  readonly ledger: CallLedger;
  /** the memory flush candidates of the stretch [start, end) of `messages` (memory_candidates > 0), else undefined */
  readonly candidates?: (messages: readonly Message[], start: number, end: number) => MemoryCandidate[];
  /** the candidates of the records the run wrote, in commit order (handed to onMemoryCandidates after it) */
  readonly handed: MemoryCandidate[];
}

/** A record to write, of its kind. */
export type StepEntry =
  | { readonly kind: "compaction"; readonly record: CompactionRecord }
  | { readonly kind: "clearing"; readonly record: ClearingRecord }
  | { readonly kind: "restore"; readonly record: RestoreRecord }
  | { readonly kind: "unshrinkable"; readonly record: UnshrinkableRecord }
  | { readonly kind: "pop"; readonly record: PopRecord }
  | { readonly kind: "clear"; readonly record: ClearRecord };

/** What one guarded write writes: a record, or a run's records together (staged-run.ts), numbered in sequence. */
export type NewEntry = StepEntry | { readonly kind: "run"; readonly entries: readonly StepEntry[] };

/** The records of an entry to write, in order. */
export function recordsOf(e: NewEntry): readonly StepEntry[] {
  return e.kind === "run" ? e.entries : [e];
}

/** A step's decision at the commit: rejected, or applied to the store with the entry to write. */
export interface StepDecision {
  readonly outcome: CommitOutcome;
  readonly entry?: NewEntry;
}
