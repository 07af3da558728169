// The translator as one program: the kernel loaded through the frontend (frontend/load.ts),
// then the program table, resolution and printing (see translateToDafny).

import { emitModule } from "./emit/dafny-emit.ts";
import { dafnyName } from "./emit/dafny-names.ts";
import { type Layout, loadKernel } from "./frontend/load.ts";
import type { Module } from "./ir/ir.ts";
import { programInfo, rejectCodeRecursion } from "./resolve/program-info.ts";
import { resolveModule } from "./resolve/resolve.ts";

/**
 * The Dafny text of each module (base name -> text), through the stages after the frontend:
 * the program table, resolution with Dafny's spelling of names, then printing.
 */
export function translateToDafny(mods: Module[], companions: Map<string, string>): Map<string, string> {
  const info = programInfo(mods, companions);
  const resolved = mods.map((m) => resolveModule(m, info, dafnyName));
  rejectCodeRecursion(info);
  return new Map(resolved.map((m) => [m.name, emitModule(m)]));
}

/** The generated Dafny files: file name under dafny/ -> text. Deterministic. */
export function generateDafny(l: Layout): Map<string, string> {
  const { mods, companions } = loadKernel(l);
  return new Map([...translateToDafny(mods, companions)].map(([name, text]) => [`${name}.dfy`, text]));
}
