// Whether a process is still running, for the files a process leaves while it works (the CLI's
// temporary outputs, a session's lock): one whose owner is gone may be swept or broken.

/** Whether the process `pid` is running (or exists and belongs to someone else: EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
