// The evidence ledger: what the agent learned from the tool steps a compaction replaced (cleared or
// summarized), kept by rule beside the summaries and outside the summarizer's text — the files
// read and modified, the commands run with their exit status, the errors still open, and on
// request the last tool steps verbatim. It is deterministic (no model), carried forward from one
// compaction to the next by reading back its own rendering, and bounded: each list keeps at most
// its cap (the kernel's ledgerKept, L14), each line at most ledger_step_chars characters. The
// format is documented in docs/ledger.md.
import type { Config } from "../../model/config.ts";
import type { Message, ToolCall } from "../../model/message.ts";
import { gateLedgerKept } from "../boundary/kernel-gate.ts";
import { filePaths } from "./facts.ts";

/** The caps of a ledger (settings ledger_files, ledger_commands, ledger_errors, ledger_steps, ledger_step_chars). */
export interface LedgerCaps {
  readonly files: number;
  readonly commands: number;
  readonly errors: number;
  readonly steps: number;
  readonly chars: number;
}

/** A command the agent ran and how it ended: an exit code, "error" (error lines, no code) or "ok". */
export interface LedgerCommand {
  readonly command: string;
  readonly status: string;
}

/** An error line still open, and the command whose result printed it. */
export interface LedgerError {
  readonly line: string;
  readonly source: string;
}

/** The ledger's lists, each newest first. */
export interface EvidenceLedger {
  readonly filesModified: readonly string[];
  readonly filesRead: readonly string[];
  readonly commands: readonly LedgerCommand[];
  readonly errors: readonly LedgerError[];
  readonly steps: readonly string[];
}

/** One tool step: a call and its result's text (undefined when the result is missing). */
export interface ToolStep {
  readonly call: ToolCall;
  readonly result: string | undefined;
}

/** The ledger with nothing in it. */
export const EMPTY_LEDGER: EvidenceLedger = { filesModified: [], filesRead: [], commands: [], errors: [], steps: [] };

/** The opening and closing lines of a rendered ledger: how a ledger message is recognized. */
export const LEDGER_OPEN = "<evidence_ledger>";
export const LEDGER_CLOSE = "</evidence_ledger>";

/** Tools whose path arguments the ledger lists as modified (else as read). */
const WRITES = /edit|write|patch|create|replace|apply|insert|delete|remove|move|rename/i;

/** A tool call's command text: its `command` (or `cmd`) argument, else its name and argument values. */
export function commandOf(call: ToolCall): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    return oneLine(`${call.name} ${call.arguments}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return oneLine(`${call.name} ${JSON.stringify(parsed)}`);
  const args = parsed as Record<string, unknown>;
  for (const key of ["command", "cmd"]) if (typeof args[key] === "string") return oneLine(args[key] as string);
  const values = Object.values(args).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return oneLine([call.name, ...values].join(" "));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** How a result ended: the last "exit code N" / "exit status N" it prints, else "error" when it holds error lines, else "ok". */
export function statusOf(result: string | undefined): string {
  if (result === undefined) return "no result";
  const codes = Array.from(result.matchAll(/\bexit(?:ed with)? (?:code|status)[: ]+(-?\d+)/gi), (m) => m[1]);
  if (codes.length > 0) return `exit ${codes[codes.length - 1]}`;
  return errorLines(result).length > 0 ? "error" : "ok";
}

/** A line that reports an error: what test runners, compilers, shells and runtimes print on failure. */
const ERROR_LINE = /\b(FAIL(?:ED)?|ERROR|[A-Z]\w*(?:Error|Exception)|[Ee]rror|ERR!|Traceback|[Pp]anic)\b/;

/** The error lines of a result, trimmed, without repeats, in order. */
export function errorLines(result: string): string[] {
  const lines = result.split("\n").map((l) => l.trim());
  return Array.from(new Set(lines.filter((l) => l !== "" && ERROR_LINE.test(l))));
}

/** Whether a status is a success: exit 0, or "ok". */
function succeeded(status: string): boolean {
  return status === "exit 0" || status === "ok";
}

/** `x` first, then `xs` without it, cut to `cap` entries (the kernel's ledgerKept). */
function front<T>(x: T, xs: readonly T[], same: (a: T, b: T) => boolean, cap: number): T[] {
  const out = [x, ...xs.filter((y) => !same(x, y))];
  return out.slice(0, gateLedgerKept(out.length, cap));
}

const cut = (text: string, chars: number) =>
  text.length <= chars ? text : `${text.slice(0, Math.max(0, chars - 1))}…`;

/**
 * The ledger after `steps` (oldest first: the tool steps a compaction replaced) are added to
 * `prev`; then `kept` (tool steps still in the context, oldest first) close the errors of the
 * commands that succeeded there. Every list stays within its cap.
 */
export function extendLedger(
  prev: EvidenceLedger,
  steps: readonly ToolStep[],
  kept: readonly ToolStep[],
  caps: LedgerCaps,
): EvidenceLedger {
  let { filesModified, filesRead, commands, errors, steps: verbatim } = prev;
  const eq = (a: string, b: string) => a === b;
  for (const { call, result } of steps) {
    const command = cut(commandOf(call), caps.chars);
    const status = statusOf(result);
    const paths = filePaths(call.arguments);
    for (const p of paths.slice().reverse()) {
      if (WRITES.test(call.name)) filesModified = front(p, filesModified, eq, caps.files);
      else filesRead = front(p, filesRead, eq, caps.files);
    }
    commands = front({ command, status }, commands, (a, b) => a.command === b.command, caps.commands);
    errors = closeOrOpen(errors, command, status, result, caps);
    const step = `${call.name} ${call.arguments} → ${result ?? "(no result)"}`;
    if (caps.steps > 0) verbatim = front(cut(oneLine(step), caps.chars), verbatim, () => false, caps.steps);
  }
  for (const { call, result } of kept) {
    const command = cut(commandOf(call), caps.chars);
    if (succeeded(statusOf(result))) errors = errors.filter((e) => e.source !== command);
  }
  return {
    filesModified: filesModified.slice(0, gateLedgerKept(filesModified.length, caps.files)),
    filesRead: filesRead.slice(0, gateLedgerKept(filesRead.length, caps.files)),
    commands: commands.slice(0, gateLedgerKept(commands.length, caps.commands)),
    errors: errors.slice(0, gateLedgerKept(errors.length, caps.errors)),
    steps: verbatim.slice(0, gateLedgerKept(verbatim.length, caps.steps)),
  };
}

/** The open errors after one result of `command`: a success closes that command's errors; a failure replaces them with its own error lines. */
function closeOrOpen(
  errors: readonly LedgerError[],
  command: string,
  status: string,
  result: string | undefined,
  caps: LedgerCaps,
): readonly LedgerError[] {
  const others = errors.filter((e) => e.source !== command);
  if (succeeded(status) || result === undefined) return others;
  const lines = errorLines(result);
  const mine = (lines.length > 0 ? lines : [`${status}`]).map((line) => ({
    line: cut(line, caps.chars),
    source: command,
  }));
  // newest first: the result's own lines in their order, before every earlier error
  const out = [...mine, ...others];
  return out.slice(0, gateLedgerKept(out.length, caps.errors));
}

/** Whether a ledger holds nothing. */
export function ledgerEmpty(l: EvidenceLedger): boolean {
  return l.filesModified.length + l.filesRead.length + l.commands.length + l.errors.length + l.steps.length === 0;
}

/** The ledger as the text of its message (docs/ledger.md). */
export function renderLedger(l: EvidenceLedger): string {
  const lines = [LEDGER_OPEN, "Evidence kept from tool steps that compaction replaced (newest first)."];
  if (l.filesModified.length > 0) lines.push(`Files modified: ${l.filesModified.join(", ")}`);
  if (l.filesRead.length > 0) lines.push(`Files read: ${l.filesRead.join(", ")}`);
  if (l.commands.length > 0) lines.push("Commands:", ...l.commands.map((c) => `- ${c.command} → ${c.status}`));
  if (l.errors.length > 0) lines.push("Open errors:", ...l.errors.map((e) => `- ${e.line} (from: ${e.source})`));
  if (l.steps.length > 0) lines.push("Last tool steps:", ...l.steps.map((s) => `- ${s}`));
  lines.push(LEDGER_CLOSE);
  return lines.join("\n");
}

/** The ledger a rendered text holds (renderLedger's inverse), or undefined when the text is no ledger. */
export function parseLedger(text: string): EvidenceLedger | undefined {
  if (!text.startsWith(`${LEDGER_OPEN}\n`) || !text.endsWith(`\n${LEDGER_CLOSE}`)) return undefined;
  const out = { filesModified: [] as string[], filesRead: [] as string[], commands: [] as LedgerCommand[] };
  const errors: LedgerError[] = [];
  const steps: string[] = [];
  let section = "";
  for (const line of text.split("\n").slice(2, -1)) {
    if (line.startsWith("Files modified: ")) out.filesModified = line.slice(16).split(", ");
    else if (line.startsWith("Files read: ")) out.filesRead = line.slice(12).split(", ");
    else if (!line.startsWith("- ")) section = line;
    else if (section === "Commands:") {
      const at = line.lastIndexOf(" → ");
      out.commands.push({ command: line.slice(2, at), status: line.slice(at + 3) });
    } else if (section === "Open errors:") {
      const at = line.lastIndexOf(" (from: ");
      errors.push({ line: line.slice(2, at), source: line.slice(at + 8, -1) });
    } else if (section === "Last tool steps:") steps.push(line.slice(2));
  }
  return { ...out, errors, steps };
}

/** The caps the settings give. */
export function ledgerCaps(c: Config): LedgerCaps {
  return {
    files: c.ledger_files,
    commands: c.ledger_commands,
    errors: c.ledger_errors,
    steps: c.ledger_steps,
    chars: c.ledger_step_chars,
  };
}

/**
 * The required facts of a stretch a summary need not repeat when the ledger is on: those the
 * ledger built from the stretch's own tool steps holds (its rendering contains them). The
 * others stay required.
 */
export function factsLeftToSummary(stretch: readonly Message[], facts: readonly string[], caps: LedgerCaps): string[] {
  const results = new Map<string, string>();
  for (const m of stretch) if (m.role === "tool") results.set(m.toolCallId, m.content);
  const steps: ToolStep[] = [];
  for (const m of stretch)
    if (m.role === "assistant") for (const call of m.toolCalls) steps.push({ call, result: results.get(call.id) });
  if (steps.length === 0) return [...facts];
  const text = renderLedger(extendLedger(EMPTY_LEDGER, steps, [], caps));
  return facts.filter((f) => !text.includes(f));
}
