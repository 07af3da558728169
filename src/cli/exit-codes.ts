// The CLI's exit codes, documented in `safecut --help`.

import type { Outcome } from "../engine/run/report.ts";
import type { ErrorKind } from "../model/errors.ts";

/** Exit codes of `safecut`. */
export const EXIT = {
  /** compacted, nothing to do, or dry run */
  ok: 0,
  /** bad input or configuration: invalid JSON, unknown role, orphan tool result, invalid setting, unreadable input, unwritable output */
  badInput: 1,
  /** usage error: unknown option, missing argument, an output that is the input or the other output, --quiet with --progress */
  usage: 2,
  /** summarizer failure: the failed step changed nothing; the conversation is written as it stands, the reason is in the report */
  degraded: 3,
  /** internal error: a runtime law check failed on the result (the conversation is not written), or a bug */
  internal: 4,
  /** the result is written but still above a trigger: what is left may not be summarized (user/system messages, summaries, the retention window) */
  stillDue: 5,
  /** another writer (a process compacting the same session) committed first: this run's step was not applied; nothing failed */
  superseded: 6,
} as const;

/**
 * Exit codes of a run ended from outside, as a shell reports a process killed by that signal
 * (128 + its number), with every temporary output removed and nothing printed: interrupted
 * (SIGINT, Ctrl-C), terminated (SIGTERM), or its stdout (or stderr) closed by the reader (EPIPE,
 * as with SIGPIPE: `safecut compact conv.json | head`).
 */
export const EXIT_INTERRUPTED = { SIGINT: 130, SIGPIPE: 141, SIGTERM: 143 } as const;

/** The exit code of a run that finished with `outcome` (all its law checks passed). */
export function exitCodeForOutcome(outcome: Outcome): number {
  switch (outcome) {
    case "compacted":
    case "nothing-to-do":
    case "dry-run":
      return EXIT.ok;
    case "degraded":
      return EXIT.degraded;
    case "compacted-still-due":
    case "still-due":
      return EXIT.stillDue;
    case "superseded":
      return EXIT.superseded;
  }
}

/** The exit code for an error kind. */
export function exitCodeFor(kind: ErrorKind): number {
  switch (kind) {
    case "input":
    case "config":
      return EXIT.badInput;
    case "usage":
      return EXIT.usage;
    case "summarizer":
      return EXIT.degraded;
    case "internal":
      return EXIT.internal;
  }
}

/** The `--help` epilogue describing the exit codes. */
export const EXIT_CODES_HELP = `Exit codes:
  0  compacted (now under every trigger), nothing to do, or dry run
  1  bad input or configuration (invalid JSON, unknown role, orphan tool result,
     duplicate tool call id, value nested too deep, invalid setting,
     unreadable input, unwritable output); found before any summarizer call
  2  usage error (unknown option, missing argument, an output that is the input
     or the other output, --quiet with --progress); nothing is done
  3  summarizer failure: the failed step changed nothing; the conversation is
     written as it stands and the reason is in the report
  4  internal error: a runtime law check failed (the conversation is not
     written), or a bug (SAFECUT_DEBUG=1 prints its stack trace)
  5  still due: the result is written but is still above a trigger, because
     what is left may not be summarized; the report says where the tokens are
  6  superseded: another writer (a process compacting the same session)
     committed first while a step was summarizing; that step was not applied
     and the run stopped; nothing failed: run it again to go on
  130, 143  interrupted (SIGINT) or terminated (SIGTERM): nothing is written
     and no temporary file is left
  141  stdout closed by its reader (| head): the run ends quietly

The input file is never modified. API keys are read from OPENAI_API_KEY and
ANTHROPIC_API_KEY.`;
