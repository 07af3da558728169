// API: retentionCutoff(n: number, window: number): number -- L3, first index of the retained tail.

//@ verify
//@ requires n >= 0 && window >= 1 && n <= 9007199254740991
//@ type \result nat
//@ ensures \result <= n
//@ ensures n - \result <= window
//@ ensures n >= window ==> n - \result == window
//@ ensures n <= window ==> \result == 0
/** Index of the first of the last `window` messages; indices at or after it are never touched (L3). */
export function retentionCutoff(n: number, window: number): number {
  // max(0, n - window), spelled as a branch so the prover sees both cases.
  if (n <= window) return 0;
  return n - window;
}
