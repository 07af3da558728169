// The translator as one program: the kernel loaded through the frontend (frontend/load.ts),
// then the program table, resolution and printing (see translateToDafny).

import { emitModuleMapped, type Origin } from "./emit/dafny-emit.ts";
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
  return new Map([...translateMapped(mods, companions)].map(([name, m]) => [name, m.text]));
}

/** translateToDafny, with where each proof obligation of the text comes from in the TypeScript. */
function translateMapped(mods: Module[], companions: Map<string, string>): Map<string, Generated> {
  const info = programInfo(mods, companions);
  const resolved = mods.map((m) => resolveModule(m, info, dafnyName));
  rejectCodeRecursion(info);
  return new Map(resolved.map((m) => [m.name, emitModuleMapped(m)]));
}

/** One generated Dafny file: its text and the TypeScript origin of its safe-integer obligations. */
export interface Generated {
  text: string;
  origins: Origin[];
}

/** The generated Dafny files, with their origins: file name under dafny/ -> file. Deterministic. */
export function generateDafny(l: Layout): Map<string, Generated> {
  const { mods, companions } = loadKernel(l);
  return new Map([...translateMapped(mods, companions)].map(([name, g]) => [`${name}.dfy`, g]));
}
