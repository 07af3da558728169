// The `check dafny` pipeline: regenerate, detect stale artifacts, verify, report.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FileVerdict, findProver, verifyFiles } from "./prover.ts";
import { generateDafny, type Layout } from "./program.ts";

/** Generated files whose committed text differs from a fresh translation, or whose source is gone. */
export interface Staleness {
  changed: string[];
  orphaned: string[];
}

/** Regenerates dafny/ from the kernel; returns what was stale before the rewrite. */
export function regenerate(l: Layout): Staleness {
  const fresh = generateDafny(l);
  mkdirSync(l.dafnyDir, { recursive: true });
  const onDisk = readdirSync(l.dafnyDir).filter((f) => f.endsWith(".dfy"));
  const changed: string[] = [];
  for (const [f, text] of fresh) {
    const path = join(l.dafnyDir, f);
    if (!existsSync(path) || readFileSync(path, "utf8") !== text) {
      changed.push(f);
      writeFileSync(path, text);
    }
  }
  const orphaned = onDisk.filter((f) => !fresh.has(f)).sort();
  for (const f of orphaned) rmSync(join(l.dafnyDir, f));
  return { changed: changed.sort(), orphaned };
}

/** Options of one check run. */
export interface CheckOptions {
  /** verify only these modules (base names); all when empty */
  only: string[];
  /** fail when the committed artifacts were stale */
  staleIsError: boolean;
  log: (line: string) => void;
}

/** Outcome of `check dafny`: exit code 0 only when nothing is stale and everything verified. */
export interface CheckResult {
  exitCode: number;
  stale: Staleness;
  verdicts: FileVerdict[];
}

/** Runs the whole Dafny check on a project layout. */
export function checkDafny(l: Layout, opts: CheckOptions): CheckResult {
  const { log } = opts;
  const stale = regenerate(l);
  for (const f of stale.changed) log(`stale: dafny/${f} differed from a fresh translation (regenerated; commit it)`);
  for (const f of stale.orphaned) log(`stale: dafny/${f} had no kernel source (removed)`);
  const staleFail = opts.staleIsError && (stale.changed.length > 0 || stale.orphaned.length > 0);
  const prover = findProver(l.root);
  if (!prover) {
    log("error: no Dafny found on PATH (set SAFECUT_DAFNY, or run: bash scripts/setup-provers.sh)");
    return { exitCode: 3, stale, verdicts: [] };
  }
  log(`prover: ${prover.command} (${prover.generation === "dafny4" ? "Dafny 4" : "Dafny 2.3, 2.3 rendering"})`);
  const files = readdirSync(l.dafnyDir)
    .filter((f) => f.endsWith(".dfy"))
    .filter((f) => opts.only.length === 0 || opts.only.includes(f.replace(/\.dfy$/, "")))
    .sort();
  const verdicts = verifyFiles(l, files, prover, (v) => {
    const what = v.status === "invalid" ? ` (did not resolve, exit ${v.exitCode})` : "";
    log(`${v.file}: ${v.verified} verified, ${v.errors} errors${v.timeouts > 0 ? `, ${v.timeouts} time outs` : ""}${what}`);
    if (v.status !== "verified") {
      for (const line of v.output.split("\n").filter((x) => /Error|error/.test(x)).slice(0, 20)) log(`  ${line.trim()}`);
    }
  });
  const verified = verdicts.reduce((a, v) => a + v.verified, 0);
  const errors = verdicts.reduce((a, v) => a + v.errors, 0);
  const timeouts = verdicts.reduce((a, v) => a + v.timeouts, 0);
  const invalid = verdicts.filter((v) => v.status === "invalid").length;
  log(`total: ${verdicts.length} files, ${verified} verified, ${errors} errors${timeouts ? `, ${timeouts} time outs` : ""}${invalid ? `, ${invalid} files did not resolve` : ""}${staleFail ? ", stale artifacts" : ""}`);
  const ok = !staleFail && verdicts.every((v) => v.status === "verified");
  return { exitCode: ok ? 0 : 1, stale, verdicts };
}
