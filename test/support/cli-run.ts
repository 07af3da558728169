// Running the CLI in-process (runCli with buffered IO) or as a real process (node bin/safecut.js).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCli } from "../../src/cli/main.ts";

/** What a CLI run produced. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh temporary directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "safecut-test-"));
}

/** Runs the CLI in this process with buffered IO. */
export async function runInProcess(
  args: string[],
  o: { cwd: string; stdin?: string; env?: Record<string, string | undefined> },
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    readStdin: async () => o.stdin ?? "",
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env: o.env ?? {},
    cwd: o.cwd,
  });
  return { code, stdout, stderr };
}

const BIN = resolve(import.meta.dirname, "../../bin/safecut.js");

/** Runs `node bin/safecut.js` as a child process (async, so an in-process HTTP imitation keeps serving). */
export function runProcess(
  args: string[],
  o: { cwd: string; stdin?: string | Uint8Array; env?: Record<string, string | undefined> },
): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: o.cwd,
      env: { PATH: process.env.PATH, ...(o.env ?? {}) },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(o.stdin ?? "");
  });
}
