// Loading the kernel as one program and generating every backend artifact from it.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { emitModule, programInfo } from "./dafny-emit.ts";
import { translateFile } from "./frontend.ts";
import type { Module } from "./ir.ts";

/** Where a project keeps its kernel sources, proof companions and generated Dafny. */
export interface Layout {
  root: string;
  kernelDir: string;
  companionDir: string;
  dafnyDir: string;
}

/** The standard layout under a project root. */
export function layout(root: string): Layout {
  return {
    root,
    kernelDir: join(root, "src", "kernel"),
    companionDir: join(root, "proofs", "dafny"),
    dafnyDir: join(root, "dafny"),
  };
}

/** Every kernel module, translated to the IR, in file-name order. */
export function loadKernel(l: Layout): { mods: Module[]; companions: Map<string, string> } {
  const files = readdirSync(l.kernelDir).filter((f) => f.endsWith(".ts")).sort();
  const companions = new Map<string, string>();
  const mods = files.map((f) => {
    const name = f.replace(/\.ts$/, "");
    const cpath = join(l.companionDir, `${name}.dfy`);
    const has = existsSync(cpath);
    if (has) companions.set(name, readFileSync(cpath, "utf8"));
    return translateFile(`src/kernel/${f}`, readFileSync(join(l.kernelDir, f), "utf8"), has);
  });
  return { mods, companions };
}

/** The generated Dafny files: file name under dafny/ -> text. Deterministic. */
export function generateDafny(l: Layout): Map<string, string> {
  const { mods, companions } = loadKernel(l);
  const info = programInfo(mods, companions);
  return new Map(mods.map((m) => [`${m.name}.dfy`, emitModule(m, info)]));
}
