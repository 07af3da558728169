// `safecut session ...`: a session (openSession's location: a log file path, or a postgres://
// URL naming the session) from the command line. import and append read a conversation file as
// compact does (conversation-items.ts: each item's original text), import all or nothing, compact runs the engine on the session with the same
// settings, report and exit codes as `compact`, show prints the context (--full: every item
// ever appended; --compactions: the records), stats its totals, export writes the context.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { FORMAT_NAMES, type FormatName } from "../adapters/detect.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import { isPostgresLocation, shownLocation } from "../session/pg-location.ts";
import type { Session } from "../session/session.ts";
import { EXIT, EXIT_CODES_HELP, exitCodeForOutcome } from "./exit-codes.ts";
import type { CliIO } from "./io.ts";
import type { PendingOutput } from "./outputs.ts";
import { dryRunPlan, RUN_OPTIONS, reportSinkFor, runProgress, stderrText } from "./run-telling.ts";
import { type FlagValues, settingOptions, settingsFromFlags } from "./settings.ts";
import { PRICE_OPTIONS, type PriceFlags, pricesOf, statsText } from "./stats-text.ts";
import { readUtf8File } from "./utf8.ts";

/** A location as openSession takes it: a path resolved against the working directory, a URL as given. */
function whereOf(location: string, io: CliIO): string {
  return isPostgresLocation(location) ? location : resolve(io.cwd, location);
}

async function open(location: string, io: CliIO, format?: FormatName, checksums = false): Promise<Session> {
  const { openSession } = await import("../session/open.ts");
  try {
    return await openSession(whereOf(location, io), {
      ...(format === undefined ? {} : { format }),
      ...(checksums ? { checksums } : {}),
      onWarning: (w) => io.stderr(`safecut: warning: ${w}\n`),
    });
  } catch (e) {
    // only import creates a session: elsewhere a missing one is missing, whatever the library would need to create it
    if (format === undefined && e instanceof InputError && e.path === "options.format")
      throw new InputError("", `no session at ${shownLocation(location)}: create one with safecut session import`);
    throw e;
  }
}

/**
 * Opens the session, runs `f` on it, and closes it on every path (an open database connection
 * would keep the process alive after an error); an error of `f` is the one reported.
 */
async function withSession<T>(
  location: string,
  io: CliIO,
  f: (s: Session) => Promise<T>,
  format?: FormatName,
): Promise<T> {
  const s = await open(location, io, format);
  let result: T;
  try {
    result = await f(s);
  } catch (e) {
    await s.close().catch(() => {});
    throw e;
  }
  await s.close();
  return result;
}

/** Appends a conversation file's items (read as the session's format, continuing it); returns how many. */
async function appendFile(s: Session, file: string, io: CliIO): Promise<number> {
  // loaded here: the reader brings the adapters and zod, which would make `safecut --help` slow to start
  const { conversationItems } = await import("./conversation-items.ts");
  const { texts } = conversationItems(readUtf8File(file, io.cwd), file, { format: s.format, slice: true });
  await s.appendTexts(texts);
  return texts.length;
}

/** Adds `session` and its subcommands to the program; `done` receives each run's exit code. */
export function addSessionCommand(p: Command, io: CliIO, done: (code: number) => void): void {
  const session = p
    .command("session")
    .description("a conversation kept in a session (a log file or PostgreSQL) that outlives the process");
  session
    .command("import")
    .description(
      "create a session from a conversation file (any file compact reads: JSONL, a JSON array, a request body); all or nothing",
    )
    .argument("<file>", "conversation file")
    .requiredOption(
      "--to <location>",
      "the session's location (a log file path, or postgres://user@host:port/db?session=ID; must not exist yet, or hold nothing)",
    )
    .addOption(
      new Option("--format <name>", "the conversation format (auto-detected as by compact if absent)").choices([
        ...FORMAT_NAMES,
      ]),
    )
    .option("--checksums", "a log file holds each item's checksum: a changed byte is refused on open, naming its line")
    .action(async (file: string, flags: { to: string; format?: FormatName; checksums?: boolean }) => {
      // read and checked before anything is created: a file compact would refuse creates nothing
      const { conversationItems } = await import("./conversation-items.ts");
      const { format, texts } = conversationItems(readUtf8File(file, io.cwd), file, {
        format: flags.format,
        slice: false,
      });
      if (format === undefined)
        throw new InputError(file, "the file holds no items: name the session's format with --format");
      const exists = () => new SafecutError("usage", `${shownLocation(flags.to)} exists already`);
      let s: Session;
      try {
        s = await open(flags.to, io, format, flags.checksums === true);
      } catch (e) {
        // a session of another format lives there
        if (e instanceof InputError && e.path === "options.format") throw exists();
        throw e;
      }
      try {
        // a session is created by the open (or was, and holds nothing yet): it must hold nothing
        if ((await s.version()) > 0) throw exists();
        await s.appendTexts(texts);
      } catch (e) {
        // all or nothing: the session this import created (or found empty) is removed again
        const { discardIfEmpty } = await import("../session/discard.ts");
        await discardIfEmpty(s).catch(() => {});
        throw e;
      }
      await s.close();
      io.stderr(`safecut: imported ${texts.length} items into ${shownLocation(flags.to)} (${format})\n`);
      done(0);
    });
  session
    .command("append")
    .description("append the items of a conversation file to a session")
    .argument("<location>", "the session")
    .argument("<file>", "conversation file (JSONL, a JSON array of items, or a request body) in the session's format")
    .action(async (location: string, file: string) => {
      const { n, version } = await withSession(location, io, async (s) => {
        const n = await appendFile(s, file, io);
        return { n, version: await s.version() };
      });
      io.stderr(`safecut: appended ${n} items to ${shownLocation(location)} (now at version ${version})\n`);
      done(0);
    });
  const compact = session
    .command("compact")
    .description("compact a session (each step one guarded write); settings, report and exit codes as for compact")
    .argument("<location>", "the session")
    .option(
      "-c, --config <file>",
      'JSON configuration file, e.g. {"token_threshold": 30000}; settings are snake_case, listed in docs/settings.md',
    )
    .addOption(RUN_OPTIONS.report())
    .addOption(RUN_OPTIONS.dryRun());
  for (const { option } of settingOptions()) compact.addOption(option);
  compact
    .addOption(RUN_OPTIONS.progress())
    .addOption(RUN_OPTIONS.quiet())
    .addHelpText("after", `\n${EXIT_CODES_HELP}\n`)
    .action(async (location: string, flags: FlagValues) => {
      const { parseConfig } = await import("../engine/boundary/config-rules.ts");
      const config = parseConfig(settingsFromFlags(flags, io.cwd));
      const name = shownLocation(location);
      const pending: PendingOutput[] = [];
      try {
        // opened before the run: an unwritable --report is refused before any summarizer call
        const dryRun = flags.dryRun === true;
        const reportSink = reportSinkFor(flags, io, pending, dryRun ? "the plan" : undefined);
        const { progress, onProgress, onState } = runProgress(flags, io);
        const { report, format } = await withSession(location, io, async (s) => ({
          report: await s.compact(config, { env: io.env, dryRun, onProgress, onState }),
          format: s.format,
        }));
        progress.finish();
        const lawFailed = report.laws.some((l) => !l.ok);
        if (dryRun) await io.stdout(dryRunPlan(format, report));
        await reportSink?.commit(`${JSON.stringify({ session: name, format, ...report }, null, 2)}\n`, io.beforeRename);
        const code = lawFailed ? EXIT.internal : exitCodeForOutcome(report.outcome);
        const quiet = flags.quiet === true;
        const told = stderrText(report, { name, code, lawFailed, quiet, reportFile: reportSink !== undefined });
        if (told !== undefined) io.stderr(told);
        done(code);
      } finally {
        for (const p of pending) p.abandon();
      }
    });
  session
    .command("show")
    .description("print the session's context (JSONL)")
    .argument("<location>", "the session")
    .option("--full", "every item ever appended, as appended")
    .option("--compactions", "the compaction records, as JSON")
    .option("--clearings", "the clearing and restore records, as JSON")
    .option("--memory", "the memory flush candidates the compaction records hold, in commit order, as JSON")
    .action(
      async (
        location: string,
        flags: { full?: boolean; compactions?: boolean; clearings?: boolean; memory?: boolean },
      ) => {
        const text = await withSession(location, io, async (s) => {
          if (flags.compactions === true) return `${JSON.stringify(await s.compactions(), null, 2)}\n`;
          if (flags.memory === true)
            return `${JSON.stringify(
              (await s.compactions()).flatMap((r) => r.memoryCandidates ?? []),
              null,
              2,
            )}\n`;
          if (flags.clearings === true) return `${JSON.stringify(await s.clearings(), null, 2)}\n`;
          return s.history({ full: flags.full === true });
        });
        io.stdout(text);
        done(0);
      },
    );
  const stats = session
    .command("stats")
    .description(
      "the session's totals: items, tokens saved, compactions, clearings, the summarizer calls with their usage and duration (and cost, with prices)",
    )
    .argument("<location>", "the session")
    .option("--json", "the totals as JSON")
    .option("-c, --config <file>", "JSON configuration file (its tokenizer counts the context's tokens)");
  for (const { name, option } of settingOptions()) if (name === "tokenizer") stats.addOption(option);
  for (const option of PRICE_OPTIONS) stats.addOption(option);
  stats.action(async (location: string, flags: FlagValues & PriceFlags & { json?: boolean }) => {
    const prices = pricesOf(flags);
    const { parseConfig } = await import("../engine/boundary/config-rules.ts");
    const { tokenCounter } = await import("../model/tokens.ts");
    const counter = tokenCounter(parseConfig(settingsFromFlags(flags, io.cwd)).tokenizer);
    const totals = await withSession(location, io, (s) => s.stats({ counter }));
    const { usageCost } = await import("../session/session-stats.ts");
    const cost =
      prices === undefined
        ? undefined
        : {
            usd: usageCost(totals.calls.usage, prices),
            byModel: totals.byModel.map((m) => usageCost(m.usage, prices)),
          };
    if (flags.json === true)
      io.stdout(
        `${JSON.stringify({ ...totals, ...(cost === undefined ? {} : { cost: { usd: cost.usd, prices } }) }, null, 2)}\n`,
      );
    else io.stdout(statsText(totals, cost));
    done(0);
  });
  session
    .command("restore")
    .description("bring a cleared tool result back into the session's context (its original text)")
    .argument("<location>", "the session")
    .argument("<tool-call-id>", "the id of the tool call whose result was cleared")
    .action(async (location: string, id: string) => {
      await withSession(location, io, (s) => s.restore(id));
      io.stderr(`safecut: restored the result of ${id}\n`);
      done(0);
    });
  session
    .command("export")
    .description("write the session's context (JSONL) to stdout or a file")
    .argument("<location>", "the session")
    .option("-o, --output <file>", "write here instead of stdout")
    .action(async (location: string, flags: { output?: string }) => {
      const text = await withSession(location, io, (s) => s.contextText());
      if (flags.output === undefined) io.stdout(text);
      else writeFileSync(resolve(io.cwd, flags.output), text);
      done(0);
    });
}
