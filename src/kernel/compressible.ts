// API: isCompressible(r: Role): boolean -- L2, which roles a compaction may summarize away.
import type { Role } from "./roles.ts";

//@ verify
//@ ensures \result <==> !(r === "user" || r === "system")
/** True for the roles a compaction may replace (assistant, tool, summary); user and system never (L2). */
export function isCompressible(r: Role): boolean {
  // Listed positively so that a new role added to Role is protected until someone decides otherwise.
  return r === "assistant" || r === "tool" || r === "summary";
}
