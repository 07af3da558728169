// What a reader knows of a session log: the session's state (session-state.ts) read from the
// log's lines, and where the reading stands in the file (complete lines read, the byte offset
// after them, a torn tail). Lines are applied as they are read, from the open or from a later
// incremental read; every inconsistency is refused naming the line.

import { InputError } from "../model/errors.ts";
import type { Chunk } from "./log-file.ts";
import { type LogLine, lineAt, parseHeader, parseLine, type RunLine } from "./log-lines.ts";
import { type Entry, SessionState } from "./session-state.ts";

/** The in-memory reading of one session log. */
export class LogState extends SessionState {
  /** complete lines read (the header included) */
  lines = 0;
  /** the log's format version as read so far (the header's, raised by format lines) */
  logVersion = 0;
  /** byte offset just after the last complete line read */
  offset = 0;
  /** every item line must hold its checksum (the header says so) */
  checksums = false;
  /** byte length of a torn tail after `offset` at the last read (0: none) */
  tornBytes = 0;
  /** what was set aside, for the caller to warn about */
  readonly warnings: string[] = [];

  constructor(readonly file: string) {
    super();
  }

  /** Applies the lines of a chunk read from `offset`; returns the entries it added. */
  apply(chunk: Chunk): Entry[] {
    const added: Entry[] = [];
    const ls = chunk.lines;
    for (let i = 0; i < ls.length; i++) {
      const line = this.lines + 1;
      if (line === 1) {
        const header = parseHeader(ls[i], this.file);
        this.format = header.format;
        this.logVersion = header.version;
        this.checksums = header.checksums;
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
      added.push(...this.entriesOf(l, line));
    }
    this.offset = chunk.end;
    this.tornBytes = chunk.tornBytes;
    return added;
  }

  /** The entries a line stands for: none for a format line, a run's records in order, else one. */
  private entriesOf(l: LogLine, line: number): Entry[] {
    const at = lineAt(this.file, line);
    if (l.kind !== "run") {
      const e = this.entry(l, at);
      return e === undefined ? [] : [e];
    }
    if (this.logVersion < 5)
      throw new InputError(at, `a run line in a log at format version ${this.logVersion} (from 5 on)`);
    return l.entries.map((e) => this.add(e, at));
  }

  /** The entry a line (not a run's) stands for; undefined for a format line. */
  private entry(l: Exclude<LogLine, RunLine>, at: string): Entry | undefined {
    if (l.kind === "set-aside")
      throw new InputError(at, `a set-aside marker for line ${l.line}, which is not the line before it`);
    if (l.kind === "header") throw new InputError(at, "a second header");
    if (l.kind === "format") {
      if (l.version <= this.logVersion)
        throw new InputError(at, `a format line for version ${l.version} in a log at version ${this.logVersion}`);
      this.logVersion = l.version;
      return undefined;
    }
    if (l.kind === "item" && this.checksums && l.crc === undefined)
      throw new InputError(at, "an item without its checksum in a log created with checksums");
    if ((l.kind === "pop" || l.kind === "clear") && this.logVersion < 4)
      throw new InputError(at, `a ${l.kind} record in a log at format version ${this.logVersion} (from 4 on)`);
    if (l.kind === "unshrinkable" && this.logVersion < 2)
      throw new InputError(at, `an unshrinkable record in a log at format version ${this.logVersion} (from 2 on)`);
    return this.add(l, at);
  }
}

function markerOf(text: string, file: string, line: number): { line: number; bytes: number } | undefined {
  if (!text.startsWith('{"t":"set-aside"')) return undefined;
  const l = parseLine(text, file, line);
  return l.kind === "set-aside" ? l : undefined;
}
