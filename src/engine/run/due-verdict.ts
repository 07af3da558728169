// The caller's "is it due", kept with what it was decided on, so a run that starts on the same
// counts takes it instead of asking the kernel's trigger again (one decision per session compact).
import type { Config } from "../../model/config.ts";
import { budgetBytes, dueBy, type Plan } from "./plan.ts";

/** The counts the trigger reads (L1): tokens, items (message_threshold), user turns, the request's bytes (budgetBytes: undefined without a byte budget). */
export interface DueCounts {
  readonly tokens: number;
  readonly items: number;
  readonly userTurns: number;
  readonly bytes: number | undefined;
}

/**
 * The kernel's answer to "is it due" for one configuration and these counts (dueVerdict): the
 * trigger that fired ("request bytes" included) or "none". A caller that checked it before a run
 * (a session, on its context's running counts) hands it to the run (CompactOptions.due), which takes
 * it when its own counts are these, instead of asking again.
 */
export interface DueVerdict {
  readonly trigger: Plan["trigger"];
  readonly config: Config;
  readonly counts: DueCounts;
}

// the verdicts dueVerdict made: a run takes only these (never a caller's hand-made trigger)
const madeVerdicts = new WeakSet<DueVerdict>();

/** The trigger of `c` for these counts (dueBy, counted tokens), kept with what it was decided on. */
export function dueVerdict(c: Config, counts: DueCounts): DueVerdict {
  const { tokens, items, userTurns } = counts;
  // as a run's own counts carry them: none without a byte budget
  const bytes = counts.bytes === undefined ? undefined : budgetBytes(c, { totalBytes: counts.bytes });
  const v: DueVerdict = Object.freeze({
    trigger: dueBy(c, tokens, items, userTurns, false, bytes),
    config: c,
    counts: Object.freeze({ tokens, items, userTurns, bytes }),
  });
  madeVerdicts.add(v);
  return v;
}

/**
 * The trigger of `c` for these counts: `v`'s, when dueVerdict made it for this configuration and
 * exactly these counts; otherwise decided here (dueBy). Either way one kernel decision.
 */
export function dueFor(v: DueVerdict | undefined, c: Config, counts: DueCounts): Plan["trigger"] {
  if (v !== undefined && madeVerdicts.has(v) && v.config === c && sameCounts(v.counts, counts)) return v.trigger;
  return dueBy(c, counts.tokens, counts.items, counts.userTurns, false, counts.bytes);
}

function sameCounts(a: DueCounts, b: DueCounts): boolean {
  return a.tokens === b.tokens && a.items === b.items && a.userTurns === b.userTurns && a.bytes === b.bytes;
}
