// No import circle in src/: a module never reaches itself through its static imports (value or
// type-only, import or re-export). A dynamic import() is a lazy edge, loaded when called, and is
// left out: the CLI's lazy loading (kept so that --help loads neither zod nor gpt-tokenizer) uses it.
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, ROOT, type SourceFile, sourceFiles } from "./source-imports.ts";

/** The static import graph of `files`: each path to the repository paths it imports. */
function importGraph(files: readonly SourceFile[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const to = importsOf(f)
      .filter((imp) => !imp.dynamic && imp.specifier.startsWith("."))
      .map((imp) => posix.normalize(posix.join(posix.dirname(f.path), imp.specifier)));
    graph.set(f.path, to);
  }
  return graph;
}

/**
 * The import circles of a graph: its strongly connected components of more than one module (or a
 * module importing itself), each as its sorted paths (Tarjan's algorithm, iterative).
 */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const edges = (graph.get(top.node) ?? []).filter((t) => graph.has(t));
      if (top.edge < edges.length) {
        const to = edges[top.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let m: string;
        do {
          m = stack.pop() as string;
          onStack.delete(m);
          component.push(m);
        } while (m !== top.node);
        const selfLoop = (graph.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found;
}

describe("import circles", () => {
  it("no module in src/ reaches itself through its static imports", () => {
    const files = sourceFiles(join(ROOT, "src"));
    expect(files.length).toBeGreaterThan(100);
    expect(circles(importGraph(files))).toEqual([]);
  });

  it("finds a circle through a type-only import and a re-export, and leaves a dynamic import() out", () => {
    const file = (path: string, text: string): SourceFile => ({ path, text });
    const graph = importGraph([
      file("src/cli/a.ts", 'import { b } from "./b.ts";'),
      file("src/cli/b.ts", 'import type { A } from "./a.ts";'),
      file("src/x/c.ts", 'export { d } from "./d.ts";'),
      file("src/x/d.ts", 'export * from "../x/e.ts";'),
      file("src/x/e.ts", 'import { c } from "./c.ts";'),
      file("src/y/f.ts", 'import { g } from "./g.ts";'),
      file("src/y/g.ts", 'const f = await import("./f.ts");'),
      file("src/y/h.ts", 'import { h } from "./h.ts";'),
    ]);
    expect(circles(graph)).toEqual([
      ["src/cli/a.ts", "src/cli/b.ts"],
      ["src/x/c.ts", "src/x/d.ts", "src/x/e.ts"],
      ["src/y/h.ts"],
    ]);
  });
});
