// Provider-reported usage as the engine takes it: the kernel's ReportedPrefix (a prompt token
// count for the store's first `end` messages), which the trigger judges instead of the counted
// tokens of those messages (docs/library.md, "Reported usage"). This file checks such a report against the
// store's counts; the library turns the caller's shapes (the `usage` option or setting) into it
// (library/usage.ts); what the trigger judges, and how the report is carried across a step, are
// the kernel's (trigger.ts).
import type { ReportedPrefix } from "../../kernel/trigger.ts";
import { InputError } from "../../model/errors.ts";
import { describeJson } from "../../model/json.ts";
import { EXACT_LIMIT, EXACT_LIMIT_NAME, isNat } from "../boundary/exact.ts";

/** Refuses a count that is not an integer from 0 to 2^53 - 1, naming `field`. */
export function assertReportCount(v: unknown, field: string): void {
  if (typeof v !== "number" || !isNat(v))
    throw new InputError(field, `must be an integer from 0 to ${EXACT_LIMIT_NAME}, got ${describeJson(v)}`);
}

/** Checks a report as the engine takes it (compactStore's option), naming `usage.reported` / `usage.end`. */
export function assertReportedPrefix(u: ReportedPrefix, messages: number): void {
  if (typeof u !== "object" || u === null)
    throw new InputError("usage", `expected { reported, end }, got ${describeJson(u)}`);
  assertReportCount(u.reported, "usage.reported");
  assertReportCount(u.end, "usage.end");
  if (u.end > messages)
    throw new InputError("usage.end", `the report covers ${u.end} messages but the conversation has ${messages}`);
}

/**
 * A report refused for its size, naming the engine's field `usage.reported`: a caller that took
 * the count from a field of its own (the library's `usage` option or setting) renames it with
 * `naming`, so the engine never needs to know the caller's field names.
 */
export class ReportTooLargeError extends InputError {
  /** the refusal without the field */
  readonly detail: string;
  constructor(detail: string) {
    super("usage.reported", detail);
    this.detail = detail;
  }
  /** The same refusal naming `field`, where the reported count came from. */
  naming(field: string): InputError {
    return new InputError(field, this.detail);
  }
}

/**
 * Refuses a report the trigger could not judge exactly: the report plus the counts after its
 * prefix past 2^53 - 1 (reads, so counts, only those). Checked before the trigger, so the error
 * names the report (ReportTooLargeError) instead of the kernel's boundary.
 */
export function assertReportJudgeable(u: ReportedPrefix, tokens: readonly number[]): void {
  let room = EXACT_LIMIT - u.reported;
  for (let i = u.end; i < tokens.length; i++) {
    room -= tokens[i];
    if (room < 0)
      throw new ReportTooLargeError(
        `the reported ${u.reported} tokens plus the tokens counted after the report pass ${EXACT_LIMIT_NAME}`,
      );
  }
}

/**
 * Refuses, before any summarizer call, a report that a step could take past 2^53 - 1: a step adds
 * at most its summary's count to the report (usageAfterSplice), a summary is accepted only when it
 * counts fewer tokens than what it replaces (L8), and reports only shrink and totals only fall
 * across steps, so the report plus the counted total bounds every sum a step makes (messages
 * appended during a run could raise the total: the kernel's boundary check still stands behind).
 */
export function assertReportFitsSteps(u: ReportedPrefix, totalTokens: number): void {
  if (u.reported > EXACT_LIMIT - totalTokens)
    throw new ReportTooLargeError(
      `the reported ${u.reported} tokens plus the conversation's ${totalTokens} counted tokens pass ${EXACT_LIMIT_NAME}: a compaction step could not carry the report exactly`,
    );
}
