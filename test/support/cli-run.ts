// Running the CLI in-process (runCli with buffered IO) or as a real process (node bin/safecut.js).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
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

/** What a source-run CLI process produced, and whether it had to be killed at the time limit. */
export interface TimedResult extends CliResult {
  readonly timedOut: boolean;
}

/**
 * Runs the CLI from its sources (`runCli` with the real process IO, as bin/safecut.js runs the
 * build) in a child process, killed after `limitMs`: a process that does not end by itself (an
 * open connection holding its event loop) is told apart from one that ends.
 */
export function runSourceProcess(
  args: string[],
  o: { cwd: string; limitMs: number; env?: Record<string, string | undefined> },
): Promise<TimedResult> {
  const main = resolve(import.meta.dirname, "../../src/cli/main.ts");
  // tsx's loader by its file: the child's working directory is a temporary one
  const tsx = pathToFileURL(resolve(import.meta.dirname, "../../node_modules/tsx/dist/loader.mjs")).href;
  const script = `const { runCli, processIO } = await import(${JSON.stringify(main)}); process.exitCode = await runCli(process.argv.slice(1), processIO());`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", tsx, "--input-type=module", "-e", script, ...args], {
      cwd: o.cwd,
      env: { PATH: process.env.PATH, ...(o.env ?? {}) },
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, o.limitMs);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr, timedOut });
    });
    child.stdin.end();
  });
}
