// Where the CLI writes, so that its outputs never destroy its input: files are compared by
// identity (device and inode after following links, so a symlink or a hard link of the input is
// the input), every output is opened before any work is done (an unwritable path is found before
// a paid summarizer call), and written atomically (a temporary file beside the target, then a
// rename: a crash or a kill leaves the old file or the complete new one, never a torn one).

import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { SafecutError } from "../model/errors.ts";

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
      target = realpathSync(file.path);
      const s = statSync(target);
      if (s.isDirectory()) fail("it is a directory");
      // a pipe or a device (/dev/stdout) cannot be replaced by a rename: it is written directly
      if (!s.isFile()) return new PendingOutput(file, target, undefined, undefined);
      mode = s.mode & 0o7777;
    } catch (e) {
      if (e instanceof SafecutError) throw e;
      // nothing there yet (or a dangling link): the new file goes where the path says
    }
    const temp = join(
      dirname(target),
      `.${basename(target)}.safecut-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
    );
    let fd: number | undefined;
    try {
      fd = openSync(temp, "wx", 0o666);
      if (mode !== undefined) fchmodSync(fd, mode);
    } catch (e) {
      if (fd !== undefined) closeQuietly(fd, temp);
      fail((e as Error).message);
    }
    return new PendingOutput(file, target, temp, fd);
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
    } catch (e) {
      this.abandon();
      throw new SafecutError("input", `cannot write ${this.file.label}: ${(e as Error).message}`);
    }
  }

  /** Removes the temporary file (the target was never touched). Safe to call more than once. */
  abandon(): void {
    if (this.temp === undefined || this.settled) return;
    this.settled = true;
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
