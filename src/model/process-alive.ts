// Whether a process is still running, for the files a process leaves while it works (the CLI's
// temporary outputs, a session's lock): one whose owner is gone may be swept or broken.

import { readFileSync } from "node:fs";

/** True when /proc says `pid` is a zombie: dead, not yet reaped by its parent (Linux; elsewhere false). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) S ...": the state follows the last ")" (comm may hold parentheses)
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return false;
  }
}

/**
 * Whether the process `pid` is running (or exists and belongs to someone else: EPERM). A killed
 * process its parent has not reaped yet is not running: it holds nothing any more.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM" && !isZombie(pid);
  }
}
