// A lock between processes on one machine, held around every write to a session log (appends
// and compaction commits, never around a summarizer call): a lock file created with O_EXCL that
// holds the owner's pid. A lock whose owner is no longer alive (killed mid-write) is stale and
// broken; breaking it is itself serialized by a second O_EXCL file, so two processes that both
// find the same stale lock never remove a lock a third one has taken since. Synchronous: a
// commit runs inside the engine's synchronous commit call.

import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { SafecutError } from "../model/errors.ts";
import { processAlive } from "../model/process-alive.ts";

/** How long acquiring may wait before giving up (a live owner holds it for one write). */
const WAIT_LIMIT_MS = 30_000;
/** A lock file still without an owner this long after it was created was left by a writer killed right after creating it. */
const OWNERLESS_STALE_MS = 2_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** The owner's pid written in a lock file, or undefined when it cannot be read (being written, gone). */
function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
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
function isStale(path: string, owner: number | undefined): boolean {
  return owner === undefined ? ageMs(path) > OWNERLESS_STALE_MS : !processAlive(owner);
}

function removeIfOwnedBy(path: string, pid: number | undefined): void {
  if (ownerOf(path) !== pid) return;
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
    removeIfOwnedBy(breaker, process.pid);
  }
}

/** Runs `f` holding the lock file `path` (created next to the session log). */
export function withLock<T>(path: string, f: () => T): T {
  const started = Date.now();
  let pause = 0.05;
  while (!tryCreate(path)) {
    breakIfStale(path);
    if (Date.now() - started > WAIT_LIMIT_MS)
      throw new SafecutError("usage", `the session lock ${path} is still held by process ${ownerOf(path)}`);
    sleep(pause);
    pause = Math.min(pause * 2, 4);
  }
  try {
    return f();
  } finally {
    removeIfOwnedBy(path, process.pid);
  }
}

/**
 * Takes the lock file `path` if it is free (or stale: its owner is dead, and it is broken as
 * withLock breaks it), without waiting; returns its release, or undefined when a live process
 * holds it. For a lock held across awaits (a background compaction's lease), not one write.
 */
export function tryLock(path: string): (() => void) | undefined {
  if (!tryCreate(path)) {
    breakIfStale(path);
    if (!tryCreate(path)) return undefined;
  }
  return () => removeIfOwnedBy(path, process.pid);
}
