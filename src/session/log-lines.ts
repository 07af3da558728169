// The lines of a session log (one JSON object per line): the header that fixes the session's
// format and the log's own format version, an appended item (its original text inline, so the
// log stays greppable and export is byte-exact), a compaction record, and the marker that sets
// a torn line aside. Parsing a line names its line number in every error.

import { crc32 } from "node:zlib";
import type { FormatName } from "../adapters/detect.ts";
import { FORMAT_NAMES } from "../adapters/detect.ts";
import { InputError } from "../model/errors.ts";
import type { Json, JsonObject } from "../model/json.ts";
import { isJsonObject } from "../model/json.ts";
import type {
  ClearingRecord,
  ClearRecord,
  CompactionRecord,
  PopRecord,
  RestoreRecord,
  UnshrinkableRecord,
} from "./record.ts";
import { clearingOf, clearOf, listOf, nat, popOf, recordOf, restoreOf, unshrinkableOf } from "./record-readers.ts";

export { clearingOf, clearOf, popOf, recordOf, restoreOf, unshrinkableOf };

/**
 * The log format this safecut writes and reads. 1: items, compaction, clearing and restore
 * records; 2: compaction records carry their summarizer calls, and unshrinkable records (stretches
 * found not to shrink) are written; 3: a log created with checksums (its header says
 * `"checksums":true`) holds each item's CRC-32 in its line; 4: pop records (the newest item taken
 * out of the context) and clear records (the context emptied) are written; 5: a run line holds the
 * records of a compaction run adopted at one step (a background run), written and read together. A log of an older format is read
 * as it is (opening never rewrites it); the first write to it starts with a format line that
 * raises the log's version, under the lock, so that an older safecut refuses the log from that
 * line on rather than misreading what follows.
 */
export const LOG_VERSION = 5;
/** The header's marker field and value: a file without it is not a safecut session log. */
const MAGIC = "safecut-session";

/** Line 1: what the log is. */
export interface HeaderLine {
  readonly kind: "header";
  readonly version: number;
  readonly format: FormatName;
  readonly created: string;
  /** every item line holds its item's checksum (written from format 3 on, when the log was created with them) */
  readonly checksums: boolean;
}
/** An appended item: `text` is its original JSON text; `crc`, when the line holds one, was checked against it. */
export interface ItemLine {
  readonly kind: "item";
  readonly seq: number;
  readonly text: string;
  readonly crc?: string;
  /** the item's value, when reading the line parsed it anyway (a one-line item object): JSON.parse of `text` */
  readonly value?: Json;
}
/** A committed compaction step. */
export interface CompactionLine {
  readonly kind: "compaction";
  readonly seq: number;
  readonly record: CompactionRecord;
}
/** A committed clearing step. */
export interface ClearingLine {
  readonly kind: "clearing";
  readonly seq: number;
  readonly record: ClearingRecord;
}
/** A cleared result restored. */
export interface RestoreLine {
  readonly kind: "restore";
  readonly seq: number;
  readonly record: RestoreRecord;
}
/** Stretches found not to shrink (log format 2). */
export interface UnshrinkableLine {
  readonly kind: "unshrinkable";
  readonly seq: number;
  readonly record: UnshrinkableRecord;
}
/** The newest item taken out of the context (log format 4). */
export interface PopLine {
  readonly kind: "pop";
  readonly seq: number;
  readonly record: PopRecord;
}
/** The context emptied (log format 4). */
export interface ClearLine {
  readonly kind: "clear";
  readonly seq: number;
  readonly record: ClearRecord;
}
/**
 * The records of one compaction run adopted at one step, numbered in sequence from `seq` (log
 * format 5): one line, so that a reader reads all of them or none (a line torn by a crash is set
 * aside whole).
 */
export interface RunLine {
  readonly kind: "run";
  readonly seq: number;
  readonly entries: readonly (CompactionLine | ClearingLine | UnshrinkableLine)[];
}
/** An entry of a session: what a line after the header (or a database row) stands for. */
export type EntryLine = ItemLine | CompactionLine | ClearingLine | RestoreLine | UnshrinkableLine | PopLine | ClearLine;
/** A torn line (a write cut short by a crash) set aside by the next writer: never read as data. */
export interface SetAsideLine {
  readonly kind: "set-aside";
  /** the 1-based line number of the torn line */
  readonly line: number;
  readonly bytes: number;
}
/** The log's format version from this line on (written before the first write to an older log). */
export interface FormatLine {
  readonly kind: "format";
  readonly version: number;
}
/** Any line of the log. */
export type LogLine = HeaderLine | EntryLine | RunLine | SetAsideLine | FormatLine;

/** Where a log line is, for errors: `FILE line N`. */
export function lineAt(file: string, line: number): string {
  return `${file} line ${line}`;
}

/** The header line's text (`checksums`: every item line will hold its item's checksum). */
export function headerText(format: FormatName, created: string, checksums = false): string {
  return JSON.stringify({ [MAGIC]: LOG_VERSION, format, created, ...(checksums ? { checksums: true } : {}) });
}

/** Whether a file's text opens with a session log's header line (the inspector tells a session from a conversation file by it). */
export function looksLikeSessionLog(text: string): boolean {
  const end = text.indexOf("\n");
  try {
    const first: unknown = JSON.parse(end < 0 ? text : text.slice(0, end));
    return typeof first === "object" && first !== null && MAGIC in first;
  } catch {
    return false;
  }
}

/** The CRC-32 of an item's original text (its UTF-8 bytes), as 8 hex digits. */
export function itemCrc(text: string): string {
  return crc32(Buffer.from(text, "utf8")).toString(16).padStart(8, "0");
}

function itemPrefix(seq: number, crc: string | undefined): string {
  return crc === undefined ? `{"seq":${seq},"t":"item","item":` : `{"seq":${seq},"t":"item","crc":"${crc}","item":`;
}

/**
 * An item line's text: the item's original text inline when it is one line, else as a JSON
 * string; with `checksum`, the line holds the text's CRC-32 (itemCrc).
 */
export function itemText(seq: number, text: string, checksum = false): string {
  const crc = checksum ? itemCrc(text) : undefined;
  if (!text.includes("\n") && !text.includes("\r")) return `${itemPrefix(seq, crc)}${text}}`;
  return JSON.stringify({ seq, t: "item", ...(crc === undefined ? {} : { crc }), text });
}

/** A compaction line's text. */
export function compactionText(seq: number, record: CompactionRecord): string {
  return JSON.stringify({ seq, t: "compaction", ...record });
}

/** A clearing, restore, unshrinkable, pop or clear line's text. */
export function rewriteText(
  seq: number,
  kind: "clearing" | "restore" | "unshrinkable" | "pop" | "clear",
  record: ClearingRecord | RestoreRecord | UnshrinkableRecord | PopRecord | ClearRecord,
): string {
  return JSON.stringify({ seq, t: kind, ...record });
}

/** A run line's text: each record as its own line's fields would be, in order (their sequence numbers from `seq`). */
export function runText(
  seq: number,
  records: readonly { readonly kind: "compaction" | "clearing" | "unshrinkable"; readonly record: JsonObject }[],
): string {
  return JSON.stringify({ seq, t: "run", entries: records.map((e) => ({ t: e.kind, ...e.record })) });
}

/** The kinds of record a run line holds. */
const RUN_KINDS: readonly string[] = ["compaction", "clearing", "unshrinkable"];

/** A run line read from its object: every record of a kind a run writes, numbered in sequence from `seq`. */
function runLine(v: JsonObject, seq: number, at: string): RunLine {
  const list = listOf(v.entries ?? null, "entries", at);
  if (list.length < 2) throw new InputError(at, `field "entries": a run line holds at least two records`);
  const entries = list.map((o, k) => {
    if (typeof o.t !== "string" || !RUN_KINDS.includes(o.t))
      throw new InputError(at, `field "entries": a record of kind ${JSON.stringify(o.t)} in a run`);
    return rewriteLine(o.t, seq + k, o, at) as CompactionLine | ClearingLine | UnshrinkableLine;
  });
  return { kind: "run", seq, entries };
}

/**
 * A format line's text: the log is of this safecut's format from here on. Its `seq` 0 is no
 * entry's: it is there so that a reader of format 1, which reads every line's seq before its kind,
 * refuses the line as an unknown line kind.
 */
export function formatText(): string {
  return JSON.stringify({ seq: 0, t: "format", version: LOG_VERSION });
}

/** A set-aside marker's text. */
export function setAsideText(line: number, bytes: number): string {
  return JSON.stringify({ t: "set-aside", line, bytes });
}

/** A log format version read at `at`; refuses one newer than this safecut reads. */
function versionOf(version: Json | undefined, at: string): number {
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 1)
    throw new InputError(at, `invalid log version ${JSON.stringify(version)}`);
  if (version > LOG_VERSION)
    throw new InputError(at, `the log has format version ${version}, newer than this safecut reads (${LOG_VERSION})`);
  return version;
}

/** Parses the header (line 1): refuses a foreign file, a newer log version or an unknown format. */
export function parseHeader(text: string, file: string): HeaderLine {
  const at = lineAt(file, 1);
  let v: Json;
  try {
    v = JSON.parse(text) as Json;
  } catch {
    throw new InputError(at, "not a safecut session log (the first line is not JSON)");
  }
  if (!isJsonObject(v) || !(MAGIC in v)) throw new InputError(at, `not a safecut session log (no "${MAGIC}" field)`);
  const version = versionOf(v[MAGIC], at);
  const format = v.format;
  if (typeof format !== "string" || !(FORMAT_NAMES as readonly string[]).includes(format))
    throw new InputError(at, `unknown conversation format ${JSON.stringify(format)}`);
  const created = typeof v.created === "string" ? v.created : "";
  const checksums = v.checksums === true;
  if (checksums && version < 3) throw new InputError(at, `checksums in a log at format version ${version} (from 3 on)`);
  return { kind: "header", version, format: format as FormatName, created, checksums };
}

/** An entry of kind `kind` (compaction, clearing, restore, unshrinkable, pop, clear) read from its record object; refuses a record whose committedVersion is not `seq`. */
export function rewriteLine(kind: string, seq: number, o: JsonObject, at: string): EntryLine {
  if (nat(o, "committedVersion", at) !== seq)
    throw new InputError(at, `the record's committedVersion is not its sequence number ${seq}`);
  if (kind === "compaction") return { kind, seq, record: recordOf(o, at) };
  if (kind === "clearing") return { kind, seq, record: clearingOf(o, at) };
  if (kind === "restore") return { kind, seq, record: restoreOf(o, at) };
  if (kind === "unshrinkable") return { kind, seq, record: unshrinkableOf(o, at) };
  if (kind === "pop") return { kind, seq, record: popOf(o, at) };
  if (kind === "clear") return { kind, seq, record: clearOf(o, at) };
  throw new InputError(at, `unknown entry kind ${JSON.stringify(kind)}`);
}

/** An item line (its object `v`, its text), its checksum checked when it holds one. */
function itemLine(v: JsonObject, text: string, seq: number, at: string): ItemLine {
  const crc = v.crc;
  if (crc !== undefined && (typeof crc !== "string" || !/^[0-9a-f]{8}$/.test(crc)))
    throw new InputError(at, `field "crc": expected 8 hex digits`);
  let item: string;
  let value: Json | undefined;
  if (typeof v.text === "string") item = v.text;
  else {
    const prefix = itemPrefix(seq, crc);
    // the original text is the bytes between the prefix and the closing brace, as written
    if (!text.startsWith(prefix) || !text.endsWith("}") || !isJsonObject(v.item ?? null))
      throw new InputError(at, "corrupt item line (expected the item object right after its prefix)");
    item = text.slice(prefix.length, -1);
    value = v.item;
  }
  if (crc === undefined) return { kind: "item", seq, text: item, ...(value === undefined ? {} : { value }) };
  if (itemCrc(item) !== crc)
    throw new InputError(at, "the item's checksum does not match: a byte of it changed since it was written");
  return { kind: "item", seq, text: item, crc, ...(value === undefined ? {} : { value }) };
}

/** Parses one line after the header; `line` is its 1-based number. */
export function parseLine(text: string, file: string, line: number): LogLine {
  const at = lineAt(file, line);
  let v: Json;
  try {
    v = JSON.parse(text) as Json;
  } catch (e) {
    throw new InputError(at, `corrupt line (not JSON: ${(e as Error).message})`);
  }
  if (!isJsonObject(v)) throw new InputError(at, "corrupt line (not a JSON object)");
  if (v.t === "set-aside") return { kind: "set-aside", line: nat(v, "line", at), bytes: nat(v, "bytes", at) };
  if (v.t === "format") return { kind: "format", version: versionOf(v.version, at) };
  const seq = nat(v, "seq", at);
  if (v.t === "item") return itemLine(v, text, seq, at);
  if (v.t === "run") return runLine(v, seq, at);
  if (
    v.t === "compaction" ||
    v.t === "clearing" ||
    v.t === "restore" ||
    v.t === "unshrinkable" ||
    v.t === "pop" ||
    v.t === "clear"
  )
    return rewriteLine(v.t, seq, v, at);
  throw new InputError(at, `unknown line kind ${JSON.stringify(v.t)}`);
}
