// Command line of the toolchain: `gen` regenerates dafny/, `check dafny` regenerates,
// reports stale artifacts and runs the prover (scripts/check.sh calls this), `docs` regenerates
// docs/kernel.md, the kernel entry and the engine's generated guards from the same annotations.

import { resolve } from "node:path";
import { checkDafny, regenerate } from "./check/check.ts";
import { findProvers } from "./check/prover.ts";
import { writeDocs } from "./emit/docs-emit.ts";
import { writeGuards } from "./emit/guards-emit.ts";
import { typecheckKernel } from "./frontend/kernel-types.ts";
import { kernelFiles, layout } from "./frontend/load.ts";
import { TranslateError } from "./ir/ir.ts";

function main(argv: string[]): number {
  const rootIdx = argv.indexOf("--root");
  const root = resolve(rootIdx >= 0 ? argv[rootIdx + 1] : process.cwd());
  const only = argv.flatMap((a, i) => (argv[i - 1] === "--only" ? a.split(",") : []));
  // --prover dafny23|dafny4: run only that generation (every installed Dafny by default)
  const generation = argv.find((_, i) => argv[i - 1] === "--prover");
  const l = layout(root);
  const [cmd, backend] = argv.filter(
    (a, i) => !a.startsWith("--") && !["--root", "--only", "--prover"].includes(argv[i - 1] ?? ""),
  );
  try {
    if (cmd === "gen") {
      const typeErrors = typecheckKernel(l, kernelFiles(l));
      for (const e of typeErrors) console.error(e);
      if (typeErrors.length > 0) {
        console.error("error: src/kernel does not type-check; nothing was translated");
        return 1;
      }
      const s = regenerate(l);
      for (const f of s.changed) console.log(`wrote dafny/${f}`);
      for (const f of s.orphaned) console.log(`removed dafny/${f}`);
      if (s.changed.length + s.orphaned.length === 0) console.log("dafny/ is up to date");
      return 0;
    }
    if (cmd === "docs") {
      const changed = [...writeDocs(l), ...writeGuards(l)];
      for (const f of changed) console.log(`wrote ${f}`);
      if (changed.length === 0) console.log("kernel docs are up to date");
      return 0;
    }
    if (cmd === "check" && backend === "dafny") {
      if (generation !== undefined && generation !== "dafny23" && generation !== "dafny4") {
        console.error(`error: --prover ${generation}: expected dafny23 or dafny4`);
        return 2;
      }
      const provers =
        generation === undefined ? undefined : findProvers(root).filter((p) => p.generation === generation);
      if (provers !== undefined && provers.length === 0)
        console.log(`error: --prover ${generation}: that Dafny is not installed`);
      const r = checkDafny(l, {
        only,
        staleIsError: !argv.includes("--allow-stale"),
        log: (x) => console.log(x),
        provers,
      });
      return r.exitCode;
    }
    console.error(
      "usage: cli.ts gen | docs | check dafny [--root DIR] [--only m1,m2] [--prover dafny23|dafny4] [--allow-stale]",
    );
    return 2;
  } catch (e) {
    if (e instanceof TranslateError) {
      console.error(`error: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
