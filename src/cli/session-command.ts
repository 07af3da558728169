// `safecut session ...`: a session (openSession's location: a log file path, or a postgres://
// URL naming the session) from the command line. import and append read a conversation file (JSONL: each line one item, kept byte for
// byte; a JSON array: each element), compact runs the engine on the session with the same
// settings, report and exit codes as `compact`, show prints the context (--full: every item
// ever appended; --compactions: the records), export writes the context.
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { FORMAT_NAMES, type FormatName } from "../adapters/detect.ts";
import { compactJsonText, JsonSyntaxError, lineColumn, parseJsonText, type SpanMap } from "../adapters/json-text.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import type { Json } from "../model/json.ts";
import { isPostgresLocation } from "../session/pg-location.ts";
import type { Session } from "../session/session.ts";
import { exitCodeForOutcome } from "./exit-codes.ts";
import type { CliIO } from "./main.ts";
import { reportText } from "./report-text.ts";
import { type FlagValues, settingOptions, settingsFromFlags } from "./settings.ts";
import { readUtf8File } from "./utf8.ts";

/**
 * The item texts of a conversation file: JSONL lines as written, or a JSON array's elements, each
 * its tokens as written on one line (compactJsonText: no number or string re-serialized).
 */
export function itemTexts(text: string, name: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trimStart();
  if (trimmed.startsWith("[")) {
    const spans: SpanMap = new Map();
    let v: Json;
    try {
      v = parseJsonText(trimmed, spans).value;
    } catch (e) {
      const at = e instanceof JsonSyntaxError ? lineColumn(trimmed, e.offset) : undefined;
      throw new InputError(
        name,
        `invalid JSON${at === undefined ? "" : ` at line ${at.line} column ${at.column}`}: ${(e as Error).message}`,
      );
    }
    if (!Array.isArray(v)) throw new InputError(name, "expected a JSON array of items");
    return v.map((x) => {
      const span = typeof x === "object" && x !== null ? spans.get(x) : undefined;
      // an element that is no object or array is refused by the append, naming it
      return span === undefined ? JSON.stringify(x) : compactJsonText(trimmed, span.start, span.end);
    });
  }
  if (trimmed.startsWith("{") && !trimmed.includes("\n"))
    throw new InputError(
      name,
      "a JSON object file (a request body) cannot be imported: give its items as JSONL or a JSON array",
    );
  return body.split("\n").filter((l) => l.trim() !== "");
}

/** A location as openSession takes it: a path resolved against the working directory, a URL as given. */
function whereOf(location: string, io: CliIO): string {
  return isPostgresLocation(location) ? location : resolve(io.cwd, location);
}

async function open(location: string, io: CliIO, format?: FormatName, checksums = false): Promise<Session> {
  const { openSession } = await import("../session/open.ts");
  return openSession(whereOf(location, io), {
    ...(format === undefined ? {} : { format }),
    ...(checksums ? { checksums } : {}),
    onWarning: (w) => io.stderr(`safecut: warning: ${w}\n`),
  });
}

async function appendFile(s: Session, file: string, io: CliIO): Promise<number> {
  const texts = itemTexts(readUtf8File(file, io.cwd), file);
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
    .description("create a session from a conversation file (JSONL or a JSON array of items)")
    .argument("<file>", "conversation file")
    .requiredOption(
      "--to <location>",
      "the session's location (a log file path, or postgres://user@host:port/db?session=ID; must not exist yet)",
    )
    .addOption(
      new Option("--format <name>", "the conversation format").choices([...FORMAT_NAMES]).makeOptionMandatory(),
    )
    .option("--checksums", "a log file holds each item's checksum: a changed byte is refused on open, naming its line")
    .action(async (file: string, flags: { to: string; format: FormatName; checksums?: boolean }) => {
      const exists = () => new SafecutError("usage", `${flags.to} exists already`);
      if (!isPostgresLocation(flags.to) && existsSync(resolve(io.cwd, flags.to))) throw exists();
      const s = await open(flags.to, io, flags.format, flags.checksums === true);
      // a database session is created by the open: it must hold nothing yet
      if ((await s.version()) > 0) {
        await s.close();
        throw exists();
      }
      const n = await appendFile(s, file, io);
      await s.close();
      io.stderr(`safecut: imported ${n} items into ${flags.to}\n`);
      done(0);
    });
  session
    .command("append")
    .description("append the items of a conversation file to a session")
    .argument("<location>", "the session")
    .argument("<file>", "conversation file (JSONL or a JSON array of items)")
    .action(async (location: string, file: string) => {
      const s = await open(location, io);
      await appendFile(s, file, io);
      await s.close();
      done(0);
    });
  const compact = session
    .command("compact")
    .description("compact a session (each step one guarded write); the report as for compact")
    .argument("<location>", "the session")
    .option("-c, --config <file>", "JSON configuration file (settings as in the README)");
  for (const { option } of settingOptions()) compact.addOption(option);
  compact.action(async (location: string, flags: FlagValues) => {
    const { parseConfig } = await import("../engine/boundary/config-rules.ts");
    const config = parseConfig(settingsFromFlags(flags, io.cwd));
    const s = await open(location, io);
    const report = await s.compact(config, { env: io.env });
    await s.close();
    io.stderr(reportText(report, location));
    done(exitCodeForOutcome(report.outcome));
  });
  session
    .command("show")
    .description("print the session's context (JSONL)")
    .argument("<location>", "the session")
    .option("--full", "every item ever appended, as appended")
    .option("--compactions", "the compaction records, as JSON")
    .option("--clearings", "the clearing and restore records, as JSON")
    .action(async (location: string, flags: { full?: boolean; compactions?: boolean; clearings?: boolean }) => {
      const s = await open(location, io);
      if (flags.compactions === true) io.stdout(`${JSON.stringify(await s.compactions(), null, 2)}\n`);
      else if (flags.clearings === true) io.stdout(`${JSON.stringify(await s.clearings(), null, 2)}\n`);
      else io.stdout(await s.history({ full: flags.full === true }));
      await s.close();
      done(0);
    });
  session
    .command("restore")
    .description("bring a cleared tool result back into the session's context (its original text)")
    .argument("<location>", "the session")
    .argument("<tool-call-id>", "the id of the tool call whose result was cleared")
    .action(async (location: string, id: string) => {
      const s = await open(location, io);
      try {
        await s.restore(id);
      } finally {
        await s.close();
      }
      io.stderr(`safecut: restored the result of ${id}\n`);
      done(0);
    });
  session
    .command("export")
    .description("write the session's context (JSONL) to stdout or a file")
    .argument("<location>", "the session")
    .option("-o, --output <file>", "write here instead of stdout")
    .action(async (location: string, flags: { output?: string }) => {
      const s = await open(location, io);
      const text = await s.contextText();
      await s.close();
      if (flags.output === undefined) io.stdout(text);
      else writeFileSync(resolve(io.cwd, flags.output), text);
      done(0);
    });
}
