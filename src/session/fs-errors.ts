// The file system errors that say something about the machine a session log lives on (a full
// disk, a read-only mount, a directory in the way, no permission), not about safecut: each is
// reported as an input error (exit 1) naming the path, what was being done and what to check,
// never as an internal error.

import { InputError } from "../model/errors.ts";

/** What each environment errno means, and what to check. */
const MEANING: Readonly<Record<string, string>> = {
  EISDIR: "a directory is in the way (remove it, or give another path)",
  ENOTDIR: "a part of the path is not a directory (check the path)",
  ENOENT: "no such file or directory (check the path, and that its directory exists)",
  EACCES: "permission denied (check the owner and mode of the file and of its directory)",
  EPERM: "operation not permitted (check the file's owner and attributes: immutable, append-only)",
  EROFS: "read-only file system (check how it is mounted)",
  ENOSPC: "no space left on the device (free some space)",
  EDQUOT: "disk quota exceeded (free some space, or raise the quota)",
  ELOOP: "too many levels of symbolic links (check the links on the path)",
  ENAMETOOLONG: "file name too long (give a shorter path)",
  EIO: "input/output error (check the disk)",
  EMFILE: "too many open files (raise the limit, or open fewer sessions at once)",
};

/** The input error for errno `code` met at `path` while `doing`; undefined for a code that is not the environment's. */
export function environmentErrorOf(code: string | undefined, path: string, doing: string): InputError | undefined {
  const meaning = code === undefined ? undefined : MEANING[code];
  return meaning === undefined ? undefined : new InputError(path, `${doing}: ${meaning} [${code}]`);
}

/** `e` as an input error naming `path` when it is an environment errno (see MEANING); any other error as it is. */
export function environmentError(e: unknown, path: string, doing: string): unknown {
  const code = e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;
  return environmentErrorOf(code, path, doing) ?? e;
}
