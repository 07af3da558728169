// How a finished run is classified: a pure function of what the run did (stretches replaced,
// stretches left unchanged and why, whether a failure stopped it, whether it is still due).
// The outcome and the reason the report shows; the CLI maps the outcome to its exit code.

import { countOf } from "./plural.ts";
import type { InputRange } from "./positions.ts";
import type { Outcome } from "./report.ts";

/** A stretch the run left unchanged, as the classification reads it. */
export interface LeftStretch {
  readonly input: InputRange;
  readonly reason: string;
  /** every answer was rejected only for not being shorter: the stretch did not shrink, nothing failed */
  readonly cannotShrink: boolean;
}

/** What a finished run did. */
export interface RunFacts {
  /** a dry run that planned a stretch */
  readonly planned: boolean;
  /** why a failure ended the run (a summarizer that failed to answer), if one did */
  readonly stopped?: string;
  /** why another writer's change, committed first, ended the run (the step planned before it was not applied), if one did */
  readonly superseded?: string;
  readonly replaced: number;
  readonly left: readonly LeftStretch[];
  readonly dueAfter: boolean;
  /** why the loop stopped when nothing failed (under the trigger, nothing eligible, ...) */
  readonly reason: string;
}

const span = (r: InputRange) => `${r.first}..${r.last}`;

/**
 * The outcome and reason of a run. A failure that stopped it, or a stretch whose summaries were
 * rejected for another reason than not being shorter (facts dropped, empty, over max_tokens)
 * while nothing was replaced, degrades it; a stretch no summary could shorten is no failure: the
 * run then ends on what it left, still due or not.
 */
export function classifyRun(f: RunFacts): { outcome: Outcome; reason: string } {
  const left = countOf(f.left.length, "stretch", "stretches");
  // a stretch left unchanged besides replaced ones: the report's skipped list says which
  const withSkipped = (reason: string) =>
    f.replaced > 0 && f.left.length > 0 ? `${reason}; ${left} left unchanged (see skipped)` : reason;
  if (f.planned) return { outcome: "dry-run", reason: f.reason };
  if (f.stopped !== undefined) return { outcome: "degraded", reason: withSkipped(f.stopped) };
  if (f.superseded !== undefined) return { outcome: "superseded", reason: withSkipped(f.superseded) };
  const failed = f.left.find((s) => !s.cannotShrink);
  if (f.replaced === 0 && failed !== undefined) {
    return {
      outcome: "degraded",
      reason: `no stretch could be summarized (${f.left.length} tried, all left unchanged); first: messages ${span(failed.input)}: ${failed.reason}`,
    };
  }
  const first = f.left[0];
  const reason =
    f.replaced === 0 && first !== undefined
      ? `${f.reason}; ${left} left unchanged: no summary of it was shorter (first: messages ${span(first.input)}: ${first.reason})`
      : withSkipped(f.reason);
  if (f.dueAfter) return { outcome: f.replaced > 0 ? "compacted-still-due" : "still-due", reason };
  return { outcome: f.replaced > 0 ? "compacted" : "nothing-to-do", reason };
}
