// How a finished compaction run is told, by `compact` and `session compact` alike: the run flags
// both take (--report, --dry-run, --progress, --quiet: one definition each), where an output goes
// (a file written atomically, or stdout/stderr themselves), the --dry-run plan as JSON, and what
// stderr says under those flags.
import { resolve } from "node:path";
import { Option } from "commander";
import type { RunProgress } from "../engine/run/compact.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { SafecutError } from "../model/errors.ts";
import { EXIT } from "./exit-codes.ts";
import type { CliIO } from "./io.ts";
import { type BeforeRename, type NamedFile, PendingOutput, standardStream } from "./outputs.ts";
import { type Progress, progressDisplay } from "./progress.ts";
import { reportText } from "./report-text.ts";
import type { FlagValues } from "./settings.ts";

/** The run flags `compact` and `session compact` share, each defined once. */
export const RUN_OPTIONS = {
  report: (): Option =>
    new Option(
      "--report <file>",
      "write the report as JSON here, - for stdout (stderr keeps only the summary line and the reason)",
    ),
  dryRun: (): Option =>
    new Option(
      "--dry-run",
      "print the whole plan (what clearing frees, every part to summarize, the calls with their tokens, the tokens expected after) and change nothing",
    ),
  progress: (): Option =>
    new Option(
      "--progress",
      "show progress from the start, and every step when stderr is not a terminal (default: after a second, one updating line)",
    ),
  quiet: (): Option =>
    new Option(
      "-q, --quiet",
      "print nothing on stderr except errors and, when the exit code is not 0, the outcome and its reason",
    ).conflicts("progress"),
} as const;

/** Where an output goes: a file written atomically (PendingOutput), or stdout/stderr themselves. */
export interface Sink {
  commit(text: string, beforeRename?: BeforeRename): void | Promise<void>;
}

/** An output: stdout or stderr by any of their names, else a file opened now (added to `pending`, to abandon if the run fails). */
export function sinkFor(f: NamedFile | undefined, io: CliIO, pending: PendingOutput[]): Sink | undefined {
  if (f === undefined) return undefined;
  const fd = standardStream(f.path);
  if (fd !== undefined) return { commit: (text) => (fd === 1 ? io.stdout(text) : io.stderr(text)) };
  const p = PendingOutput.open(f);
  pending.push(p);
  return p;
}

/**
 * The --report output of a run: `-` is stdout (refused with a usage error when stdout already
 * carries what the run writes there: `stdoutTaken` names it), any other value a file as sinkFor
 * opens it, none when --report is absent.
 */
export function reportSinkFor(
  flags: FlagValues,
  io: CliIO,
  pending: PendingOutput[],
  stdoutTaken: string | undefined,
): Sink | undefined {
  const v = flags.report;
  if (typeof v !== "string") return undefined;
  if (v === "-") {
    if (stdoutTaken !== undefined)
      throw new SafecutError(
        "usage",
        `--report - and ${stdoutTaken} would both go to stdout: send one to a file (-o FILE or --report FILE)`,
      );
    return { commit: (text) => io.stdout(text) };
  }
  return sinkFor({ label: `--report ${v}`, path: resolve(io.cwd, v) }, io, pending);
}

/** The progress display of a run under its flags, and the callbacks to give the run (with --quiet: none shown, no timer). */
export function runProgress(
  flags: FlagValues,
  io: CliIO,
): { progress: Progress; onProgress: (line: string) => void; onState: (s: RunProgress) => void } {
  if (flags.quiet === true) {
    const none = () => {};
    return { progress: { update: none, state: none, finish: none }, onProgress: none, onState: none };
  }
  const progress = progressDisplay({
    write: io.stderr,
    tty: io.stderrIsTTY === true,
    always: flags.progress === true,
    ...(io.stderrColumns === undefined ? {} : { columns: io.stderrColumns }),
  });
  return { progress, onProgress: (line) => progress.update(line), onState: (s) => progress.state(s) };
}

/** The --dry-run plan as JSON (with `plan`, the whole plan, when the run plans batches); positions are the input's own messages, first and last inclusive, as in the reason's "messages 3..7". */
export function dryRunPlan(format: string, report: CompactionReport): string {
  const p = report.plannedStretch;
  const plannedStretch =
    p === undefined
      ? null
      : { first: p.input.first, last: p.input.last, replacedTokens: p.replacedTokens, trigger: p.trigger };
  return `${JSON.stringify(
    {
      format,
      due: report.dueBefore,
      tokens: report.tokensBefore,
      // with --usage: the count the trigger judged (the report plus the counts after it)
      ...(report.usage === undefined ? {} : { judgedTokens: report.usage.judgedTokensBefore }),
      messages: report.messagesBefore,
      plannedStretch,
      // the whole plan: clearing first, then every stretch, the calls, what it would leave
      ...(report.clearing === undefined ? {} : { clearing: report.clearing.reason }),
      ...(report.plan === undefined ? {} : { plan: report.plan }),
      reason: report.reason,
    },
    null,
    2,
  )}\n`;
}

/** How a finished run is told on stderr: what its report says, under which flags. */
export interface Telling {
  readonly name: string;
  readonly code: number;
  readonly lawFailed: boolean;
  readonly quiet: boolean;
  /** --report names a file: the details are there */
  readonly reportFile: boolean;
}

/**
 * What stderr says of a finished run: the whole report when a law failed; with --quiet, one line
 * for a run that did not end ok and nothing otherwise; with --report, the report's summary line,
 * reason and failure line (the details are in the file); else the whole report.
 */
export function stderrText(report: CompactionReport, t: Telling): string | undefined {
  if (t.lawFailed) return reportText(report, t.name);
  if (t.quiet) return t.code === EXIT.ok ? undefined : `safecut: ${t.name}: ${report.outcome}: ${report.reason}\n`;
  const text = reportText(report, t.name);
  if (!t.reportFile) return text;
  return `${text
    .split("\n")
    .slice(0, 2 + (report.failure === undefined ? 0 : 1) + (report.remaining === undefined ? 0 : 1))
    .join("\n")}\n`;
}
