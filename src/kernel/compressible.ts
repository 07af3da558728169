// API: isCompressible(r: Role): boolean -- L2, which roles a compaction may summarize away.
import type { Role } from "./roles.ts";

//@ verify
//@ ensures \result <==> !(r === "user" || r === "system" || r === "compaction")
//@ ensures r === "compaction" ==> !\result
/**
 * True for the roles a compaction may replace (assistant, tool, summary); user, system and a
 * provider's server-side compaction item never (L2).
 */
export function isCompressible(r: Role): boolean {
  // Listed positively so that a new role added to Role is protected until someone decides otherwise.
  return r === "assistant" || r === "tool" || r === "summary";
}
