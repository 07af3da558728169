// API: advanceWatermark(current, proposed, newestUserIndex): number -- L10.

//@ verify
//@ ensures \result >= current
//@ ensures current <= newestUserIndex ==> \result <= newestUserIndex
//@ ensures \result == current || \result == proposed || \result == newestUserIndex
//@ ensures proposed <= current ==> \result == current
//@ ensures (current <= proposed && proposed <= newestUserIndex) ==> \result == proposed
//@ ensures (current <= newestUserIndex && newestUserIndex <= proposed) ==> \result == newestUserIndex
//@ ensures newestUserIndex < current ==> \result == current
/** The next persisted watermark: never moves back, never passes the newest user message, else as far as proposed (L10). */
export function advanceWatermark(current: number, proposed: number, newestUserIndex: number): number {
  if (proposed <= current) return current;
  if (proposed <= newestUserIndex) return proposed;
  // Proposed overshoots the newest user message: clamp, unless the watermark is already past it
  // (possible only if the caller persisted it earlier); then stay put rather than move back.
  if (newestUserIndex >= current) return newestUserIndex;
  return current;
}
