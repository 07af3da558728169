// Loading the kernel: where a project keeps its kernel sources, proof companions and
// generated Dafny (Layout), which files are the kernel, and each of them through the frontend
// into its IR module. It resolves nothing across files (resolve/ does) and prints nothing.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Module, TranslateError } from "../ir/ir.ts";
import { translateFiles } from "./frontend.ts";

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

/**
 * The kernel's source files (names under src/kernel), in file-name order. Every file there is
 * a translated source: one in a subfolder or with another extension would never be translated.
 */
export function kernelFiles(l: Layout): string[] {
  const all = readdirSync(l.kernelDir, { recursive: true, encoding: "utf8" }).sort();
  const isSource = (f: string): boolean => /^[^/\\]+\.ts$/.test(f) && !f.endsWith(".d.ts");
  for (const f of all) {
    if (isSource(f) || (statSync(join(l.kernelDir, f)).isDirectory() && all.some((g) => g.startsWith(`${f}/`))))
      continue;
    throw new TranslateError(
      { file: `src/kernel/${f}`, line: 1, col: 1 },
      "not a kernel source: the kernel is the .ts files directly in src/kernel, each one translated; move this file out or make it one of them",
    );
  }
  return all.filter(isSource);
}

/** Every kernel module, translated to the IR, in file-name order. */
export function loadKernel(l: Layout): { mods: Module[]; companions: Map<string, string> } {
  const files = kernelFiles(l);
  const companions = new Map<string, string>();
  const sources = files.map((f) => {
    const name = f.replace(/\.ts$/, "");
    const cpath = join(l.companionDir, `${name}.dfy`);
    const hasCompanion = existsSync(cpath);
    if (hasCompanion) companions.set(name, readFileSync(cpath, "utf8"));
    return { relPath: `src/kernel/${f}`, text: readFileSync(join(l.kernelDir, f), "utf8"), hasCompanion };
  });
  return { mods: translateFiles(sources), companions };
}
