// Reference for src/kernel/splice.ts, with the array built-ins.
import type { Role } from "../kernel/roles.ts";

/** Plain reference of splice. */
export function splice<T>(xs: readonly T[], start: number, end: number, summary: T): T[] {
  return [...xs.slice(0, start), summary, ...xs.slice(end)];
}

/** Plain reference of spliceRoles. */
export function spliceRoles(roles: readonly Role[], start: number, end: number, _window: number): Role[] {
  const copy = [...roles];
  copy.splice(start, end - start, "summary");
  return copy;
}
