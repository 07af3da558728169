// Runs a kernel module's TypeScript source in Node: transpiled by TypeScript (types erased,
// nothing else changed) and imported from a data: URL, so a probe runs as Node runs the kernel.

import ts from "typescript";

/** The module's exports, as Node evaluates the source. */
export async function runTs(src: string): Promise<Record<string, (...args: unknown[]) => unknown>> {
  const js = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return import(`data:text/javascript,${encodeURIComponent(js)}`);
}
