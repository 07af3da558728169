// Reference for src/kernel/ledger.ts.
import type { LedgerStepUse } from "../kernel/ledger.ts";
import type { Role } from "../kernel/roles.ts";

/** Plain reference of ledgerSlot: the first index at or after `want` whose role is not "tool", else the end. */
export function ledgerSlot(roles: readonly Role[], want: number): number {
  const i = roles.findIndex((r, k) => k >= want && r !== "tool");
  return i < 0 ? roles.length : i;
}

/** Plain reference of ledgerKept: min(count, cap). */
export function ledgerKept(count: number, cap: number): number {
  return Math.min(count, cap);
}

/** Plain reference of ledgerStepUse: a step cleared before the run is skipped, else one the run changed enters and one kept closes. */
export function ledgerStepUse(clearedBefore: boolean, unchanged: boolean): LedgerStepUse {
  return clearedBefore ? "skip" : unchanged ? "close" : "enter";
}
