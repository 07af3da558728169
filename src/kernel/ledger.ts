// API: ledgerSlot(roles, want): number; ledgerKept(count, cap): number; ledgerStepUse(clearedBefore, unchanged): LedgerStepUse
// -- L5 and L14: where the evidence ledger sits in the context sent and how much of it is kept. The ledger
// is one message the engine inserts beside the summaries (docs/ledger.md); inserted before a
// tool result it would stand between that result and the call it answers, so its slot is the
// first index at or after the wanted one that is not a tool result (or the end). Each of its
// lists keeps at most its cap of entries, so it never grows past its settings. What one tool step of
// a run's input does to the ledger: a step whose result was already a cleared placeholder was
// entered by the run that cleared it, and its placeholder says nothing of how the command ended, so
// it neither enters again nor closes an error; a step the run replaced enters; a step kept as read
// may only close the errors of its command (when it succeeded).
import type { Role } from "./roles.ts";

//@ verify
//@ requires 0 <= want && want <= roles.length && roles.length <= 9007199254740991
//@ ensures want <= \result && \result <= roles.length
//@ ensures \result < roles.length ==> roles[\result] !== "tool"
//@ ensures forall(i: int, want <= i && i < \result ==> roles[i] === "tool")
/** The index to insert the ledger at: the first at or after `want` that is not a tool result, so no call is separated from its result. */
export function ledgerSlot(roles: readonly Role[], want: number): number {
  let p = want;
  while (p < roles.length && roles[p] === "tool") {
    //@ invariant want <= p && p <= roles.length
    //@ invariant forall(i: int, want <= i && i < p ==> roles[i] === "tool")
    p = p + 1;
  }
  return p;
}

//@ verify
//@ requires count >= 0 && cap >= 0
//@ ensures \result <= cap && \result <= count && \result >= 0
//@ ensures \result === count || \result === cap
/** How many entries of a ledger list are kept: all of them up to its cap. */
export function ledgerKept(count: number, cap: number): number {
  if (count <= cap) return count;
  return cap;
}

/** What one tool step of a run's input does to the ledger: nothing, enters it, or may only close its command's errors. */
export type LedgerStepUse = "skip" | "enter" | "close";

//@ verify
//@ ensures clearedBefore ==> \result === "skip"
//@ ensures !clearedBefore && !unchanged ==> \result === "enter"
//@ ensures !clearedBefore && unchanged ==> \result === "close"
/** A step's use: "skip" when its result was cleared before the run (entered then), "enter" when the run replaced it, "close" when it is kept as read. */
export function ledgerStepUse(clearedBefore: boolean, unchanged: boolean): LedgerStepUse {
  if (clearedBefore) return "skip";
  if (unchanged) return "close";
  return "enter";
}
