// Small tmpfs mounts for the log's environment tests (a full disk, a read-only mount): mounted in
// a fresh directory, unmounted by unmountAll. Mounting needs root (CAP_SYS_ADMIN): where it is
// refused, canMount says why and the tests that need a mount are skipped with that reason.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { freshDir } from "./backends.ts";

const mounted: string[] = [];

function mount(args: readonly string[]): void {
  execFileSync("mount", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** A fresh directory with a tmpfs of `bytes` mounted on it. */
export function tmpfs(bytes: number): string {
  const dir = freshDir();
  mount(["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir]);
  mounted.push(dir);
  return dir;
}

/** Remounts the tmpfs at `dir` read-only. */
export function remountReadOnly(dir: string): void {
  mount(["-o", "remount,ro", dir]);
}

/** Unmounts every tmpfs mounted here (call in afterAll, before the directories are removed). */
export function unmountAll(): void {
  for (const d of mounted.splice(0)) execFileSync("umount", ["-l", d]); // lazy: a file a failed test left open does not keep it mounted
}

/** Why a tmpfs cannot be mounted here (not root, no mount permission), or undefined when it can. */
export function whyNoMount(): string | undefined {
  try {
    const d = tmpfs(64 * 1024);
    unmountAll();
    rmSync(d, { recursive: true, force: true });
    return undefined;
  } catch (e) {
    return `mounting a tmpfs is refused here (${(e as Error).message.split("\n")[0]})`;
  }
}
