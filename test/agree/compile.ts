// Compiles the generated Dafny program (dafny/*.dfy with its proof companions) to JavaScript with
// Dafny's own compiler and loads it. Dafny 4 is used: it compiles the translator's `function`s
// as they are written (Dafny 2.3 treats `function` as ghost and would compile none of them).
// The output is cached in .tmp/agree/, keyed by the program text and the compiler version.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import type { DafnyRuntime } from "./adapter.ts";

/** The Dafny 4 command and its version, or null when none is installed. */
export function findDafny4(): { command: string; version: string } | null {
  const candidates = [
    process.env.SAFECUT_DAFNY4,
    process.env.SAFECUT_DAFNY,
    "dafny",
    join(homedir(), ".dotnet", "tools", "dafny"),
  ];
  for (const command of candidates) {
    if (!command) continue;
    const probe = spawnSync(command, ["--version"], { encoding: "utf8" });
    const version = `${probe.stdout ?? ""}`.trim();
    if (!probe.error && probe.status === 0 && /^[4-9]\./.test(version)) return { command, version };
  }
  return null;
}

function dfyFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".dfy"))
    .sort()
    .map((f) => join(dir, f));
}

/** Compiles (or reuses) the program under `root` and loads it; throws with Dafny's output on failure. */
export function loadCompiledKernel(root: string): { runtime: DafnyRuntime; cached: boolean; version: string } {
  const dafny = findDafny4();
  if (dafny === null) {
    throw new Error("agreement check: no Dafny 4 found (set SAFECUT_DAFNY4, or `dotnet tool install --global dafny`)");
  }
  const generated = dfyFiles(join(root, "dafny"));
  const inputs = [...generated, ...dfyFiles(join(root, "proofs", "dafny"))];
  const hash = createHash("sha256").update(dafny.version);
  for (const f of inputs) hash.update(f).update(readFileSync(f));
  // inside the project, so the compiled file's require("bignumber.js") finds node_modules
  const cache = join(root, ".tmp", "agree");
  const key = hash.digest("hex").slice(0, 16);
  const dir = join(cache, key);
  const loader = join(dir, "kernel.cjs");
  const cached = existsSync(loader);
  if (!cached) {
    mkdirSync(dir, { recursive: true });
    // no verification here: check.sh does that; this is the compiler's reading of the same text
    const r = spawnSync(
      dafny.command,
      [
        "translate",
        "js",
        "--no-verify",
        "--allow-warnings",
        "--include-runtime",
        "--output",
        join(dir, "kernel"),
        ...generated,
      ],
      { encoding: "utf8", cwd: root },
    );
    const out = join(dir, "kernel.js");
    if (r.status !== 0 || !existsSync(out))
      throw new Error(`agreement check: dafny translate js failed:\n${r.stdout}${r.stderr}`);
    // the compiled file declares _dafny (runtime) and _module (program) as script globals: export them
    writeFileSync(
      loader,
      `${readFileSync(out, "utf8")}\nmodule.exports = { BigNumber, dafny: _dafny, module: _module };\n`,
    );
    // older compilations are of programs that no longer exist
    for (const old of readdirSync(cache)) if (old !== key) rmSync(join(cache, old), { recursive: true, force: true });
  }
  const runtime = createRequire(import.meta.url)(loader) as DafnyRuntime;
  return { runtime, cached, version: dafny.version };
}
