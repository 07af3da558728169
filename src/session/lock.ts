// A lock between processes on one machine, held around every write to a session log (appends
// and compaction commits, never around a summarizer call): a lock file created with O_EXCL that
// holds its owner's identity, `PID BOOT START` (the process id, the kernel's boot id and the
// process's start time in clock ticks since boot, from /proc). A lock whose owner is no longer
// alive (killed mid-write) is stale and broken: its PID names no process, or names one started at
// another time (the PID was reused: a restarted container's agent is PID 1 again), or the machine
// has booted since. Where /proc is missing, the PID alone is the identity. Breaking a lock is
// itself serialized by a second O_EXCL file, so two processes that both find the same stale lock
// never remove a lock a third one has taken since. Synchronous: a commit runs inside the engine's
// synchronous commit call. Which files a log's writers lock is lock-files.ts's concern.

import { closeSync, lstatSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { InputError, SafecutError } from "../model/errors.ts";
import { processAlive } from "../model/process-alive.ts";
import { environmentError, environmentErrorOf } from "./fs-errors.ts";

/** How long acquiring may wait before giving up (a live owner holds it for one write). */
const WAIT_LIMIT_MS = 30_000;
/** A lock file still without an owner this long after it was created was left by a writer killed right after creating it. */
const OWNERLESS_STALE_MS = 2_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** The kernel's boot id (Linux), or undefined where /proc does not say. */
function readBootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** When process `pid` started, in clock ticks since boot (field 22 of /proc/PID/stat), or undefined. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) S ...": the fields after comm start at field 3 (comm may hold spaces and parentheses)
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

const BOOT = readBootId();
/** This process's identity as written in the lock files it takes. */
const SELF = [process.pid, BOOT, processStart(process.pid)].filter((x) => x !== undefined).join(" ");

/** A lock owner's identity as written in its file. */
interface Holder {
  readonly pid: number;
  readonly boot?: string;
  readonly start?: string;
}

function holderOf(text: string): Holder | undefined {
  const [p, boot, start] = text.trim().split(" ");
  const pid = Number(p);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return { pid, ...(boot === undefined ? {} : { boot }), ...(start === undefined ? {} : { start }) };
}

/** Whether the process named by `h` is still running: the same PID, the same boot, the same start time. */
function holderAlive(h: Holder): boolean {
  if (h.boot !== undefined && BOOT !== undefined && h.boot !== BOOT) return false;
  if (!processAlive(h.pid)) return false;
  const start = h.start === undefined ? undefined : processStart(h.pid);
  return start === undefined || start === h.start;
}

/** The owner's identity written in a lock file, or undefined when it cannot be read (being written, gone). */
function ownerOf(path: string): string | undefined {
  try {
    const text = readFileSync(path, "utf8");
    return holderOf(text) === undefined ? undefined : text.trim();
  } catch {
    return undefined;
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, SELF);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    // something that is no lock file stands where the lock goes: it is never broken
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st?.isDirectory()) throw environmentErrorOf("EISDIR", path, "taking the session's lock");
    if (st !== undefined && !st.isFile())
      throw new InputError(path, "taking the session's lock: something other than a lock file is there (remove it)");
    return false;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** True when the lock's owner is dead, or it has had no owner for too long. */
function isStale(path: string, owner: string | undefined): boolean {
  const h = owner === undefined ? undefined : holderOf(owner);
  return h === undefined ? ageMs(path) > OWNERLESS_STALE_MS : !holderAlive(h);
}

function removeIfOwnedBy(path: string, owner: string | undefined): void {
  if (ownerOf(path) !== owner) return;
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/** Breaks `path` if its owner is dead; the check and the removal run under `path.break`. */
function breakIfStale(path: string): void {
  const owner = ownerOf(path);
  if (!isStale(path, owner)) return;
  const breaker = `${path}.break`;
  if (!tryCreate(breaker)) {
    // a breaker killed while breaking leaves its own file: break that one the same way
    const b = ownerOf(breaker);
    if (isStale(breaker, b)) removeIfOwnedBy(breaker, b);
    return;
  }
  try {
    // still the same stale owner: nobody broke and retook it meanwhile
    const now = ownerOf(path);
    if (now === owner && isStale(path, now)) removeIfOwnedBy(path, owner);
  } finally {
    removeIfOwnedBy(breaker, SELF);
  }
}

/** Takes the lock file `path`, waiting for a live owner to release it. */
function acquire(path: string): void {
  const started = Date.now();
  let pause = 0.05;
  while (!tryCreate(path)) {
    breakIfStale(path);
    if (Date.now() - started > WAIT_LIMIT_MS)
      throw new SafecutError(
        "usage",
        `the session lock ${path} is still held by process ${ownerOf(path)?.split(" ")[0]} (a live process: wait for it, or end it)`,
      );
    sleep(pause);
    pause = Math.min(pause * 2, 4);
  }
}

/** Runs `f` holding every lock file of `paths` (taken in the order given, released in reverse). */
export function withLocks<T>(paths: readonly string[], f: () => T): T {
  const [first, ...rest] = paths;
  if (first === undefined) return f();
  try {
    acquire(first);
  } catch (e) {
    throw environmentError(e, first, "taking the session's lock");
  }
  try {
    return withLocks(rest, f);
  } finally {
    removeIfOwnedBy(first, SELF);
  }
}

/** Runs `f` holding the lock file `path`. */
export function withLock<T>(path: string, f: () => T): T {
  return withLocks([path], f);
}

/**
 * Takes the lock files `paths` if they are free (or stale: their owner is dead, and they are
 * broken as withLock breaks them), without waiting; returns their release, or undefined (none
 * held) when a live process holds one. For a lock held across awaits (a background
 * compaction's lease), not one write.
 */
export function tryLocks(paths: readonly string[]): (() => void) | undefined {
  const taken: string[] = [];
  const release = () => {
    for (const p of taken.reverse()) removeIfOwnedBy(p, SELF);
  };
  for (const path of paths) {
    if (!tryCreate(path)) {
      breakIfStale(path);
      if (!tryCreate(path)) {
        release();
        return undefined;
      }
    }
    taken.push(path);
  }
  return release;
}
