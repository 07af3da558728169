// The program fuzzer's pipeline: programs (generated, plus the regression cases) are translated
// as kernel modules, the Dafny of all of them is compiled to JavaScript in one `dafny translate
// js` (the agreement check's compile path, test/agree/compile.ts), and each program's main
// function and linear function run in Node (its TypeScript, types erased) and compiled from Dafny
// on the same random inputs, across the safe integers. The compiled Dafny checks its safe-integer
// bound (the number model's obligation) as it runs: an input that breaks it is outside what a
// proof of the program would cover and is only counted. A difference on any other input, an
// exception, or a program that does not translate is a translator bug. For a sample of programs
// the contracts are verified (contracts.ts): a verified ensures that Node's result breaks, on an
// input meeting the requires, is one too.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { type DafnyRuntime, difference, toDafny } from "../agree/adapter.ts";
import { loadCompiledKernel } from "../agree/compile.ts";
import { readDafnyProgram } from "../agree/dafny-types.ts";
import { translate } from "../toolchain/harness.ts";
import { verifyContracts } from "./contracts.ts";
import {
  CONTRACTS_END,
  CONTRACTS_START,
  inputs,
  MAX_SAFE,
  type Program,
  program,
  Rng,
  safeInteger,
} from "./programs.ts";

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
  /** how many of the generated programs get their contracts verified (the first ones, and every regression case with contracts; default 0) */
  verified?: number;
  /** a change to the Dafny the prover verifies (for the test of the contract check itself) */
  mutateVerified?: (dafny: string) => string;
}

/** What a batch ran: runs compared, runs outside the safe integers (counted only), contracts held to Node. */
export interface FuzzCounts {
  ran: number;
  outside: number;
  contractChecks: number;
  verifiedFunctions: number;
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
      const a = source.indexOf(CONTRACTS_START);
      const b = source.indexOf(CONTRACTS_END);
      return { id: -1 - k, source, main, contracts: a >= 0 && b > a ? source.slice(a, b) : "" };
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
): Promise<{ findings: Finding[]; ran: number; counts: FuzzCounts; ms: Record<string, number> }> {
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
  const counts: FuzzCounts = { ran: 0, outside: 0, contractChecks: 0, verifiedFunctions: 0 };
  const sample = [
    ...translated.filter((p) => p.id < 0 && p.contracts !== ""),
    ...translated.filter((p) => p.id >= 0).slice(0, opts.verified ?? 0),
  ];
  try {
    const verified = verifyContracts(sample, join(root, "verify"), opts.mutateVerified);
    counts.verifiedFunctions = verified.size;
    lap("verify");
    mkdirSync(join(root, "dafny"), { recursive: true });
    mkdirSync(join(root, "proofs", "dafny"), { recursive: true });
    writeFileSync(join(root, "dafny", "programs.dfy"), dafny.join("\n"));
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
      return { findings, ran: 0, counts, ms };
    }
    checkSafeIntegers(runtime);
    lap("compile");
    const node = await runInNode(
      root,
      translated.map((p) => p.source),
    );
    const sigs = readDafnyProgram(join(root, "dafny"));
    const compiled = runtime.module.__default as Record<string, (...a: unknown[]) => unknown>;
    const side = { sigs, runtime, compiled, node };
    for (const p of translated) {
      const fns: Array<[string, () => unknown[]]> = [[p.main, () => inputs(rng)]];
      if (p.contracts !== "") fns.push([`${p.main}l`, () => [safeInteger(rng), safeInteger(rng)]]);
      for (const [name, draw] of fns) {
        const f = fnOn(side, name);
        if (typeof f === "string") {
          findings.push({ program: p, input: null, problem: f });
          continue;
        }
        for (let k = 0; k < opts.inputsPerProgram; k++) {
          const input = draw();
          const problem = compare(sigs, runtime, f.sig.params, f.sig.result, f.node, f.dafny, input);
          if (problem === OUTSIDE) {
            counts.outside++;
            continue;
          }
          counts.ran++;
          if (problem !== null) {
            findings.push({ program: p, input, problem });
            break;
          }
        }
      }
    }
    lap("run");
    for (const p of sample) findings.push(...holdContracts(side, p, verified, rng, opts.inputsPerProgram * 4, counts));
    lap("contracts");
    return { findings, ran: counts.ran, counts, ms };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

type Sigs = ReturnType<typeof readDafnyProgram>;
type Sig = NonNullable<ReturnType<Sigs["signatures"]["get"]>>;
type Fn = (...a: unknown[]) => unknown;

/** Both sides of a batch: the compiled Dafny and its signatures, and the TypeScript as Node runs it. */
interface Sides {
  sigs: Sigs;
  runtime: DafnyRuntime;
  compiled: Record<string, Fn>;
  node: Record<string, Fn>;
}

/** A function of the batch on both sides, or why it is missing. */
function fnOn(s: Sides, name: string): { sig: Sig; dafny: Fn; node: Fn } | string {
  const sig = s.sigs.signatures.get(name);
  const dafny = s.compiled[name];
  const node = s.node[name];
  if (!sig || typeof dafny !== "function" || typeof node !== "function") return `no function ${name} on one side`;
  return { sig, dafny, node };
}

/** What the compiled Dafny throws when a value of code leaves the safe integers (compare reports it as OUTSIDE). */
class OutsideSafeIntegers extends Error {}
const OUTSIDE = "outside the safe integers";

/**
 * Makes every SafeInteger_<module> bound of the compiled program check its requires, which
 * compiled Dafny does not: a value of code past +-(2^53 - 1) throws OutsideSafeIntegers.
 */
function checkSafeIntegers(rt: DafnyRuntime): void {
  const fns = rt.module.__default as Record<string, Fn>;
  const max = new rt.BigNumber(MAX_SAFE);
  const min = new rt.BigNumber(-MAX_SAFE);
  // compiled functions are static methods of __default: not enumerable
  for (const name of Object.getOwnPropertyNames(fns).filter((n) => n.startsWith("SafeInteger_"))) {
    const bound = fns[name];
    fns[name] = (x: unknown) => {
      const v = x as { isGreaterThan(y: unknown): boolean; isLessThan(y: unknown): boolean };
      if (v.isGreaterThan(max) || v.isLessThan(min)) throw new OutsideSafeIntegers(String(x));
      return bound(x);
    };
  }
}

/**
 * Holds the verified contracted functions of `p` to Node: each input that meets the requires
 * (the compiled pre-condition, exact) must give a Node result that meets the ensures (the
 * compiled post-condition, exact, on Node's value).
 */
function holdContracts(
  s: Sides,
  p: Program,
  verified: Set<string>,
  rng: Rng,
  tries: number,
  counts: FuzzCounts,
): Finding[] {
  const cases: Array<{ fn: string; pre: string | null; post: string; draw: () => number[] }> = [
    { fn: `${p.main}c`, pre: null, post: `${p.main}cpost`, draw: () => [safeInteger(rng)] },
    {
      fn: `${p.main}l`,
      pre: `${p.main}lpre`,
      post: `${p.main}lpost`,
      draw: () => [safeInteger(rng), safeInteger(rng)],
    },
  ];
  const out: Finding[] = [];
  const big = (x: number) => new s.runtime.BigNumber(x);
  for (const c of cases) {
    if (!verified.has(c.fn)) continue;
    for (let k = 0; k < tries; k++) {
      const input = c.draw();
      if (c.pre !== null && s.compiled[c.pre](...input.map(big)) !== true) continue;
      const r = s.node[c.fn](...input);
      counts.contractChecks++;
      if (typeof r !== "number" || s.compiled[c.post](...input.map(big), big(r)) !== true) {
        out.push({
          program: p,
          input,
          problem: `${c.fn} verified, but Node's result ${String(r)} breaks its ensures ${c.post}`,
        });
        break;
      }
    }
  }
  return out;
}

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
    if (e instanceof OutsideSafeIntegers) return OUTSIDE;
    return `the compiled Dafny threw ${(e as Error).message}`;
  }
  return difference(sigs, rt, result, tsOut, dOut);
}
