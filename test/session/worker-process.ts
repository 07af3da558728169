// Runs worker.ts as child processes: bundled once into one plain JavaScript file (esbuild), so a
// child starts as fast as node itself; each child's acknowledgements are collected as they come.
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { freshDir } from "./backends.ts";

/** Bundles `entry` (default worker.ts) of this folder; returns the path of the bundle. */
export function bundleWorker(entry = "worker.ts"): string {
  const out = join(freshDir(), "worker.mjs");
  buildSync({
    entryPoints: [resolve(import.meta.dirname, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: out,
    logLevel: "error",
  });
  return out;
}

/** A running worker: its process, the ids it acknowledged so far, and when it was ready. */
export interface Worker {
  readonly child: ChildProcess;
  readonly acked: string[];
  readonly ready: Promise<void>;
  /** resolves at the first acknowledgement (or when the worker exits) */
  readonly firstAck: Promise<void>;
  /** resolves when the first compaction step starts (or when the worker exits) */
  readonly firstStep: Promise<void>;
  readonly exited: Promise<number | null>;
  /** every line it wrote to stdout */
  readonly lines: string[];
  /** everything it wrote to stderr */
  stderr: string;
}

/** Starts the bundled worker with `args` (as the user `as` when given: a test run as root reading as another user). */
export function startWorker(bundle: string, args: readonly string[], as?: { uid: number; gid: number }): Worker {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ["ignore", "pipe", "pipe"], ...as });
  const acked: string[] = [];
  let rest = "";
  let onReady = () => {};
  const ready = new Promise<void>((r) => {
    onReady = r;
  });
  let onAck = () => {};
  const firstAck = new Promise<void>((r) => {
    onAck = r;
  });
  let onStep = () => {};
  const firstStep = new Promise<void>((r) => {
    onStep = r;
  });
  const w: Worker = {
    child,
    acked,
    ready,
    firstAck,
    firstStep,
    exited: new Promise((r) => child.on("exit", (code) => r(code))),
    lines: [],
    stderr: "",
  };
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (d: string) => {
    rest += d;
    const lines = rest.split("\n");
    rest = lines.pop() ?? "";
    for (const l of lines) {
      w.lines.push(l);
      if (l === "ready") onReady();
      else if (l === "step") onStep();
      else if (l.startsWith("ack ")) {
        acked.push(l.slice(4));
        onAck();
      }
    }
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (d: string) => {
    w.stderr += d;
  });
  child.on("exit", () => {
    onReady();
    onAck();
    onStep();
  });
  return w;
}
