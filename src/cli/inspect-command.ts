// `safecut inspect FILE|SESSION [-o page.html]`: writes the context inspector's page
// (inspect-html.ts) of a conversation file, or of a session (a log file or a postgres:// URL),
// whose page adds the timeline of its compactions. Reads only: nothing is compacted or written
// but the page. Input: the target and the compact command's settings flags (the dry run judges
// the context under them). Output: one HTML file (default: the target's name with .html), or
// stdout with `-o -`.
import { writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { type Command, Option } from "commander";
import { FORMAT_NAMES } from "../adapters/detect.ts";
import { isPostgresLocation } from "../session/pg-location.ts";
import type { CliIO } from "./io.ts";
import { type FlagValues, settingOptions, settingsFromFlags } from "./settings.ts";
import { readUtf8File } from "./utf8.ts";

/** The page's text for `target` under the flags' settings. */
async function pageOf(target: string, flags: FlagValues, io: CliIO): Promise<string> {
  const { parseConfig } = await import("../engine/boundary/config-rules.ts");
  const { readConversationFile } = await import("../adapters/conversation-file.ts");
  const { inspect } = await import("./inspect-data.ts");
  const { inspectionPage } = await import("./inspect-html.ts");
  const config = parseConfig(settingsFromFlags(flags, io.cwd));
  const format = FORMAT_NAMES.find((f) => f === flags.format);
  const postgres = isPostgresLocation(target);
  const text = postgres ? "" : readUtf8File(target, io.cwd);
  const { looksLikeSessionLog } = await import("../session/log-lines.ts");
  if (!postgres && !looksLikeSessionLog(text)) {
    const conv = readConversationFile(text, { format, summaryTag: config.summary_tag });
    const x = await inspect(basename(target), conv.format, conv.messages, config, {
      items: conv.items,
      agentModel: conv.model,
    });
    return inspectionPage(x);
  }
  const { openSession } = await import("../session/open.ts");
  const session = await openSession(postgres ? target : resolve(io.cwd, target), {
    onWarning: (w) => io.stderr(`safecut: warning: ${w}\n`),
  });
  try {
    const conv = readConversationFile(await session.contextText(), {
      format: session.format,
      summaryTag: config.summary_tag,
    });
    const title = postgres ? "session" : basename(target);
    const x = await inspect(title, `${session.format} session`, conv.messages, config, {
      items: conv.items,
      records: await session.compactions(),
    });
    return inspectionPage(x);
  } finally {
    await session.close();
  }
}

/** Adds `safecut inspect`; `done` receives its exit code. */
export function addInspectCommand(p: Command, io: CliIO, done: (code: number) => void): void {
  const c = p
    .command("inspect")
    .description(
      "write one self-contained HTML page showing a conversation's or a session's context: messages by role and size, what was cleared or summarized, what a compaction would do now and why, tokens per model call, a session's compactions",
    )
    .argument("<target>", "a conversation file, or a session (its log file, or a postgres:// URL)")
    .option("-o, --output <file>", "where to write the page (default: the target's name with .html; - for stdout)")
    .option("-c, --config <file>", "JSON configuration file (the dry run judges the context under these settings)")
    .addOption(new Option("--format <name>", "input format (auto-detected if absent)").choices([...FORMAT_NAMES]));
  // the settings flags are hidden from this list (they are compact's, forty of them) but accepted
  for (const { option } of settingOptions()) c.addOption(option.hideHelp());
  c.addHelpText(
    "after",
    "\nSettings:\n  every setting flag of safecut compact (--token-threshold, --target-percent, ...) is accepted too:\n  the page's dry run judges the context under them (see safecut compact --help)",
  );
  c.action(async (target: string, flags: FlagValues & { output?: string }) => {
    const page = await pageOf(target, flags, io);
    const out = flags.output ?? `${isPostgresLocation(target) ? "session" : basename(target)}.html`;
    if (out === "-") await io.stdout(page);
    else {
      writeFileSync(resolve(io.cwd, out), page);
      io.stderr(`safecut: wrote ${out}\n`);
    }
    done(0);
  });
}
