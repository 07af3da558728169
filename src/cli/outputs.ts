// Where the CLI writes, so that its outputs never destroy its input: files are compared by
// identity (device and inode after following links, so a symlink or a hard link of the input is
// the input), every output is opened before any work is done (an unwritable path is found before
// a paid summarizer call), and written atomically (a temporary file beside the target, then a
// rename: a crash or a kill leaves the old file or the complete new one, never a torn one).
// Every temporary file still open is known (liveOutputs), so SIGTERM, SIGINT and a closed stdout
// remove them; SIGKILL cannot be caught, so a run sweeps the ones dead processes left beside its
// own outputs. Pipes and devices (/dev/stdout, /dev/stderr) cannot be renamed over: they are
// written directly.

import { randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { SafecutError } from "../model/errors.ts";
import { processAlive } from "../model/process-alive.ts";

/** A file the CLI reads or writes, as the user named it. */
export interface NamedFile {
  /** how the user named it in messages: `the input conv.json`, `--output out.json` */
  readonly label: string;
  /** absolute path */
  readonly path: string;
}

/**
 * A file's identity: device and inode of what the path resolves to (links followed; hard links
 * share an inode), or, for a path with nothing there yet, the real directory and the name.
 */
export function fileIdentity(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `inode ${s.dev}:${s.ino}`;
  } catch {
    try {
      return `path ${join(realpathSync(dirname(path)), basename(path))}`;
    } catch {
      return `path ${path}`;
    }
  }
}

/** Refuses (a usage error) when two of `files` are one file: an output would replace the input or the other output. */
export function refuseSameFiles(files: readonly NamedFile[]): void {
  const ids = files.map((f) => fileIdentity(f.path));
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      if (ids[i] !== ids[j]) continue;
      const why = i === 0 && files[0].label.startsWith("the input") ? "; safecut never modifies its input" : "";
      throw new SafecutError("usage", `${files[j].label} is the same file as ${files[i].label}${why}`);
    }
  }
}

/**
 * The standard stream (1: stdout, 2: stderr) that `path` is, if it is one: /dev/stdout,
 * /dev/fd/2 or any other name of the same pipe, socket or terminal. Such an output goes through
 * the process's own stream: a socket (what Node gives a child's stdio) cannot be opened by name.
 */
export function standardStream(path: string): 1 | 2 | undefined {
  let s: ReturnType<typeof statSync>;
  try {
    s = statSync(path);
  } catch {
    return undefined;
  }
  if (s.isFile() || s.isDirectory()) return undefined;
  for (const fd of [1, 2] as const) {
    try {
      const t = fstatSync(fd);
      if (t.dev === s.dev && t.ino === s.ino) return fd;
    } catch {
      // that stream is closed
    }
  }
  return undefined;
}

/** The temporary file name of an output to `target` in this process; `sweepStale` recognizes it by this shape. */
function tempName(target: string): string {
  return `.${basename(target)}.safecut-${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
}

/**
 * Removes the temporary files that runs killed by SIGKILL (which no handler sees) left beside
 * `target`: `.NAME.safecut-PID-HEX.tmp` whose PID is no running process. Best effort: a
 * directory that cannot be listed, or a file already gone, is left alone.
 */
export function sweepStale(target: string): void {
  const prefix = `.${basename(target)}.safecut-`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || processAlive(pid)) continue;
    try {
      unlinkSync(join(dirname(target), name));
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
}

/** The outputs opened and not yet committed or abandoned, in this process. */
const liveOutputs = new Set<PendingOutput>();

/** Removes every temporary file still open (on a signal or a closed stdout); targets are left as they were. */
export function abandonAllOutputs(): void {
  for (const p of [...liveOutputs]) p.abandon();
}

/** Called after the temporary file is complete and before it replaces the target (a test seam). */
export type BeforeRename = (temp: string, target: string) => void;

/**
 * An output opened before the run: its temporary file already exists (so the directory is
 * writable), and `commit` fills it and renames it over the target; `abandon` removes it.
 */
export class PendingOutput {
  private fd: number | undefined;
  /** committed or abandoned: the temporary file is gone */
  private settled = false;
  private constructor(
    private readonly file: NamedFile,
    private readonly target: string,
    private readonly temp: string | undefined,
    fd: number | undefined,
  ) {
    this.fd = fd;
  }

  /** Opens `file` for writing: an existing link is followed (the link stays, its target is replaced). */
  static open(file: NamedFile): PendingOutput {
    const fail = (why: string): never => {
      throw new SafecutError("input", `cannot write ${file.label}: ${why}`);
    };
    let target = file.path;
    let mode: number | undefined;
    try {
      // the path itself (links followed by the system): /dev/stdout's link to a pipe resolves here but not by realpath
      const s = statSync(file.path);
      if (s.isDirectory()) fail("it is a directory");
      // a pipe or a device (/dev/stdout) cannot be replaced by a rename: it is written directly
      if (!s.isFile()) {
        try {
          accessSync(file.path, constants.W_OK);
        } catch (e) {
          fail(errorCode(e));
        }
        return new PendingOutput(file, file.path, undefined, undefined);
      }
      target = realpathSync(file.path);
      mode = s.mode & 0o7777;
    } catch (e) {
      if (e instanceof SafecutError) throw e;
      // nothing there yet (or a dangling link): the new file goes where the path says
      try {
        target = realpathSync(file.path);
      } catch {
        // a dangling link or a new name: the path as given
      }
    }
    sweepStale(target);
    const temp = join(dirname(target), tempName(target));
    let fd: number | undefined;
    try {
      fd = openSync(temp, "wx", 0o666);
      if (mode !== undefined) fchmodSync(fd, mode);
    } catch (e) {
      if (fd !== undefined) closeQuietly(fd, temp);
      // the temporary file is ours, not the user's: the message names the folder it goes in
      fail(`cannot create a file in ${dirname(target)} (${errorCode(e)})`);
    }
    const p = new PendingOutput(file, target, temp, fd);
    liveOutputs.add(p);
    return p;
  }

  /** Writes `text` and puts it in place; on failure the temporary file is removed and the target is as it was. */
  commit(text: string, beforeRename?: BeforeRename): void {
    try {
      if (this.temp === undefined || this.fd === undefined) {
        writeFileSync(this.target, text);
        return;
      }
      const fd = this.fd;
      this.fd = undefined;
      try {
        writeFileSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      beforeRename?.(this.temp, this.target);
      renameSync(this.temp, this.target);
      this.settled = true;
      liveOutputs.delete(this);
    } catch (e) {
      this.abandon();
      throw new SafecutError("input", `cannot write ${this.file.label}: ${errorCode(e)}`);
    }
  }

  /** Removes the temporary file (the target was never touched). Safe to call more than once. */
  abandon(): void {
    if (this.temp === undefined || this.settled) return;
    this.settled = true;
    liveOutputs.delete(this);
    if (this.fd !== undefined) {
      closeQuietly(this.fd, undefined);
      this.fd = undefined;
    }
    try {
      unlinkSync(this.temp);
    } catch {
      // already renamed into place or removed
    }
  }
}

/** A file error's code and message without the path it names (the path may be a temporary file's). */
function errorCode(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (typeof err.code !== "string") return String(err.message ?? e);
  const why = (err.message ?? "").replace(/^[A-Z]+: /, "").replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, "");
  return `${why} (${err.code})`;
}

function closeQuietly(fd: number, temp: string | undefined): void {
  try {
    closeSync(fd);
  } catch {
    // closing is best effort on a path that already failed
  }
  if (temp !== undefined) {
    try {
      unlinkSync(temp);
    } catch {
      // the temporary file may not exist
    }
  }
}
