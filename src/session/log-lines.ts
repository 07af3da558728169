// The lines of a session log (one JSON object per line): the header that fixes the session's
// format and the log's own format version, an appended item (its original text inline, so the
// log stays greppable and export is byte-exact), a compaction record, and the marker that sets
// a torn line aside. Parsing a line names its line number in every error.

import { crc32 } from "node:zlib";
import type { FormatName } from "../adapters/detect.ts";
import { FORMAT_NAMES } from "../adapters/detect.ts";
import { CANDIDATE_TAGS, type MemoryCandidate } from "../engine/memory/candidates.ts";
import { CALL_FAILURE_KINDS, type CallFailure, type CallFailureKind } from "../model/call-failure.ts";
import { InputError } from "../model/errors.ts";
import type { Json, JsonObject } from "../model/json.ts";
import { isJsonObject } from "../model/json.ts";
import type {
  CallRef,
  ClearedEntry,
  ClearedInputs,
  ClearingRecord,
  ClearRecord,
  CompactionRecord,
  PopRecord,
  RecordedCall,
  RestoreRecord,
  UnshrinkableRecord,
} from "./record.ts";

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

function nat(o: JsonObject, key: string, at: string): number {
  const x = o[key];
  if (typeof x !== "number" || !Number.isSafeInteger(x) || x < 0)
    throw new InputError(at, `field "${key}": expected an integer >= 0, got ${JSON.stringify(x)}`);
  return x;
}

function str(o: JsonObject, key: string, at: string): string {
  const x = o[key];
  if (typeof x !== "string") throw new InputError(at, `field "${key}": expected a string`);
  return x;
}

function optStr(o: JsonObject, key: string): string | undefined {
  const x = o[key];
  return typeof x === "string" ? x : undefined;
}

/** The triggers a committed step can record (a plan's, less "none"; "to target": below the trigger, in a run that was due). */
const RECORD_TRIGGERS: readonly CompactionRecord["trigger"][] = [
  "tokens",
  "messages",
  "turns",
  "reported usage",
  "context window",
  "to target",
];

/** Names records of older versions gave a trigger, and the name it has now. */
const OLD_TRIGGER_NAMES: Readonly<Record<string, CompactionRecord["trigger"]>> = { "low-water": "to target" };

/** A record's trigger as read: one of RECORD_TRIGGERS, an older name mapped to its current one, or undefined. */
function recordTriggerOf(x: unknown): CompactionRecord["trigger"] | undefined {
  if (typeof x !== "string") return undefined;
  return RECORD_TRIGGERS.find((t) => t === x) ?? OLD_TRIGGER_NAMES[x];
}

/** A compaction record read from its JSON object (a log line's fields, a database row's record); `at` names where. */
export function recordOf(o: JsonObject, at: string): CompactionRecord {
  const decision = decisionOf(o, at);
  const start = nat(o, "start", at);
  const end = nat(o, "end", at);
  if (end <= start) throw new InputError(at, `the stretch ${start}..${end} is empty`);
  const trigger = recordTriggerOf(o.trigger);
  if (trigger === undefined)
    throw new InputError(
      at,
      `field "trigger": expected one of ${RECORD_TRIGGERS.map((t) => JSON.stringify(t)).join(", ")}`,
    );
  const committedVersion = nat(o, "committedVersion", at);
  return {
    items: nat(o, "items", at),
    start,
    end,
    summary: str(o, "summary", at),
    trigger,
    tokensBefore: nat(o, "tokensBefore", at),
    tokensAfter: nat(o, "tokensAfter", at),
    summarizer: str(o, "summarizer", at),
    ...(optStr(o, "model") === undefined ? {} : { model: optStr(o, "model") }),
    ...callsOf(o, committedVersion, at),
    ...(o.memoryCandidates === undefined
      ? {}
      : { memoryCandidates: listOf(o.memoryCandidates, "memoryCandidates", at).map((c) => candidateOf(c, at)) }),
    plannedVersion: nat(o, "plannedVersion", at),
    committedVersion,
    decision,
    watermark: nat(o, "watermark", at),
    time: str(o, "time", at),
  };
}

/** A memory flush candidate a compaction record holds, checked field by field (docs/memory-candidates.md). */
function candidateOf(o: JsonObject, at: string): MemoryCandidate {
  const bad = (what: string) => new InputError(at, `field "memoryCandidates": ${what}`);
  const { sourceSession, sourceMessages, tag, confidence } = o;
  if (sourceSession !== undefined && typeof sourceSession !== "string") throw bad("sourceSession is not a string");
  if (
    !Array.isArray(sourceMessages) ||
    !sourceMessages.every((i) => typeof i === "number" && Number.isSafeInteger(i) && i >= 0)
  )
    throw bad("sourceMessages is not a list of message positions");
  const known = CANDIDATE_TAGS.find((t) => t === tag);
  if (known === undefined) throw bad(`tag ${JSON.stringify(tag)} is not one of ${CANDIDATE_TAGS.join(", ")}`);
  if (typeof confidence !== "number" || !(confidence >= 0 && confidence <= 1))
    throw bad(`confidence ${JSON.stringify(confidence)} is not in [0, 1]`);
  return {
    id: str(o, "id", at),
    sourceSession,
    sourceMessages: sourceMessages as number[],
    text: str(o, "text", at),
    tag: known,
    confidence,
    time: str(o, "time", at),
  };
}

function listOf(x: Json, key: string, at: string): JsonObject[] {
  if (!Array.isArray(x) || !x.every(isJsonObject))
    throw new InputError(at, `field "${key}": expected an array of objects`);
  return x as JsonObject[];
}

/** The usage counts a provider may report, each a natural number when present. */
const USAGE_KEYS = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "compactionSteps",
  "compactionInputTokens",
  "compactionOutputTokens",
] as const;

function callOf(o: JsonObject, at: string): RecordedCall {
  const d = o.durationMs;
  if (typeof d !== "number" || !Number.isFinite(d) || d < 0)
    throw new InputError(at, `field "calls": durationMs ${JSON.stringify(d)} is not a duration`);
  if (typeof o.answered !== "boolean") throw new InputError(at, `field "calls": answered is not a boolean`);
  const u = o.usage;
  if (u !== undefined && !isJsonObject(u)) throw new InputError(at, `field "calls": usage is not an object`);
  const usage: Record<string, number> = {};
  if (u !== undefined) for (const k of USAGE_KEYS) if (u[k] !== undefined) usage[k] = nat(u, k, at);
  const stretches = nat(o, "stretches", at);
  if (stretches < 1) throw new InputError(at, `field "calls": a call asks for at least one stretch`);
  const f = o.failure;
  if (f !== undefined && !isJsonObject(f)) throw new InputError(at, `field "calls": failure is not an object`);
  return {
    durationMs: d,
    answered: o.answered,
    ...(u === undefined ? {} : { usage }),
    stretches,
    ...(f === undefined ? {} : { failure: failureOf(f, at) }),
  };
}

/** A failed call's failure as written (call-failure.ts CallFailure): its kind one of the known ones, each field of its type. */
function failureOf(f: JsonObject, at: string): CallFailure {
  const kind = str(f, "kind", at);
  if (!CALL_FAILURE_KINDS.includes(kind as CallFailureKind))
    throw new InputError(
      at,
      `field "calls": failure kind ${JSON.stringify(kind)} is not one of ${CALL_FAILURE_KINDS.join(", ")}`,
    );
  const host = optStr(f, "host");
  const code = optStr(f, "code");
  return {
    kind: kind as CallFailureKind,
    provider: str(f, "provider", at),
    ...(host === undefined ? {} : { host }),
    model: str(f, "model", at),
    ...(f.status === undefined ? {} : { status: nat(f, "status", at) }),
    ...(code === undefined ? {} : { code }),
    message: str(f, "message", at),
  };
}

/** A record's calls and sharedCalls, when present. */
function callsOf(o: JsonObject, committedVersion: number, at: string): Pick<CompactionRecord, "calls" | "sharedCalls"> {
  const calls = o.calls;
  const shared = o.sharedCalls;
  return {
    ...(calls === undefined ? {} : { calls: listOf(calls, "calls", at).map((c) => callOf(c, at)) }),
    ...(shared === undefined
      ? {}
      : { sharedCalls: listOf(shared, "sharedCalls", at).map((r) => callRefOf(r, committedVersion, at)) }),
  };
}

function callRefOf(o: JsonObject, committedVersion: number, at: string): CallRef {
  const record = nat(o, "record", at);
  if (record >= committedVersion)
    throw new InputError(at, `field "sharedCalls": record ${record} is not an earlier record`);
  return { record, call: nat(o, "call", at) };
}

function decisionOf(o: JsonObject, at: string): CompactionRecord["decision"] {
  const decision = o.decision;
  if (decision !== "commit" && decision !== "rebase")
    throw new InputError(at, `field "decision": expected "commit" or "rebase"`);
  return decision;
}

function clearedOf(x: Json, at: string): ClearedEntry {
  if (!isJsonObject(x)) throw new InputError(at, `field "results": expected objects`);
  return {
    index: nat(x, "index", at),
    toolCallId: str(x, "toolCallId", at),
    placeholder: str(x, "placeholder", at),
    tokensBefore: nat(x, "tokensBefore", at),
    tokensAfter: nat(x, "tokensAfter", at),
  };
}

function clearedInputsOf(x: Json, at: string): ClearedInputs {
  if (!isJsonObject(x)) throw new InputError(at, `field "inputs": expected objects`);
  const ids = x.toolCallIds;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "string"))
    throw new InputError(at, `field "inputs": expected a non-empty array of call ids in "toolCallIds"`);
  return {
    index: nat(x, "index", at),
    toolCallIds: ids as string[],
    tokensBefore: nat(x, "tokensBefore", at),
    tokensAfter: nat(x, "tokensAfter", at),
  };
}

/** A clearing record read from its JSON object (`inputs` optional: absent in records without cleared arguments); `at` names where. */
export function clearingOf(o: JsonObject, at: string): ClearingRecord {
  const results = o.results;
  if (!Array.isArray(results) || results.length === 0)
    throw new InputError(at, `field "results": expected a non-empty array`);
  const inputs = o.inputs;
  if (inputs !== undefined && !Array.isArray(inputs)) throw new InputError(at, `field "inputs": expected an array`);
  return {
    items: nat(o, "items", at),
    results: results.map((r) => clearedOf(r, at)),
    ...(inputs === undefined ? {} : { inputs: inputs.map((x) => clearedInputsOf(x, at)) }),
    tokensBefore: nat(o, "tokensBefore", at),
    tokensAfter: nat(o, "tokensAfter", at),
    plannedVersion: nat(o, "plannedVersion", at),
    committedVersion: nat(o, "committedVersion", at),
    decision: decisionOf(o, at),
    time: str(o, "time", at),
  };
}

/** A restore record read from its JSON object; `at` names where. */
export function restoreOf(o: JsonObject, at: string): RestoreRecord {
  return {
    items: nat(o, "items", at),
    toolCallId: str(o, "toolCallId", at),
    index: nat(o, "index", at),
    ...(o.call === undefined ? {} : { call: nat(o, "call", at) }),
    committedVersion: nat(o, "committedVersion", at),
    time: str(o, "time", at),
  };
}

/** An unshrinkable record read from its JSON object; `at` names where. */
export function unshrinkableOf(o: JsonObject, at: string): UnshrinkableRecord {
  const stretches = listOf(o.stretches ?? null, "stretches", at).map((x) => {
    const start = nat(x, "start", at);
    const end = nat(x, "end", at);
    if (end <= start) throw new InputError(at, `the stretch ${start}..${end} is empty`);
    return { start, end };
  });
  if (stretches.length === 0) throw new InputError(at, `field "stretches": expected a non-empty array`);
  const committedVersion = nat(o, "committedVersion", at);
  return {
    items: nat(o, "items", at),
    stretches,
    ...callsOf(o, committedVersion, at),
    committedVersion,
    time: str(o, "time", at),
  };
}

/** A pop record read from its JSON object; `at` names where. */
export function popOf(o: JsonObject, at: string): PopRecord {
  const first = nat(o, "first", at);
  const last = nat(o, "last", at);
  const items = nat(o, "items", at);
  if (last < first || last >= items)
    throw new InputError(at, `the items ${first}..${last} popped are not among the ${items} items before it`);
  return {
    items,
    index: nat(o, "index", at),
    first,
    last,
    committedVersion: nat(o, "committedVersion", at),
    time: str(o, "time", at),
  };
}

/** A clear record read from its JSON object; `at` names where. */
export function clearOf(o: JsonObject, at: string): ClearRecord {
  return { items: nat(o, "items", at), committedVersion: nat(o, "committedVersion", at), time: str(o, "time", at) };
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
