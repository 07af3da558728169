// Which lock files guard a session log: named after the file itself (its inode), never after the
// path it was reached by, so that writers through a symbolic link, a hard link or the real path
// exclude each other. The first lies beside the log's real path (symbolic links resolved), named
// by its inode: every symbolic link to the log, and every name of it in that directory, lead to
// it. A log with more than one hard link may have a name in another directory, which leads to
// another directory: its writers also take a second lock named by device and inode in the
// machine's temporary directory (os.tmpdir()), which every name of the file leads to.

import { chmodSync, fstatSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The lock of the writes (held for one write), or the compaction lease (held for a background run). */
export type LockKind = "lock" | "compacting";

/** A log file by its identity: where its real path lies, its device and inode. */
export interface LogIdentity {
  readonly dir: string;
  readonly dev: number;
  readonly ino: number;
}

/** The identity of the log at `path` (open as `fd`, when given). */
export function logIdentity(path: string, fd?: number): LogIdentity {
  const real = realpathSync(path);
  const st = fd === undefined ? statSync(real) : fstatSync(fd);
  return { dir: dirname(real), dev: st.dev, ino: st.ino };
}

/** The machine-wide directory of the locks of logs with several hard links (created open to all, as /tmp is). */
function sharedLockDir(): string {
  const dir = join(tmpdir(), "safecut-locks");
  if (mkdirSync(dir, { recursive: true }) !== undefined) chmodSync(dir, 0o1777);
  return dir;
}

/** The lock files of kind `kind` of the log `id`, which has `links` hard links now; taken in this order. */
export function lockFilesOf(id: LogIdentity, links: number, kind: LockKind): string[] {
  const beside = join(id.dir, `.safecut-${id.ino}.${kind}`);
  return links <= 1 ? [beside] : [beside, join(sharedLockDir(), `${id.dev}-${id.ino}.${kind}`)];
}

/** The lock files of kind `kind` of the log at `path` as it is now. */
export function logLockFiles(path: string, kind: LockKind): string[] {
  const id = logIdentity(path);
  return lockFilesOf(id, statSync(path).nlink, kind);
}
