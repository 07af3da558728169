// Agreement by execution (`npm run agree`): every function of the TypeScript kernel (src/kernel)
// and the same function of the generated Dafny program, compiled to JavaScript by Dafny's own
// compiler, run on the same generated inputs (AGREE_RUNS each, default 10,000); any difference
// in the results, an exception on either side, or a kernel function without inputs fails.
// This checks that the translator's reading of the code means what Node runs; it executes no
// specification (proofs/PROPERTIES.md).

import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { difference, toDafny } from "./adapter.ts";
import { cases } from "./cases.ts";
import { loadCompiledKernel } from "./compile.ts";
import { readDafnyProgram } from "./dafny-types.ts";

const root = resolve(import.meta.dirname, "../..");
const runs = Number(process.env.AGREE_RUNS ?? 10_000);

type KernelFunction = (...args: unknown[]) => unknown;

/** Every exported function of every kernel module, by name. */
async function kernelFunctions(): Promise<Map<string, KernelFunction>> {
  const fns = new Map<string, KernelFunction>();
  const dir = join(root, "src", "kernel");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const [name, v] of Object.entries(mod)) if (typeof v === "function") fns.set(name, v as KernelFunction);
  }
  return fns;
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const program = readDafnyProgram(join(root, "dafny"));
  const { runtime, cached, version } = loadCompiledKernel(root);
  const compiled = runtime.module.__default as Record<string, KernelFunction>;
  console.log(
    `agree: Dafny ${version} compiled dafny/*.dfy to JavaScript${cached ? " (cached)" : ""} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const problems: string[] = [];
  for (const [name, ts] of await kernelFunctions()) {
    const sig = program.signatures.get(name);
    const d = compiled[name];
    const gen = cases[name];
    if (sig === undefined || typeof d !== "function") {
      problems.push(`${name}: no compiled Dafny function of this name (regenerate dafny/: npm run gen)`);
      continue;
    }
    if (gen === undefined) {
      problems.push(`${name}: no inputs in test/agree/cases.ts`);
      continue;
    }
    const t1 = performance.now();
    const result = fc.check(
      fc.property(gen, (args) => {
        if (args.length !== sig.params.length)
          throw new Error(`${args.length} arguments for ${sig.params.length} parameters`);
        const dArgs = args.map((a, i) => toDafny(program, runtime, sig.params[i].type, a));
        const diff = difference(program, runtime, sig.result, ts(...args), d(...dArgs));
        if (diff !== null) throw new Error(diff);
      }),
      { numRuns: runs },
    );
    const ms = performance.now() - t1;
    if (result.failed) {
      problems.push(
        `${name}: TypeScript and Dafny differ (seed ${result.seed}, path "${result.counterexamplePath}")\n` +
          `  input: ${fc.stringify(result.counterexample)}\n  ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
      );
    } else console.log(`agree: ${name}: ${result.numRuns} inputs agree (${ms.toFixed(0)} ms)`);
  }
  for (const name of Object.keys(cases).filter((n) => !program.signatures.has(n))) {
    problems.push(`${name}: inputs in test/agree/cases.ts for a function the kernel no longer has`);
  }
  console.log(`agree: ${((performance.now() - t0) / 1000).toFixed(1)} s in all`);
  for (const p of problems) console.error(`agree: FAIL ${p}`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
