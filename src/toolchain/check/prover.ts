// Running Dafny on the generated files and reading its verdict, item by item. Two prover
// generations are supported: a current Dafny (4.x, `dafny verify`) runs the committed files
// as they are; Debian's Dafny 2.3 runs a mechanical 2.3 rendering through a Z3 wrapper. Both
// are asked for a per-item outcome (2.3: `/trace`; 4: a CSV log), never just the summary.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Layout } from "../frontend/load.ts";
import { type ItemOutcome, parseCsv4, parseTrace23 } from "./accounting.ts";
import { toDafny23 } from "./dialect.ts";

/** Which Dafny is installed, and how to call it. */
export interface Prover {
  command: string;
  generation: "dafny4" | "dafny23";
  /** the version Dafny printed */
  version: string;
  /** the Z3 wrapper that Dafny 2.3 is pointed at */
  z3Wrapper: string | null;
  /** the Z3 that Dafny 4 is pointed at (null: its own) */
  z3: string | null;
}

/** The verdict of the prover on one module (its generated file, companion and helpers). */
export interface FileVerdict {
  file: string;
  verified: number;
  errors: number;
  /** verification conditions the prover gave up on (time limit): not proven either */
  timeouts: number;
  /** "verified": all VCs proven; "rejected": a VC failed or timed out; "invalid": parse/resolution error or crash */
  status: "verified" | "rejected" | "invalid";
  exitCode: number;
  output: string;
  /** each item the prover reported, with its outcome */
  items: ItemOutcome[];
  /** the time outs of a first, parallel run, when this verdict is that of its one re-run with `--cores 1` */
  retriedAfterTimeouts?: number;
}

/**
 * A parallel Dafny 4 run whose only failures were time outs is run once more proving one item at a
 * time (`rerun`), and that run's verdict stands, with the first run's time outs recorded: which
 * items share a solver process varies between parallel runs, and a search that ends in seconds
 * in one order can meet the time limit in another. A time out proves nothing, so a run with an
 * error, or a re-run that fails again, is still a failure.
 */
export function settleTimeouts(first: FileVerdict, rerun: () => FileVerdict): FileVerdict {
  if (first.status !== "rejected" || first.errors > 0 || first.timeouts === 0) return first;
  return { ...rerun(), retriedAfterTimeouts: first.timeouts };
}

/** The Dafny 4 a user installed as a .NET tool (`dotnet tool install --global dafny`). */
export function dotnetToolDafny(): string {
  return join(homedir(), ".dotnet", "tools", "dafny");
}

function probe(command: string, projectRoot: string): Prover | null {
  const run = spawnSync(command, ["--version"], { encoding: "utf8" });
  if (run.error) return null;
  const text = `${run.stdout}${run.stderr}`;
  const v4 = /^\s*([4-9]\.[\w.+-]+)/m.exec(text);
  if (run.status === 0 && v4)
    return { command, generation: "dafny4", version: v4[1].split("+")[0], z3Wrapper: null, z3: systemZ3() };
  if (/unknown switch/.test(text) || /Dafny 2\./.test(text)) {
    // Dafny 2.3 prints its version as the first line of any run
    const v2 = /Dafny (2\.[\d.]+)/.exec(String(spawnSync(command, ["/version"], { encoding: "utf8" }).stdout));
    return {
      command,
      generation: "dafny23",
      version: v2?.[1] ?? "2.x",
      z3Wrapper: resolve(projectRoot, "scripts", "z3-wrapper.sh"),
      z3: null,
    };
  }
  return null;
}

function systemZ3(): string | null {
  const name = process.env.SAFECUT_Z3 ?? "z3";
  const found = spawnSync("sh", ["-c", `command -v "${name}"`], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() !== "" ? found.stdout.trim() : null;
}

/**
 * Every installed Dafny, at most one per generation: SAFECUT_DAFNY (or `dafny` on PATH), and the
 * .NET tool Dafny 4 (SAFECUT_DAFNY4, or ~/.dotnet/tools/dafny). Dafny 2.3 first.
 */
export function findProvers(projectRoot: string): Prover[] {
  const found: Prover[] = [];
  const candidates = [process.env.SAFECUT_DAFNY ?? "dafny", process.env.SAFECUT_DAFNY4 ?? dotnetToolDafny()];
  for (const c of candidates) {
    const p = probe(c, projectRoot);
    if (p && !found.some((q) => q.generation === p.generation)) found.push(p);
  }
  return found.sort((a, b) => (a.generation === b.generation ? 0 : a.generation === "dafny23" ? -1 : 1));
}

/** Finds one installed Dafny (Dafny 2.3 first); null when there is none. */
export function findProver(projectRoot: string): Prover | null {
  return findProvers(projectRoot)[0] ?? null;
}

/** A prover's name for reports, e.g. "Dafny 2.3.0.10506". */
export function proverName(p: Prover): string {
  return `Dafny ${p.version}`;
}

/** Reads Dafny's summary line ("finished with 17 verified, 0 errors, 1 time out"). */
export function parseVerdict(file: string, exitCode: number, output: string, items: ItemOutcome[] = []): FileVerdict {
  const m = /finished with (\d+) verified, (\d+) errors?(?:, (\d+) time outs?)?/.exec(output);
  const verified = m ? Number(m[1]) : 0;
  const errors = m ? Number(m[2]) : 0;
  const timeouts = m?.[3] ? Number(m[3]) : 0;
  let status: FileVerdict["status"] = "invalid";
  if (m && exitCode === 0 && errors === 0 && timeouts === 0) status = "verified";
  else if (m && errors + timeouts > 0) status = "rejected";
  return { file, verified, errors, timeouts, status, exitCode, output, items };
}

/** What one prover run covers: the module's generated file and the proof files verified with it. */
export interface Job {
  /** the module's file under dafny/, e.g. "cutpoint.dfy" */
  file: string;
  /** paths relative to the project root, the generated file first */
  paths: string[];
}

/** How verifyJobs runs the prover. */
export interface VerifyOptions {
  /** called with each job's verdict as soon as it is known */
  readonly onDone?: (v: FileVerdict) => void;
  /**
   * Dafny 4 proves one item at a time (`--cores 1`), so each solver process meets the same items
   * in the same order from run to run; with several in parallel, which items share a solver
   * process varies, and a proof search that usually ends in seconds sometimes runs into the time limit
   */
  readonly sequential?: boolean;
}

/** Verifies each job's files together, so that the proof files' lemmas are checked too (an included file is otherwise not verified). */
export function verifyJobs(l: Layout, jobs: Job[], prover: Prover, options: VerifyOptions = {}): FileVerdict[] {
  const { onDone, sequential = false } = options;
  const stage = mkdtempSync(join(tmpdir(), "safecut-dafny-"));
  try {
    const dir = prover.generation === "dafny23" ? stage : l.root;
    if (prover.generation === "dafny23") stage23(l, jobs, stage);
    const verify = (job: Job, n: number, oneAtATime: boolean): FileVerdict => {
      const args = job.paths.map((p) => join(dir, p));
      const csv = join(stage, `items-${n}-${oneAtATime ? "one" : "all"}.csv`);
      const run =
        prover.generation === "dafny23"
          ? spawnSync(
              prover.command,
              ["/compile:0", "/trace", "/timeLimit:120", `/proverOpt:PROVER_PATH=${prover.z3Wrapper}`, ...args],
              { encoding: "utf8" },
            )
          : spawnSync(
              prover.command,
              [
                "verify",
                "--verification-time-limit",
                "120",
                "--show-snippets",
                "false",
                "--allow-warnings",
                ...(oneAtATime ? ["--cores", "1"] : []),
                ...(prover.z3 ? ["--solver-path", prover.z3] : []),
                "--log-format",
                `csv;LogFileName=${csv}`,
                ...args,
              ],
              { encoding: "utf8" },
            );
      const out = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`.split(stage).join(".");
      const items =
        prover.generation === "dafny23"
          ? parseTrace23(out)
          : existsSync(csv)
            ? parseCsv4(readFileSync(csv, "utf8"))
            : [];
      return parseVerdict(job.file, run.status ?? -1, out, items);
    };
    return jobs.map((job, n) => {
      const first = verify(job, n, sequential);
      const verdict =
        prover.generation === "dafny4" && !sequential ? settleTimeouts(first, () => verify(job, n, true)) : first;
      onDone?.(verdict);
      return verdict;
    });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Writes the Dafny 2.3 rendering of every file the jobs name, and of what they include, under `stage`. */
function stage23(l: Layout, jobs: Job[], stage: string): void {
  const all = new Set(jobs.flatMap((j) => j.paths));
  for (const sub of ["dafny", "proofs"]) listDfy(join(l.root, sub)).forEach((p) => all.add(join(sub, p)));
  for (const p of all) {
    const to = join(stage, p);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, toDafny23(readFileSync(join(l.root, p), "utf8")));
  }
}

/** Every `.dfy` under `dir`, relative to it, at any depth. */
export function listDfy(dir: string): string[] {
  return listFiles(dir).filter((f) => f.endsWith(".dfy"));
}

/** Every file under `dir` (relative paths, sorted), at any depth; empty when `dir` does not exist. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? join(rel, e.name) : e.name;
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk("");
  return out.sort();
}
