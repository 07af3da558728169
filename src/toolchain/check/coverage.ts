// Which files each prover run verifies, and what no run would look at. A module's run takes
// its generated file, its proof companion and every proof file the companion includes (an
// included file is not verified by Dafny unless named on the command line); every file under
// dafny/ and proofs/ must belong to some run, or the check fails.

import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import type { Layout } from "../frontend/load.ts";
import { type DafnyScan, scanDafny } from "./dafny-scan.ts";
import { type Job, listFiles } from "./prover.ts";

/** The runs of the check, the scans of every file they name, and what no run covers. */
export interface Plan {
  jobs: Job[];
  /** path relative to the project root -> scan, for every .dfy under dafny/ and proofs/ */
  scans: Map<string, DafnyScan>;
  problems: string[];
}

/** Plans one run per generated module (names under dafny/, e.g. "cutpoint.dfy"); `all` says every module is selected. */
export function planJobs(l: Layout, modules: string[], all: boolean): Plan {
  const problems: string[] = [];
  const scans = new Map<string, DafnyScan>();
  const files = [
    ...listFiles(l.dafnyDir).map((f) => join("dafny", f)),
    ...listFiles(join(l.root, "proofs")).map((f) => join("proofs", f)),
  ];
  for (const f of files) {
    if (f.endsWith(".dfy")) scans.set(f, scanDafny(readFileSync(join(l.root, f), "utf8")));
    else if (!(f.startsWith("proofs/") && f.endsWith(".md")))
      problems.push(`${f}: no prover checks this file (dafny/ and proofs/ hold .dfy files and proofs/ its .md notes)`);
  }
  for (const f of scans.keys()) {
    if (f.startsWith("dafny/") && (f.split("/").length !== 2 || (!modules.includes(f.slice(6)) && all))) {
      problems.push(`${f}: not generated from a kernel module, so never verified`);
    }
  }
  const covered = new Set<string>();
  const jobs = modules.map((m) => {
    const own = join("dafny", m);
    const paths = [own];
    const queue = [own];
    while (queue.length > 0) {
      const from = queue.shift() as string;
      for (const inc of scans.get(from)?.includes ?? []) {
        const to = normalize(join(dirname(from), inc));
        if (to.startsWith("dafny/") && from.startsWith("dafny/")) continue; // another module: verified by its own run
        if (!to.startsWith("proofs/")) {
          problems.push(
            `${from}: includes ${inc}, which lies outside dafny/ and proofs/ (a generated module may include modules; proof files only proof files)`,
          );
          continue;
        }
        if (!scans.has(to)) continue; // Dafny reports the missing file
        if (!paths.includes(to)) {
          paths.push(to);
          queue.push(to);
        }
      }
    }
    for (const p of paths) covered.add(p);
    return { file: m, paths };
  });
  if (all) {
    for (const f of scans.keys()) {
      if (f.startsWith("proofs/") && !covered.has(f))
        problems.push(
          `${f}: belongs to no kernel module (no generated file includes it, directly or through its companion), so never verified`,
        );
    }
  }
  return { jobs, scans, problems };
}
