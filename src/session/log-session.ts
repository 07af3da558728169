// The embedded default backend: one append-only JSONL file per session (log-lines.ts). Every
// write (appends, a compaction step) happens under the session's lock files (lock.ts, named after
// the file itself: lock-files.ts), after reading what other processes wrote since, and is on
// disk (fsync) before it returns; a write that fails is cut off again before the lock is
// released, so an append is there whole or not at all. Each compaction step is decided against
// the log as it is under the lock (stored-session.ts: L9 through decideLogCommit, the watermark
// only forward, L10) and written as one line. A log without write access (a 0444 file, a
// read-only mount, an immutable file) is opened for reading only; its writes are refused.

import { randomUUID } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import type { FormatName } from "../adapters/detect.ts";
import type { CommitOutcome } from "../engine/store/store.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import type { JsonObject } from "../model/json.ts";
import { environmentError } from "./fs-errors.ts";
import { withLocks } from "./lock.ts";
import { type LogIdentity, lockFilesOf, logIdentity } from "./lock-files.ts";
import { readChunk, writeDurably } from "./log-file.ts";
import {
  compactionText,
  formatText,
  headerText,
  itemText,
  LOG_VERSION,
  lineAt,
  rewriteText,
  runText,
  setAsideText,
} from "./log-lines.ts";
import { LogState } from "./log-state.ts";
import type { SessionOptions } from "./session.ts";
import { type NewEntry, type StepDecision, StoredSession } from "./stored-session.ts";

/** The log line of an entry to write: a record's own line, or a run's records on one line. */
function entryText(e: NewEntry): string {
  if (e.kind === "run")
    return runText(
      e.entries[0].record.committedVersion,
      e.entries.map((x) => {
        if (x.kind !== "compaction" && x.kind !== "clearing" && x.kind !== "unshrinkable")
          throw new SafecutError("internal", `a ${x.kind} record in a run`);
        return { kind: x.kind, record: x.record as unknown as JsonObject };
      }),
    );
  const seq = e.record.committedVersion;
  return e.kind === "compaction" ? compactionText(seq, e.record) : rewriteText(seq, e.kind, e.record);
}

/** Refuses a symbolic link at `path` whose target does not exist: creating the log would create its target. */
function refuseDanglingLink(path: string): void {
  if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  const target = resolve(dirname(path), readlinkSync(path));
  throw new InputError(
    path,
    `a symbolic link to ${target}, which does not exist: give the path of an existing session, or remove the link`,
  );
}

/** Creates the log with its header, atomically: a file that exists always has one. */
function create(path: string, format: FormatName, checksums: boolean): void {
  refuseDanglingLink(path);
  const tmp = `${path}.${process.pid}.${randomUUID()}.new`;
  const fd = openSync(tmp, "wx");
  try {
    writeDurably(fd, `${headerText(format, new Date().toISOString(), checksums)}\n`);
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

/** Opens the log for reading and appending (never creating, never truncating), or for reading only where it cannot be written. */
function openLog(path: string): { fd: number; readOnly: boolean } {
  const rw = constants.O_RDWR | constants.O_APPEND;
  try {
    return { fd: openSync(path, rw), readOnly: false };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") refuseDanglingLink(path);
    if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS")
      throw environmentError(e, path, "opening the session log");
  }
  try {
    return { fd: openSync(path, constants.O_RDONLY), readOnly: true };
  } catch (e) {
    throw environmentError(e, path, "opening the session log");
  }
}

/** Cuts the log back to `size` bytes after a failed write, durably; says so when even that fails. */
function cutBack(fd: number, size: number, path: string): void {
  try {
    ftruncateSync(fd, size);
    fsyncSync(fd);
  } catch (e) {
    throw new InputError(
      path,
      `a write failed and cutting it off failed too (${(e as Error).message}): the log may end with part of that write, which the next open reads; check the disk`,
    );
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
    /** what the lock files are named after; undefined: opened for reading only */
    private readonly identity: LogIdentity | undefined,
  ) {
    super(location, state, format);
  }

  /** Opens (creating with `options.format` if absent) the log at `path`; never rewrites it. */
  static open(path: string, options: SessionOptions = {}): LogSession {
    if (!existsSync(path)) {
      if (options.format === undefined)
        throw new InputError("options.format", `${path} does not exist: creating a session needs its format`);
      try {
        create(path, options.format, options.checksums === true);
      } catch (e) {
        throw environmentError(e, path, "creating the session log");
      }
    }
    const { fd, readOnly } = openLog(path);
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
      return new LogSession(path, fd, state, state.format, readOnly ? undefined : logIdentity(path, fd));
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** Runs `f` holding the log's write lock files (lock-files.ts); refused on a log opened for reading only. */
  private locked<T>(f: () => T): T {
    if (this.identity === undefined)
      throw new InputError(
        this.location,
        "the session log was opened for reading only (no write access to the file, a read-only mount, an immutable file): check its mode and mount",
      );
    const id = this.identity;
    return withLocks(lockFilesOf(id, fstatSync(this.fd).nlink, "lock"), () => {
      // removed since it was opened (a failed import removes the session it created): a write
      // would go to a file no path leads to any more
      if (fstatSync(this.fd).nlink === 0)
        throw new InputError(
          this.location,
          "the session log was removed after this process opened it (an import that failed removes the session it created): nothing was written; open the session again",
        );
      return f();
    });
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
    const end = fstatSync(this.fd).size;
    try {
      writeDurably(this.fd, `${setAside}${upgrade}${lines.join("\n")}\n`);
    } catch (e) {
      // none of it stays: what was written of it is cut off before the lock is released
      cutBack(this.fd, end, this.location);
      throw environmentError(e, this.location, "writing to the session log");
    }
    this.read();
  }

  protected async writeItems(texts: readonly string[], check: () => void): Promise<number> {
    this.read();
    return this.locked(() => {
      this.read();
      check();
      try {
        const first = this.state.version + 1;
        this.writeLines(texts.map((t, k) => itemText(first + k, t, this.state.checksums)));
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
    return this.locked(() => {
      this.read();
      const d = decide();
      const e = d.entry;
      if (e !== undefined) this.writeLines([entryText(e)]);
      return d.outcome;
    });
  }

  /**
   * Removes the log if it holds nothing (version 0: created, never written), under its write lock
   * and re-read there, so that a writer's append is either read first (the log is kept) or
   * refused after (locked: the file is gone); resolves to whether it did.
   */
  async discardIfEmpty(): Promise<boolean> {
    return this.locked(() => {
      this.read();
      if (this.state.version > 0) return false;
      unlinkSync(this.location);
      return true;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
