// API: joinedBytes(lineBytes, a, b): number (spec); keepHeadLines(lineBytes, maxLines, maxBytes): number;
//      keepTailLines(lineBytes, maxLines, maxBytes): number -- L11.
// The kernel sees only the byte length of each line; the engine splits and slices the strings.
// Kept text = the kept lines joined by "\n" (one byte each), with no trailing newline:
// bytes(lines a..b) = sum of their lengths + (number of lines - 1), and 0 for no line.

import { sumTokens } from "./progress.ts";

//@ spec
//@ requires 0 <= a && a <= b && b <= lineBytes.length
/** Bytes of lines a..b-1 joined by single newline bytes (0 for an empty range): the kernel's one recursive sum, sumTokens, plus a newline between two lines. */
export function joinedBytes(lineBytes: readonly number[], a: number, b: number): number {
  if (a === b) return 0;
  return sumTokens(lineBytes, a, b) + (b - a - 1);
}

//@ verify
//@ requires maxLines >= 0 && maxBytes >= 0
//@ requires lineBytes.length <= 9007199254740991
//@ requires forall(k: nat, k < lineBytes.length ==> lineBytes[k] >= 0) && joinedBytes(lineBytes, 0, lineBytes.length) <= 9007199254740991
//@ type \result nat
//@ ensures \result <= lineBytes.length && \result <= maxLines
//@ ensures joinedBytes(lineBytes, 0, \result) <= maxBytes
//@ ensures forall(m: nat, \result < m && m <= lineBytes.length && m <= maxLines ==> joinedBytes(lineBytes, 0, m) > maxBytes)
/** How many lines to keep from the head: the most that fit both the line and the byte budget (L11). */
export function keepHeadLines(lineBytes: readonly number[], maxLines: number, maxBytes: number): number {
  let k = 0;
  let bytes = 0;
  while (k < lineBytes.length && k < maxLines) {
    //@ invariant 0 <= k && k <= lineBytes.length && k <= maxLines
    //@ invariant bytes === joinedBytes(lineBytes, 0, k)
    //@ invariant 0 <= bytes && bytes <= maxBytes
    // The separator is paid only from the second kept line on; a head never outgrows all lines.
    //@ use JoinedGrowsRight(lineBytes, 0, k + 1)
    //@ use JoinedAppend(lineBytes, 0, k)
    const next = k === 0 ? lineBytes[0] : bytes + 1 + lineBytes[k];
    if (next > maxBytes) {
      // Sizes only grow with more lines, so no longer head fits either.
      //@ use JoinedGrowsRight(lineBytes, 0, k + 1)
      break;
    }
    bytes = next;
    k = k + 1;
  }
  return k;
}

//@ verify
//@ requires maxLines >= 0 && maxBytes >= 0
//@ requires lineBytes.length <= 9007199254740991
//@ requires forall(k: nat, k < lineBytes.length ==> lineBytes[k] >= 0) && joinedBytes(lineBytes, 0, lineBytes.length) <= 9007199254740991
//@ type \result nat
//@ ensures \result <= lineBytes.length && \result <= maxLines
//@ ensures joinedBytes(lineBytes, lineBytes.length - \result, lineBytes.length) <= maxBytes
//@ ensures forall(m: nat, \result < m && m <= lineBytes.length && m <= maxLines ==> joinedBytes(lineBytes, lineBytes.length - m, lineBytes.length) > maxBytes)
/** How many lines to keep from the tail: the most that fit both the line and the byte budget (L11). */
export function keepTailLines(lineBytes: readonly number[], maxLines: number, maxBytes: number): number {
  const n = lineBytes.length;
  let k = 0;
  let bytes = 0;
  while (k < n && k < maxLines) {
    //@ invariant 0 <= k && k <= n && k <= maxLines
    //@ invariant bytes === joinedBytes(lineBytes, n - k, n)
    //@ invariant 0 <= bytes && bytes <= maxBytes
    //@ use JoinedPrepend(lineBytes, n - k - 1, n)
    //@ use JoinedGrowsLeft(lineBytes, n - k - 1, n)
    const next = k === 0 ? lineBytes[n - 1] : lineBytes[n - k - 1] + 1 + bytes;
    if (next > maxBytes) {
      //@ use JoinedGrowsLeft(lineBytes, n - k - 1, n)
      break;
    }
    bytes = next;
    k = k + 1;
  }
  return k;
}
