// Reference for src/kernel/progress.ts.
import type { CompactionRun, Proposal } from "../kernel/progress.ts";

/** Plain reference of acceptSummary. */
export function acceptSummary(summaryTokens: number, replacedTokens: number, maxTokens: number): boolean {
  return summaryTokens < replacedTokens && summaryTokens <= maxTokens;
}

/** Plain reference of sumTokens / rangeTokens. */
export function sumTokens(xs: readonly number[], a: number, b: number): number {
  return xs.slice(a, b).reduce((x, y) => x + y, 0);
}

/** Plain reference of totalTokens. */
export function totalTokens(xs: readonly number[]): number {
  return xs.reduce((x, y) => x + y, 0);
}

/** Plain reference of compactedTokens. */
export function compactedTokens(
  tokens: readonly number[],
  start: number,
  end: number,
  summaryTokens: number,
): number[] {
  const copy = [...tokens];
  copy.splice(start, end - start, summaryTokens);
  return copy;
}

/** Plain reference of compactUntilStable. */
export function compactUntilStable(
  tokens: readonly number[],
  proposals: readonly Proposal[],
  maxTokens: number,
): CompactionRun {
  let cur = [...tokens];
  let accepted = 0;
  for (const p of proposals) {
    for (;;) {
      const valid = p.start >= 0 && p.start < p.end && p.end <= cur.length;
      if (!valid) break;
      const replaced = cur.slice(p.start, p.end).reduce((x, y) => x + y, 0);
      if (!(p.summaryTokens < replaced && p.summaryTokens <= maxTokens)) break;
      cur = [...cur.slice(0, p.start), p.summaryTokens, ...cur.slice(p.end)];
      accepted++;
    }
  }
  return { tokens: cur, accepted };
}

/** Plain reference of rejectionStreak. */
export function rejectionStreak(rejectedInARow: number, accepted: boolean): number {
  return accepted ? 0 : rejectedInARow + 1;
}

/** Plain reference of stopAfterRejections. */
export function stopAfterRejections(rejectedInARow: number, limit: number): boolean {
  return !(rejectedInARow < limit);
}
