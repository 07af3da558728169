// The `check dafny` pipeline: type-check the kernel, regenerate, detect stale artifacts,
// plan which files each run verifies, list trusted material, verify with every installed
// Dafny, account for every item, and compare with proofs/PROPERTIES.md.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Origin } from "../emit/dafny-emit.ts";
import { staleGuards } from "../emit/guards-emit.ts";
import { typecheckKernel } from "../frontend/kernel-types.ts";
import { kernelFiles, type Layout, loadKernel } from "../frontend/load.ts";
import { generateDafny } from "../program.ts";
import { accountItems, isProof, isTrustedDecl } from "./accounting.ts";
import { compareAllowList } from "./attributes.ts";
import { planJobs } from "./coverage.ts";
import type { DafnyScan } from "./dafny-scan.ts";
import { locateErrors } from "./locate.ts";
import { type FileVerdict, findProvers, type Job, type Prover, proverName, verifyJobs } from "./prover.ts";
import { collectTrusted, compareFileCounts, compareTrusted, PROPERTIES_FILE } from "./trusted.ts";

/** Generated files whose committed text differs from a fresh translation, or whose source is gone. */
export interface Staleness {
  changed: string[];
  orphaned: string[];
}

/** Regenerates dafny/ from the kernel; returns what was stale before the rewrite. */
export function regenerate(l: Layout): Staleness {
  return regenerateMapped(l).stale;
}

/** regenerate, with the TypeScript origin of each generated file's safe-integer obligations. */
function regenerateMapped(l: Layout): { stale: Staleness; origins: Map<string, Origin[]> } {
  const generated = generateDafny(l);
  const fresh = new Map([...generated].map(([f, g]) => [f, g.text]));
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
  return {
    stale: { changed: changed.sort(), orphaned },
    origins: new Map([...generated].map(([f, g]) => [f, g.origins])),
  };
}

/** Options of one check run. */
export interface CheckOptions {
  /** verify only these modules (base names); all when empty */
  only: string[];
  /** fail when the committed artifacts were stale */
  staleIsError: boolean;
  log: (line: string) => void;
  /** the provers to run; every installed Dafny when absent */
  provers?: Prover[];
  /** prove one item at a time (VerifyOptions.sequential): each run meets its items in the same order */
  sequential?: boolean;
}

/** The verdicts of one prover on every module it was given. */
export interface ProverRun {
  prover: Prover;
  verdicts: FileVerdict[];
  /** reasons this run is not a proof of everything it was given; empty when it is */
  problems: string[];
  /** its errors on safe-integer obligations, at the TypeScript file:line:col of the arithmetic (check/locate.ts) */
  located: string[];
}

/** Outcome of `check dafny`: exit code 0 only when nothing is stale, every item of every run is accounted for and proven, and PROPERTIES.md agrees. */
export interface CheckResult {
  exitCode: number;
  stale: Staleness;
  /** the first prover's verdicts */
  verdicts: FileVerdict[];
  runs: ProverRun[];
  /** every reason the check failed (besides failed verdicts, which are in `runs`) */
  problems: string[];
}

/** Runs the whole Dafny check on a project layout. */
export function checkDafny(l: Layout, opts: CheckOptions): CheckResult {
  const { log } = opts;
  const problems: string[] = [];
  const none: Staleness = { changed: [], orphaned: [] };
  const typeErrors = typecheckKernel(l, kernelFiles(l));
  if (typeErrors.length > 0) {
    for (const e of typeErrors) log(e);
    log(`error: src/kernel does not type-check (${typeErrors.length} errors); nothing was translated or verified`);
    return { exitCode: 1, stale: none, verdicts: [], runs: [], problems: typeErrors };
  }
  log("types: src/kernel type-checks");
  const { stale, origins } = regenerateMapped(l);
  for (const f of stale.changed) log(`stale: dafny/${f} differed from a fresh translation (regenerated; commit it)`);
  for (const f of stale.orphaned) log(`stale: dafny/${f} had no kernel source (removed)`);
  if (opts.staleIsError && stale.changed.length + stale.orphaned.length > 0) problems.push("stale artifacts");
  // the runtime guards generated from the same //@ requires (npm run docs writes them)
  const guards = staleGuards(l);
  if (guards !== null) problems.push(`stale: ${guards}`);

  const modules = readdirSync(l.dafnyDir)
    .filter((f) => f.endsWith(".dfy"))
    .sort();
  const all = opts.only.length === 0;
  const selected = modules.filter((f) => all || opts.only.includes(f.replace(/\.dfy$/, "")));
  const plan = planJobs(l, modules, all);
  const jobs = plan.jobs.filter((j) => selected.includes(j.file));
  problems.push(...plan.problems);

  const trusted = collectTrusted(plan.scans, loadKernel(l).mods);
  log(`trusted: ${trusted.reduce((a, t) => a + t.count, 0)} elements${trusted.length ? "" : " (none)"}`);
  for (const t of trusted) log(`  ${t.kind} ${t.name} (${t.file})${t.count > 1 ? ` x${t.count}` : ""}`);
  const md = existsSync(join(l.root, PROPERTIES_FILE)) ? readFileSync(join(l.root, PROPERTIES_FILE), "utf8") : null;
  if (md === null)
    problems.push(`${PROPERTIES_FILE} is missing: it lists the trusted elements and the per-file counts`);
  else problems.push(...compareTrusted(trusted, md), ...compareAllowList(md, PROPERTIES_FILE));

  const provers = opts.provers ?? findProvers(l.root);
  if (provers.length === 0) {
    log("error: no Dafny found (set SAFECUT_DAFNY, or run: bash scripts/setup-provers.sh)");
    return { exitCode: 3, stale, verdicts: [], runs: [], problems };
  }
  if (opts.provers === undefined && !provers.some((p) => p.generation === "dafny4")) {
    log(
      "note: no Dafny 4 installed (bash scripts/setup-provers.sh installs it where dotnet exists): verifying with Dafny 2.3 only",
    );
  }
  const runs = provers.map((p) => runProver(l, p, jobs, plan.scans, origins, log, opts.sequential === true));
  const first23 = runs.find((r) => r.prover.generation === "dafny23");
  if (md !== null && first23 && first23.problems.length === 0) {
    const counts = new Map(first23.verdicts.map((v) => [v.file, v.verified]));
    problems.push(...compareFileCounts(counts, md, proverName(first23.prover)));
  } else if (md !== null && !first23) {
    log(`note: the per-file counts in ${PROPERTIES_FILE} are Dafny 2.3's; not compared (no Dafny 2.3 ran)`);
  }
  for (const p of problems) log(`error: ${p}`);
  const ok = problems.length === 0 && runs.every((r) => r.problems.length === 0);
  for (const r of runs)
    log(
      `${proverName(r.prover)}: ${r.problems.length === 0 ? "every item proven" : `FAILED (${r.problems.length} problems)`}`,
    );
  if (!all) log(`partial check (--only ${opts.only.join(",")}): modules not selected were not verified`);
  return { exitCode: ok ? 0 : 1, stale, verdicts: runs[0]?.verdicts ?? [], runs, problems };
}

/** Verifies every job with one prover and accounts for each module's items. */
function runProver(
  l: Layout,
  prover: Prover,
  jobs: Job[],
  scans: Map<string, DafnyScan>,
  origins: ReadonlyMap<string, readonly Origin[]>,
  log: (line: string) => void,
  sequential: boolean,
): ProverRun {
  log(
    `prover: ${proverName(prover)} (${prover.command}${prover.generation === "dafny23" ? ", Dafny 2.3 rendering" : ""}${prover.z3 ? `, solver ${prover.z3}` : ""})`,
  );
  const problems: string[] = [];
  const located: string[] = [];
  const verdicts = verifyJobs(l, jobs, prover, {
    sequential,
    onDone: (v) => {
      const job = jobs.find((j) => j.file === v.file) as Job;
      const decls = job.paths.flatMap((p) => (scans.get(p)?.decls ?? []).map((d) => ({ ...d, file: p })));
      const own: string[] = [];
      if (v.status === "invalid") own.push(`did not resolve or crashed (exit ${v.exitCode})`);
      else own.push(...accountItems(decls, v.items));
      const proven = v.items.filter((it) => isProof(it.outcome)).length;
      if (
        prover.generation === "dafny23" &&
        v.status !== "invalid" &&
        (proven !== v.verified || v.items.length !== v.verified + v.errors + v.timeouts)
      ) {
        own.push(
          `the prover's summary (${v.verified} verified, ${v.errors} errors, ${v.timeouts} time outs) does not match its ${v.items.length} reported items (${proven} proven)`,
        );
      }
      if (v.status === "rejected" || (v.status === "verified" && v.exitCode !== 0))
        own.push(`${v.errors} errors, ${v.timeouts} time outs (exit ${v.exitCode})`);
      const callables = decls.filter((d) => d.kind !== "type" && !isTrustedDecl(d));
      if (proven === 0 && v.status !== "invalid" && (callables.length > 0 || decls.length === 0)) {
        own.push(
          decls.length === 0
            ? "declares nothing: nothing was verified"
            : "verified 0 items although it declares functions, methods or lemmas",
        );
      }
      const paths = job.paths.length > 1 ? ` (with ${job.paths.slice(1).join(", ")})` : "";
      const what =
        v.status === "invalid" ? " (did not resolve)" : proven === 0 && own.length === 0 ? " (types only)" : "";
      log(`${v.file}: ${proven} of ${v.items.length} items verified${what}${paths}`);
      if (v.retriedAfterTimeouts !== undefined)
        log(
          `  ${v.file}: ${v.retriedAfterTimeouts} time outs in the parallel run; the verdict above is its re-run proving one item at a time (--cores 1)`,
        );
      for (const p of own) log(`  ${v.file}: ${p}`);
      if (own.length > 0) {
        const here = locateErrors(v.output, origins);
        for (const line of here) log(`  ${line}`);
        located.push(...here);
        for (const line of v.output
          .split("\n")
          .filter((x) => /Error|error/.test(x))
          .slice(0, 20))
          log(`  ${line.trim()}`);
      }
      problems.push(...own.map((p) => `${v.file}: ${p}`));
    },
  });
  const proven = verdicts.reduce((a, v) => a + v.items.filter((it) => isProof(it.outcome)).length, 0);
  log(`total (${proverName(prover)}): ${verdicts.length} files, ${proven} items verified, ${problems.length} problems`);
  return { prover, verdicts, problems, located };
}
