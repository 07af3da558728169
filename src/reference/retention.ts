// Reference for src/kernel/retention.ts.

/** Plain reference of retentionCutoff: max(0, n - window). */
export function retentionCutoff(n: number, window: number): number {
  return Math.max(0, n - window);
}
