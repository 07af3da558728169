// Reference for src/kernel/compressible.ts: the L2 role table, written as a lookup.
import type { Role } from "../kernel/roles.ts";

const COMPRESSIBLE: Record<Role, boolean> = {
  system: false,
  user: false,
  assistant: true,
  tool: true,
  summary: true,
  compaction: false,
};

/** Plain reference of isCompressible. */
export function isCompressible(r: Role): boolean {
  return COMPRESSIBLE[r];
}
