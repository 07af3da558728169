// The CLI's exit codes, documented in `safecut --help`.
import type { ErrorKind } from "../engine/errors.ts";

/** Exit codes of `safecut`. */
export const EXIT = {
  /** compacted, nothing to do, or dry run */
  ok: 0,
  /** bad input or configuration: invalid JSON, unknown role, orphan tool result, invalid setting, unreadable input, unwritable output */
  badInput: 1,
  /** usage error: unknown option, missing argument, output would overwrite the input */
  usage: 2,
  /** summarizer failure: the failed step changed nothing; the conversation is written as it stands, the reason is in the report */
  degraded: 3,
  /** internal error: a runtime law check failed on the result; nothing is written */
  internal: 4,
} as const;

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
  0  compacted, nothing to do, or dry run
  1  bad input or configuration (invalid JSON, unknown role, orphan tool result,
     duplicate tool call id, invalid setting, unreadable input,
     unwritable output)
  2  usage error (unknown option, missing argument, --output equal to the input)
  3  summarizer failure: the failed step changed nothing; the conversation is
     written as it stands and the reason is in the report
  4  internal error: a runtime law check failed; nothing is written

The input file is never modified. API keys are read from OPENAI_API_KEY and
ANTHROPIC_API_KEY.`;
