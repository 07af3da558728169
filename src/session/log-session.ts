// The embedded default backend: one append-only JSONL file per session (log-lines.ts). Every
// write (appends, a compaction step) happens under the session's lock file (lock.ts), after
// reading what other processes wrote since, and is on disk (fsync) before it returns. Each
// compaction step is decided against the log as it is under the lock (stored-session.ts: L9
// through decideLogCommit, the watermark only forward, L10) and written as one line.

import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fsyncSync, linkSync, openSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import type { FormatName } from "../adapters/detect.ts";
import type { CommitOutcome } from "../engine/store/store.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import { withLock } from "./lock.ts";
import { readChunk, writeDurably } from "./log-file.ts";
import {
  compactionText,
  formatText,
  headerText,
  itemText,
  LOG_VERSION,
  lineAt,
  rewriteText,
  setAsideText,
} from "./log-lines.ts";
import { LogState } from "./log-state.ts";
import type { SessionOptions } from "./session.ts";
import { type StepDecision, StoredSession } from "./stored-session.ts";

/** Creates the log with its header, atomically: a file that exists always has one. */
function create(path: string, format: FormatName): void {
  const tmp = `${path}.${process.pid}.${randomUUID()}.new`;
  const fd = openSync(tmp, "wx");
  try {
    writeDurably(fd, `${headerText(format, new Date().toISOString())}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    // created by another process meanwhile: open theirs
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(tmp);
  }
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** A session kept in an append-only JSONL log. */
export class LogSession extends StoredSession<LogState> {
  private closed = false;

  private constructor(
    location: string,
    private readonly fd: number,
    state: LogState,
    format: FormatName,
  ) {
    super(location, state, format);
  }

  /** Opens (creating with `options.format` if absent) the log at `path`; never rewrites it. */
  static open(path: string, options: SessionOptions = {}): LogSession {
    if (!existsSync(path)) {
      if (options.format === undefined)
        throw new InputError("options.format", `${path} does not exist: creating a session needs its format`);
      create(path, options.format);
    }
    // read and append, never truncate: opening writes nothing
    const fd = openSync(path, "a+");
    try {
      const state = new LogState(path);
      state.apply(readChunk(fd, 0));
      if (state.format === undefined)
        throw new InputError(lineAt(path, 1), "not a safecut session log (no complete first line)");
      if (options.format !== undefined && options.format !== state.format)
        throw new InputError("options.format", `the session's format is ${state.format}, not ${options.format}`);
      const warn = options.onWarning ?? (() => {});
      for (const w of state.warnings) warn(w);
      if (state.tornBytes > 0)
        warn(
          `${lineAt(path, state.lines + 1)}: an incomplete last line (${state.tornBytes} bytes) is not read (a write in progress, or cut short: the next write sets it aside)`,
        );
      return new LogSession(path, fd, state, state.format);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  private get lockPath(): string {
    return `${this.location}.lock`;
  }

  /** Reads what was written since the last read (synchronously: the lock's critical sections are). */
  private read(): void {
    if (this.closed) throw new SafecutError("usage", `the session ${this.location} is closed`);
    this.state.apply(readChunk(this.fd, this.state.offset));
  }

  protected async sync(): Promise<void> {
    this.read();
  }

  /**
   * Writes lines at the end of the log; the caller holds the lock and has read. A torn tail is
   * set aside first; a log of an older format gets a format line first (LOG_VERSION).
   */
  private writeLines(lines: readonly string[]): void {
    const s = this.state;
    const setAside = s.tornBytes > 0 ? `\n${setAsideText(s.lines + 1, s.tornBytes)}\n` : "";
    const upgrade = s.logVersion < LOG_VERSION ? `${formatText()}\n` : "";
    writeDurably(this.fd, `${setAside}${upgrade}${lines.join("\n")}\n`);
    this.read();
  }

  protected async writeItems(texts: readonly string[], check: () => void): Promise<number> {
    this.read();
    return withLock(this.lockPath, () => {
      this.read();
      check();
      try {
        const first = this.state.version + 1;
        this.writeLines(texts.map((t, k) => itemText(first + k, t)));
      } catch (e) {
        // not written: the pairing holds the batch, read it again next time
        this.dropPairing();
        throw e;
      }
      return this.state.version;
    });
  }

  /** One compaction step, under the lock: the decision against the log as it is now, then one line. */
  protected async commitStep(decide: () => StepDecision): Promise<CommitOutcome> {
    this.read();
    return withLock(this.lockPath, () => {
      this.read();
      const d = decide();
      const e = d.entry;
      if (e !== undefined) {
        const seq = e.record.committedVersion;
        this.writeLines([e.kind === "compaction" ? compactionText(seq, e.record) : rewriteText(seq, e.kind, e.record)]);
      }
      return d.outcome;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
