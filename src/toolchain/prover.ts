// Running Dafny on the generated files and reading its verdict. Two prover generations
// are supported: a current Dafny (4.x, `dafny verify`) runs the committed files as they
// are; Debian's Dafny 2.3 runs a mechanical 2.3 rendering through a Z3 wrapper.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { toDafny23 } from "./dialect.ts";
import type { Layout } from "./program.ts";

/** Which Dafny is installed, and how to call it. */
export interface Prover {
  command: string;
  generation: "dafny4" | "dafny23";
  /** the Z3 wrapper that Dafny 2.3 is pointed at */
  z3Wrapper: string | null;
}

/** The verdict of the prover on one generated file. */
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
}

/** Finds the installed Dafny; null when there is none. */
export function findProver(projectRoot: string): Prover | null {
  const command = process.env.SAFECUT_DAFNY ?? "dafny";
  const probe = spawnSync(command, ["--version"], { encoding: "utf8" });
  if (probe.error) return null;
  const text = `${probe.stdout}${probe.stderr}`;
  if (probe.status === 0 && /^\s*[4-9]\./m.test(text)) return { command, generation: "dafny4", z3Wrapper: null };
  if (/unknown switch/.test(text) || /Dafny 2\./.test(text)) {
    return { command, generation: "dafny23", z3Wrapper: resolve(projectRoot, "scripts", "z3-wrapper.sh") };
  }
  return null;
}

/** Reads Dafny's summary line ("finished with 17 verified, 0 errors, 1 time out"). */
export function parseVerdict(file: string, exitCode: number, output: string): FileVerdict {
  const m = /finished with (\d+) verified, (\d+) errors?(?:, (\d+) time outs?)?/.exec(output);
  const verified = m ? Number(m[1]) : 0;
  const errors = m ? Number(m[2]) : 0;
  const timeouts = m?.[3] ? Number(m[3]) : 0;
  let status: FileVerdict["status"] = "invalid";
  if (m && exitCode === 0 && errors === 0 && timeouts === 0) status = "verified";
  else if (m && errors + timeouts > 0) status = "rejected";
  return { file, verified, errors, timeouts, status, exitCode, output };
}

/**
 * Verifies `files` (names under dafny/), each together with its proof companion, so that
 * the companion's lemmas are checked too (an included file is otherwise not verified).
 */
export function verifyFiles(l: Layout, files: string[], prover: Prover, onDone?: (v: FileVerdict) => void): FileVerdict[] {
  const stage = mkdtempSync(join(tmpdir(), "safecut-dafny-"));
  try {
    const dir = prover.generation === "dafny23" ? stage : l.root;
    if (prover.generation === "dafny23") stage23(l, stage);
    return files.map((f) => {
      const name = f.replace(/\.dfy$/, "");
      const args = [join(dir, "dafny", f)];
      const companion = join(dir, "proofs", "dafny", f);
      if (existsSync(join(l.companionDir, f))) args.push(companion);
      const run = prover.generation === "dafny23"
        ? spawnSync(prover.command, ["/compile:0", "/timeLimit:120", `/proverOpt:PROVER_PATH=${prover.z3Wrapper}`, ...args], { encoding: "utf8" })
        : spawnSync(prover.command, ["verify", "--verification-time-limit", "120", ...args], { encoding: "utf8" });
      const out = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`;
      const verdict = parseVerdict(`${name}.dfy`, run.status ?? -1, out.split(stage).join("."));
      onDone?.(verdict);
      return verdict;
    });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Writes the Dafny 2.3 rendering of dafny/ and proofs/dafny/ under `stage`, same layout. */
function stage23(l: Layout, stage: string): void {
  for (const [from, sub] of [[l.dafnyDir, "dafny"], [l.companionDir, join("proofs", "dafny")]] as const) {
    mkdirSync(join(stage, sub), { recursive: true });
    if (!existsSync(from)) continue;
    for (const f of readdirDfy(from)) writeFileSync(join(stage, sub, f), toDafny23(readFileSync(join(from, f), "utf8")));
  }
}

function readdirDfy(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(".dfy")).sort();
}
