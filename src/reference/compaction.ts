// Reference for src/kernel/compaction.ts: the reference selector, then Array.prototype.splice.
import type { RoleStep } from "../kernel/compaction.ts";
import type { Role } from "../kernel/roles.ts";
import { selectStretch } from "./stretch.ts";

/** Plain reference of compactRolesOnce. */
export function compactRolesOnce(
  roles: readonly Role[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
): RoleStep {
  const st = selectStretch(roles, callOf, lastAnswer, ongoing, window);
  if (!st.found) return { changed: false, roles, start: 0, end: 0 };
  const out = [...roles];
  out.splice(st.start, st.end - st.start, "summary");
  return { changed: true, roles: out, start: st.start, end: st.end };
}
