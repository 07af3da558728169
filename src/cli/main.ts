// The `safecut` command: read a conversation (file or stdin), compact it, write the result
// (stdout or --output) and a report (stderr or --report FILE). The input is never modified.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import type { ConversationFile, writeConversationFile } from "../adapters/conversation-file.ts";
import { FORMAT_NAMES } from "../adapters/detect.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { CompactResult } from "../library/compact-messages.ts";
import { SafecutError } from "../model/errors.ts";
import { assertTextNesting } from "../model/json-depth.ts";
import { EXIT, EXIT_CODES_HELP, EXIT_INTERRUPTED, exitCodeFor, exitCodeForOutcome } from "./exit-codes.ts";
import { addInspectCommand } from "./inspect-command.ts";
import type { CliIO } from "./io.ts";
import { abandonAllOutputs, type NamedFile, type PendingOutput, refuseSameFiles } from "./outputs.ts";
import { dryRunPlan, RUN_OPTIONS, reportSinkFor, runProgress, type Sink, sinkFor, stderrText } from "./run-telling.ts";
import { addSessionCommand } from "./session-command.ts";
import { type FlagValues, OUTPUT_HEADING, settingOptions, settingsFromFlags } from "./settings.ts";
import { decodeUtf8, readUtf8File } from "./utf8.ts";

export type { CliIO } from "./io.ts";

/** The version in package.json (the one source of it). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}

/** The files of a run as the user named them: the input (none for stdin), --output, --report. */
function namedFiles(
  file: string,
  flags: FlagValues,
  cwd: string,
): { input?: NamedFile; output?: NamedFile; report?: NamedFile } {
  const named = (label: string, v: string): NamedFile => ({ label: `${label} ${v}`, path: resolve(cwd, v) });
  return {
    ...(file === "-" ? {} : { input: named("the input", file) }),
    // `-o -` is stdout, as `-` is stdin for the input
    ...(typeof flags.output === "string" && flags.output !== "-" ? { output: named("--output", flags.output) } : {}),
    // `--report -` is stdout (reportSinkFor)
    ...(typeof flags.report === "string" && flags.report !== "-" ? { report: named("--report", flags.report) } : {}),
  };
}

async function runCompact(file: string, flags: FlagValues, io: CliIO): Promise<number> {
  const files = namedFiles(file, flags, io.cwd);
  // before anything is read or asked of a summarizer: no output may be the input or the other
  // output, and every output must be writable (its temporary file is created now)
  refuseSameFiles([files.input, files.output, files.report].filter((f): f is NamedFile => f !== undefined));
  const pending: PendingOutput[] = [];
  const toStdout = files.output === undefined;
  const stdoutTaken = !toStdout ? undefined : flags.dryRun === true ? "the plan" : "the conversation";
  try {
    return await compactFile(file, flags, io, {
      output: sinkFor(files.output, io, pending),
      report: reportSinkFor(flags, io, pending, stdoutTaken),
    });
  } finally {
    for (const p of pending) p.abandon();
  }
}

/** The input's text: stdin's, or the file's bytes decoded strictly as UTF-8. */
async function inputText(file: string, io: CliIO): Promise<string> {
  return file === "-" ? io.readStdin() : readUtf8File(file, io.cwd);
}

/**
 * What a run writes as its output: the --dry-run plan, or the compacted conversation written the
 * way the input was (its format, container, envelope and layout), with the run's summary tag.
 */
function outputText(
  conv: ConversationFile,
  result: CompactResult,
  dryRun: boolean,
  write: typeof writeConversationFile,
): string {
  if (dryRun) return dryRunPlan(conv.format, result.report);
  return write(result.messages, {
    format: conv.format,
    container: conv.container,
    envelope: conv.envelope,
    key: conv.key,
    writeItems: conv.writeItems,
    layout: conv.layout,
    summaryTag: result.config.summary_tag,
  });
}

async function compactFile(
  file: string,
  flags: FlagValues,
  io: CliIO,
  outputs: { output?: Sink | undefined; report?: Sink | undefined },
): Promise<number> {
  const quiet = flags.quiet === true;
  const { progress, onProgress, onState } = runProgress(flags, io);
  // loaded here, not at the top: the config parser, the adapters and the engine bring zod and
  // the tokenizer, which would make `safecut --help` slow to start
  const { parseConfig } = await import("../engine/boundary/config-rules.ts");
  // the settings are parsed once, before the input is read, and passed down as they are
  const config = parseConfig(settingsFromFlags(flags, io.cwd));
  const text = await inputText(file, io);
  const name = file === "-" ? "stdin" : file;
  // before any parsing or work: nesting that Node's recursive helpers could not write back
  assertTextNesting(text, name);
  const { readConversationFile, writeConversationFile } = await import("../adapters/conversation-file.ts");
  const { compactParsed } = await import("../library/compact-messages.ts");
  const format = FORMAT_NAMES.find((f) => f === flags.format);
  const conv = readConversationFile(text, { format, summaryTag: config.summary_tag });
  const result = await compactParsed(conv.messages, config, {
    // AI SDK and Responses files: thresholds, window and report count their own items
    items: conv.items,
    agentModel: conv.model,
    env: io.env,
    dryRun: flags.dryRun === true,
    // progress for long runs only (see progress.ts), never with --quiet
    onProgress,
    onState,
  });
  progress.finish();
  const report: CompactionReport = result.report;
  const lawFailed = report.laws.some((l) => !l.ok);
  // the conversation (or the plan) first: a report never claims an output that is not there
  if (!lawFailed) {
    const out = outputText(conv, result, flags.dryRun === true, writeConversationFile);
    if (outputs.output !== undefined) await outputs.output.commit(out, io.beforeRename);
    // awaited: a stdout closed by its reader ends the process here, before the report is written
    else await io.stdout(out);
  }
  if (outputs.report !== undefined) {
    await outputs.report.commit(
      `${JSON.stringify({ input: name, format: conv.format, ...report }, null, 2)}\n`,
      io.beforeRename,
    );
  }
  const code = lawFailed ? EXIT.internal : exitCodeForOutcome(report.outcome);
  const told = stderrText(report, { name, code, lawFailed, quiet, reportFile: outputs.report !== undefined });
  if (told !== undefined) io.stderr(told);
  return code;
}

/** The examples and the pointer to sessions that close `safecut compact --help`. */
const COMPACT_EXAMPLES = `Examples:
  safecut compact session.json -o compacted.json       compact once it is over the token trigger (--token-threshold)
  safecut compact session.json --dry-run               show the whole plan (clearing, summaries, calls, tokens) and change nothing
  safecut compact session.jsonl --token-threshold 50000 --provider openai --model gpt-4o-mini -o out.jsonl
  safecut compact session.json --strategy clear -o out.json   only clear old tool results, no model call
  cat session.json | safecut compact - --report report.json > out.json

Sessions:
  a conversation kept as a session (a JSONL log file or a PostgreSQL table) is compacted step by step,
  each step one guarded write: see safecut session --help`;

/** Builds the commander program; `run` receives the parsed `compact` invocation, `setCode` a session command's exit code. */
function program(
  io: CliIO,
  run: (file: string, flags: FlagValues) => Promise<void>,
  setCode: (code: number) => void,
): Command {
  const p = new Command("safecut")
    .description("Compact an LLM agent's conversation history, with laws checked by a verified kernel.")
    .version(packageVersion(), "-V, --version", "print safecut's version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .addHelpText("after", `\n${EXIT_CODES_HELP}\n`);
  const compact = p
    .command("compact")
    .description(
      "compact a conversation (JSON or JSONL; OpenAI chat, Anthropic, AI SDK or OpenAI Responses shape); prints the result on stdout and a report on stderr",
    )
    .argument("<file>", "conversation file, or - for stdin")
    .optionsGroup(OUTPUT_HEADING)
    .option(
      "-c, --config <file>",
      'JSON configuration file, e.g. {"token_threshold": 30000}; settings are snake_case, listed in docs/settings.md',
    )
    .addOption(new Option("--format <name>", "input format (auto-detected if absent)").choices([...FORMAT_NAMES]))
    .option("-o, --output <file>", "write the compacted conversation (with --dry-run: the plan) here instead of stdout")
    .addOption(RUN_OPTIONS.report())
    .addOption(RUN_OPTIONS.dryRun())
    .addOption(RUN_OPTIONS.progress())
    .addOption(RUN_OPTIONS.quiet());
  // the settings' own flags, with their help and group, from the table of settings
  for (const { option } of settingOptions()) compact.addOption(option);
  compact
    .addHelpText("after", `\n${COMPACT_EXAMPLES}\n\n${EXIT_CODES_HELP}\n`)
    .action(async (file: string, flags: FlagValues) => run(file, flags));
  addSessionCommand(p, io, setCode);
  addInspectCommand(p, io, setCode);
  return p;
}

/** Runs the CLI with `argv` (arguments after the program name); returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let code: number = EXIT.ok;
  const p = program(
    io,
    async (file, flags) => {
      code = await runCompact(file, flags, io);
    },
    (c) => {
      code = c;
    },
  );
  try {
    if (argv.length === 0) {
      p.outputHelp();
      return EXIT.usage;
    }
    await p.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof SafecutError) {
      io.stderr(`safecut: error: ${e.message}\n`);
      return exitCodeFor(e.kind);
    }
    // a bug: one line for the user; the stack trace only on request
    const debug = io.env.SAFECUT_DEBUG === "1";
    io.stderr(
      `safecut: internal error (a bug in safecut, please report it): ${e instanceof Error ? e.message : String(e)}\n`,
    );
    if (debug && e instanceof Error && e.stack !== undefined) io.stderr(`${e.stack}\n`);
    return EXIT.internal;
  }
}

/**
 * Makes the process end cleanly when it cannot go on: SIGINT and SIGTERM (while waiting on a
 * summarizer, say) and a stdout or stderr closed by its reader (`| head`) remove every temporary
 * output file and exit with the code a shell gives such an end (130, 143, 141). A signal is told in
 * one line (a Ctrl-C that ends a run without a word looks like a crash); a closed pipe prints nothing.
 * SIGKILL cannot be caught: the next run sweeps what it left (outputs.ts, sweepStale).
 */
function guardProcess(): void {
  const end = (code: number) => {
    abandonAllOutputs();
    process.exit(code);
  };
  const interrupted = (signal: "SIGINT" | "SIGTERM") => {
    // on a terminal the progress line is erased first
    const clear = process.stderr.isTTY === true ? "\r\x1b[2K" : "";
    process.stderr.write(`${clear}safecut: interrupted by ${signal}: no output written, the input is untouched\n`);
    end(EXIT_INTERRUPTED[signal]);
  };
  process.on("SIGINT", () => interrupted("SIGINT"));
  process.on("SIGTERM", () => interrupted("SIGTERM"));
  const closed = (e: NodeJS.ErrnoException) => end(e.code === "EPIPE" ? EXIT_INTERRUPTED.SIGPIPE : EXIT.internal);
  process.stdout.on("error", closed);
  process.stderr.on("error", closed);
}

/** The real process's IO (installs the handlers of guardProcess). */
export function processIO(): CliIO {
  guardProcess();
  return {
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return decodeUtf8(Buffer.concat(chunks), "stdin");
    },
    // settles when written; on a write error the stream's error handler (guardProcess) ends the process
    stdout: (s) => new Promise<void>((done) => process.stdout.write(s, (e) => e == null && done())),
    stderr: (s) => void process.stderr.write(s),
    stderrIsTTY: process.stderr.isTTY === true,
    stderrColumns: process.stderr.columns,
    env: process.env,
    cwd: process.cwd(),
  };
}
