// The range in which JavaScript numbers behave like the proofs' unbounded integers. The kernel's
// proofs read `number` as a mathematical integer; a double is one exactly up to 2^53 - 1, and
// adds exactly as long as every partial sum stays there. The kernel gate and the token ledger
// use these checks, so every sum the kernel computes stays in this range (proofs/PROPERTIES.md).

/** The largest integer below which every sum the kernel forms is computed exactly: 2^53 - 1. */
export const EXACT_LIMIT = Number.MAX_SAFE_INTEGER;

/** How EXACT_LIMIT is named in error messages. */
export const EXACT_LIMIT_NAME = "2^53 - 1";

/** A safe integer >= 0. */
export function isNat(x: number): boolean {
  return Number.isSafeInteger(x) && x >= 0;
}

/**
 * True when xs[from..to) are safe integers >= 0 whose sum plus `extra` (>= 0) is at most
 * EXACT_LIMIT: then every partial sum of them is exact, and so is every difference of two.
 */
export function natsSumExactly(xs: readonly number[], extra = 0, from = 0, to = xs.length): boolean {
  // `room` only shrinks by amounts it holds, so it stays a safe integer and the test is exact.
  let room = EXACT_LIMIT - extra;
  for (let i = from; i < to; i++) {
    const x = xs[i];
    if (!isNat(x) || x > room) return false;
    room -= x;
  }
  return true;
}
