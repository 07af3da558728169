// Names as TypeScript resolves them. Input: every kernel file's text, as one TypeScript
// program (in memory, no default library: only the kernel's own declarations matter). Output:
// for a name at a place in a file, whether TypeScript binds it to a variable there (a
// parameter or local) or to something else (an enum, a type, nothing), asked of the
// TypeScript checker's own symbol resolution, in bodies and in `//@` specifications alike.
// It does not type-check (kernel-types.ts does) or translate.

import ts from "typescript";

/** One kernel file: how errors and headers name it (src/kernel/m.ts) and its text. */
export interface KernelSource {
  relPath: string;
  text: string;
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  noEmit: true,
  noLib: true,
  types: [],
};

/** The kernel's files as one TypeScript program, read from memory; each file's syntax tree is the one the frontend reads. */
export function kernelProgram(sources: readonly KernelSource[]): ts.Program {
  const byPath = new Map(sources.map((s) => [s.relPath, s.text]));
  const host: ts.CompilerHost = {
    // no current directory: file names stay as given, so positions read src/kernel/m.ts:line:col
    getSourceFile: (name, target) => {
      const text = byPath.get(name);
      return text === undefined ? undefined : ts.createSourceFile(name, text, target, true, ts.ScriptKind.TS);
    },
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => {},
    getCurrentDirectory: () => "",
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (f) => byPath.has(f),
    readFile: (f) => byPath.get(f),
    directoryExists: () => true,
    getDirectories: () => [],
  };
  return ts.createProgram([...byPath.keys()], OPTIONS, host);
}

/** Whether a symbol is a variable (a parameter or local): an imported name stands for what it imports. */
function isVariableSymbol(checker: ts.TypeChecker, s: ts.Symbol | undefined): boolean {
  if (s === undefined) return false;
  const t = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  return (t.flags & ts.SymbolFlags.Variable) !== 0;
}

/** Whether the identifier `id` of a body is a variable, as TypeScript binds it (getSymbolAtLocation). */
export function isVariableAt(checker: ts.TypeChecker, id: ts.Identifier): boolean {
  return isVariableSymbol(checker, checker.getSymbolAtLocation(id));
}

/**
 * Whether `name` is a variable in a specification read at `location`, as if the specification
 * were code there (TypeScript's resolveName over values). `hidden`: declarations inside it are
 * not in scope (a function's body, for its requires and ensures, which see its parameters
 * only). A local in scope but declared after `offset` would be used before its declaration,
 * which TypeScript reports: `early` receives its declaration.
 */
export function isVariableIn(
  checker: ts.TypeChecker,
  name: string,
  location: ts.Node,
  hidden: ts.Node | null,
  offset: number,
  early: (declaration: ts.Declaration) => never,
): boolean {
  let s = checker.resolveName(name, location, ts.SymbolFlags.Value, false);
  const inside = (d: ts.Declaration | undefined): boolean =>
    hidden !== null && d !== undefined && d.pos >= hidden.pos && d.end <= hidden.end;
  if (s !== undefined && inside(s.valueDeclaration)) {
    s = checker.resolveName(name, location.getSourceFile(), ts.SymbolFlags.Value, false);
  }
  const d = s?.valueDeclaration;
  if (d !== undefined && ts.isVariableDeclaration(d) && d.getStart() > offset) early(d);
  return isVariableSymbol(checker, s);
}
