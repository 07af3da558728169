// Reference for src/kernel/ledger.ts.
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
