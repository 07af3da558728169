// Test harness for the translator: translates in-memory kernel modules exactly as
// program.ts does for files on disk (translateFiles, then translateToDafny).

import { translateFiles } from "../../src/toolchain/frontend/frontend.ts";
import { TranslateError } from "../../src/toolchain/ir/ir.ts";
import { translateToDafny } from "../../src/toolchain/program.ts";

/** Kernel modules by base name ("cutpoint") -> TypeScript source. */
export type Sources = Record<string, string>;

/** Translates every module; companions (base name -> Dafny text) mark modules with a proof companion. */
export function translate(sources: Sources, companions: Record<string, string> = {}): Map<string, string> {
  const names = Object.keys(sources).sort();
  const mods = translateFiles(
    names.map((n) => ({ relPath: `src/kernel/${n}.ts`, text: sources[n], hasCompanion: n in companions })),
  );
  return translateToDafny(mods, new Map(Object.entries(companions)));
}

/** The message of the TranslateError that translating throws; fails when it does not throw. */
export function translateError(sources: Sources, companions: Record<string, string> = {}): string {
  try {
    translate(sources, companions);
  } catch (e) {
    if (e instanceof TranslateError) return e.message;
    throw e;
  }
  throw new Error("expected a TranslateError, but the translation succeeded");
}
