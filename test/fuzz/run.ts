// The program fuzzer's pipeline: programs (generated, plus the regression cases) are translated
// as kernel modules, the Dafny of all of them is compiled to JavaScript in one `dafny translate
// js` (the agreement check's compile path, test/agree/compile.ts), and each program's main
// function runs in Node (its TypeScript, types erased) and compiled from Dafny on the same random
// inputs. A difference, an exception on either side, or a program that does not translate is a
// translator bug (the generator stays inside the subset and keeps every value exact).

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { type DafnyRuntime, difference, toDafny } from "../agree/adapter.ts";
import { loadCompiledKernel } from "../agree/compile.ts";
import { readDafnyProgram } from "../agree/dafny-types.ts";
import { translate } from "../toolchain/harness.ts";
import { inputs, type Program, program, Rng } from "./programs.ts";

export const REPO = join(import.meta.dirname, "..", "..");
/** Programs the fuzzer once found failing, kept and run in every batch. */
export const REGRESSIONS = join(import.meta.dirname, "regressions");

/** One disagreement: the program, the input, and what differed. */
export interface Finding {
  program: Program;
  input: unknown[] | null;
  problem: string;
}

export interface FuzzOptions {
  seed: number;
  programs: number;
  inputsPerProgram: number;
  /** a change to the translator's output, standing for a broken translation rule (for the test of the fuzzer itself) */
  mutate?: (dafny: string) => string;
  /** include the regression cases (default true) */
  regressions?: boolean;
}

/** The regression cases: each file is one program, its first line `// main: <function>`. */
export function regressionPrograms(): Program[] {
  return readdirSync(REGRESSIONS)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f, k) => {
      const source = readFileSync(join(REGRESSIONS, f), "utf8");
      const main = /^\/\/ main: (\w+)/.exec(source)?.[1];
      if (!main) throw new Error(`${f}: the first line must be "// main: <function>"`);
      return { id: -1 - k, source, main };
    });
}

/** Writes a failing program as a regression case (the caller commits it). */
export function keepAsRegression(p: Program, problem: string): string {
  const file = join(REGRESSIONS, `${p.main}.ts`);
  const why = problem.split("\n")[0].replace(/\*\//g, "*\\/");
  writeFileSync(file, `// main: ${p.main}\n// found: ${why}\n${p.source}`);
  return file;
}

/** Imports the TypeScript of every program as one ES module (types erased, nothing else changed). */
async function runInNode(dir: string, sources: string[]): Promise<Record<string, (...a: unknown[]) => unknown>> {
  const js = ts.transpileModule(sources.join("\n"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(dir, "programs.mjs");
  writeFileSync(file, js);
  return import(file);
}

/** Runs one batch; returns every finding and the time each stage took. */
export async function fuzz(
  opts: FuzzOptions,
): Promise<{ findings: Finding[]; ran: number; ms: Record<string, number> }> {
  const ms: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    ms[name] = Math.round(now - t);
    t = now;
  };
  const rng = new Rng(opts.seed);
  const programs = [
    ...(opts.regressions === false ? [] : regressionPrograms()),
    ...Array.from({ length: opts.programs }, (_, k) => program(rng, k)),
  ];
  const findings: Finding[] = [];
  // each program is its own kernel module, so a translation error names one program
  const translated: Program[] = [];
  const dafny: string[] = [];
  for (const p of programs) {
    try {
      const text = translate({ [`p${p.main}`]: p.source }).get(`p${p.main}`) ?? "";
      dafny.push(opts.mutate ? opts.mutate(text) : text);
      translated.push(p);
    } catch (e) {
      findings.push({ program: p, input: null, problem: `does not translate: ${(e as Error).message}` });
    }
  }
  lap("translate");
  const root = join(REPO, ".tmp", "fuzz", `${process.pid}-${opts.seed}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, "dafny"), { recursive: true });
  mkdirSync(join(root, "proofs", "dafny"), { recursive: true });
  writeFileSync(join(root, "dafny", "programs.dfy"), dafny.join("\n"));
  try {
    let runtime: DafnyRuntime;
    try {
      runtime = loadCompiledKernel(root).runtime;
    } catch (e) {
      // Dafny names programs.dfy(line,col): report the program holding that line
      const message = (e as Error).message;
      const line = Number(/programs\.dfy\((\d+),/.exec(message)?.[1] ?? 0);
      let end = 0;
      const at = dafny.findIndex((text) => {
        end += text.split("\n").length;
        return line > 0 && line <= end;
      });
      if (at < 0) throw e;
      findings.push({ program: translated[at], input: null, problem: `the Dafny does not compile: ${message}` });
      return { findings, ran: 0, ms };
    }
    lap("compile");
    const node = await runInNode(
      root,
      translated.map((p) => p.source),
    );
    const sigs = readDafnyProgram(join(root, "dafny"));
    const compiled = runtime.module.__default as Record<string, (...a: unknown[]) => unknown>;
    let ran = 0;
    for (const p of translated) {
      const sig = sigs.signatures.get(p.main);
      const d = compiled[p.main];
      const f = node[p.main];
      if (!sig || typeof d !== "function" || typeof f !== "function") {
        findings.push({ program: p, input: null, problem: `no function ${p.main} on one side` });
        continue;
      }
      for (let k = 0; k < opts.inputsPerProgram; k++) {
        const input = inputs(rng);
        const problem = compare(sigs, runtime, sig.params, sig.result, f, d, input);
        ran++;
        if (problem !== null) {
          findings.push({ program: p, input, problem });
          break;
        }
      }
    }
    lap("run");
    return { findings, ran, ms };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

type Sigs = ReturnType<typeof readDafnyProgram>;
type Sig = NonNullable<ReturnType<Sigs["signatures"]["get"]>>;

/** Runs both sides on one input; null when they agree. */
function compare(
  sigs: Sigs,
  rt: DafnyRuntime,
  params: Sig["params"],
  result: Sig["result"],
  f: (...a: unknown[]) => unknown,
  d: (...a: unknown[]) => unknown,
  input: unknown[],
): string | null {
  let tsOut: unknown;
  let dOut: unknown;
  try {
    tsOut = f(...input);
  } catch (e) {
    return `Node threw ${(e as Error).message}`;
  }
  try {
    dOut = d(...input.map((a, i) => toDafny(sigs, rt, params[i].type, a)));
  } catch (e) {
    return `the compiled Dafny threw ${(e as Error).message}`;
  }
  return difference(sigs, rt, result, tsOut, dOut);
}
