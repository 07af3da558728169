// What a reader knows of a session log: its header, the items (original text) and compaction
// records in order, the entry kinds the kernel's log commit rule reads, the last sequence number
// (the session's version) and the watermark. Lines are applied as they are read, from the open
// or from a later incremental read; every inconsistency is refused naming the line.

import type { FormatName } from "../adapters/detect.ts";
import { InputError } from "../model/errors.ts";
import type { Chunk } from "./log-file.ts";
import { type LogLine, lineAt, parseHeader, parseLine } from "./log-lines.ts";
import type { CompactionRecord } from "./record.ts";

/** An item or a compaction record, in log order: an item's index among items, a record's place (`FILE line N`). */
export type Entry =
  | { readonly kind: "item"; readonly index: number }
  | { readonly kind: "compaction"; readonly record: CompactionRecord; readonly where: string };

/** The in-memory reading of one session log. */
export class LogState {
  format: FormatName | undefined;
  /** original text of every item, in order */
  readonly items: string[] = [];
  readonly records: CompactionRecord[] = [];
  /** `rewrites[k]`: entry k (sequence number k + 1) is a compaction, not an append */
  readonly rewrites: boolean[] = [];
  /** every entry in order (items and records) */
  readonly entries: Entry[] = [];
  /** complete lines read (the header included) */
  lines = 0;
  /** byte offset just after the last complete line read */
  offset = 0;
  /** byte length of a torn tail after `offset` at the last read (0: none) */
  tornBytes = 0;
  watermark = 0;
  /** what was set aside, for the caller to warn about */
  readonly warnings: string[] = [];

  constructor(readonly file: string) {}

  /** The session's version: its number of entries (the last sequence number). */
  get version(): number {
    return this.rewrites.length;
  }

  /** Applies the lines of a chunk read from `offset`; returns the entries it added. */
  apply(chunk: Chunk): Entry[] {
    const added: Entry[] = [];
    const ls = chunk.lines;
    for (let i = 0; i < ls.length; i++) {
      const line = this.lines + 1;
      if (line === 1) {
        this.format = parseHeader(ls[i], this.file).format;
        this.lines = 1;
        continue;
      }
      // a torn line set aside by the writer after it: skipped, never merged
      const next = i + 1 < ls.length ? markerOf(ls[i + 1], this.file, line + 1) : undefined;
      if (next !== undefined && next.line === line) {
        this.warnings.push(`${lineAt(this.file, line)}: a write cut short (${next.bytes} bytes) was set aside`);
        this.lines += 2;
        i++;
        continue;
      }
      const l = parseLine(ls[i], this.file, line);
      this.lines = line;
      const entry = this.entry(l, line);
      if (entry !== undefined) added.push(entry);
    }
    this.offset = chunk.end;
    this.tornBytes = chunk.tornBytes;
    return added;
  }

  private entry(l: LogLine, line: number): Entry | undefined {
    const at = lineAt(this.file, line);
    if (l.kind === "set-aside")
      throw new InputError(at, `a set-aside marker for line ${l.line}, which is not the line before it`);
    if (l.kind === "header") throw new InputError(at, "a second header");
    if (l.seq !== this.version + 1) throw new InputError(at, `sequence number ${l.seq}, expected ${this.version + 1}`);
    if (l.kind === "item") {
      this.items.push(l.text);
      this.rewrites.push(false);
      const e: Entry = { kind: "item", index: this.items.length - 1 };
      this.entries.push(e);
      return e;
    }
    const r = l.record;
    if (r.items !== this.items.length)
      throw new InputError(at, `the record counts ${r.items} items before it, the log has ${this.items.length}`);
    if (r.plannedVersion > l.seq - 1)
      throw new InputError(at, `planned against version ${r.plannedVersion}, after the version it follows`);
    if (r.watermark < this.watermark)
      throw new InputError(at, `the watermark moves back from ${this.watermark} to ${r.watermark}`);
    this.records.push(r);
    this.rewrites.push(true);
    this.watermark = r.watermark;
    const e: Entry = { kind: "compaction", record: r, where: at };
    this.entries.push(e);
    return e;
  }
}

function markerOf(text: string, file: string, line: number): { line: number; bytes: number } | undefined {
  if (!text.startsWith('{"t":"set-aside"')) return undefined;
  const l = parseLine(text, file, line);
  return l.kind === "set-aside" ? l : undefined;
}
