// The TypeScript type checker over the kernel alone: a kernel that does not type-check is
// never translated (the translator reads syntax and trusts the types tsc would reject).

import { join, relative } from "node:path";
import ts from "typescript";
import type { Layout } from "./load.ts";

/** The compiler options of the project's tsconfig.json that matter to the kernel (it imports nothing outside src/kernel). */
const KERNEL_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noImplicitOverride: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

/** Type-checks the kernel's files (names under src/kernel); returns one "file:line:col: message" per diagnostic. */
export function typecheckKernel(l: Layout, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((f) => join(l.kernelDir, f)),
    KERNEL_OPTIONS,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return `error TS${d.code}: ${text}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${relative(l.root, d.file.fileName)}:${line + 1}:${character + 1}: error TS${d.code}: ${text}`;
  });
}
