// Reference for src/kernel/watermark.ts.

/** Plain reference of advanceWatermark: max(current, min(proposed, newestUserIndex)). */
export function advanceWatermark(current: number, proposed: number, newestUserIndex: number): number {
  return Math.max(current, Math.min(proposed, newestUserIndex));
}
