// What the generated guards (kernel-requires.ts) need besides the kernel's own functions and
// the exactness checks (exact.ts): a bounded universal quantifier, for the preconditions that
// src/toolchain/emit/guard-list.ts states as hand-written checks.

/** True when p(i) holds for every i with 0 <= i < n (O(n) calls of p). */
export function allBelow(n: number, p: (i: number) => boolean): boolean {
  for (let i = 0; i < n; i++) if (!p(i)) return false;
  return true;
}
