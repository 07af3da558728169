// The layering of src/ (docs/ARCHITECTURE.md, "Layers"): which folder may import which, and the
// kernel's one guarded door. Imports are read from each file's syntax tree (import and export
// declarations, dynamic import()), so kernel paths inside generated-code strings do not count.
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { isProofModel } from "../../src/toolchain/frontend/models.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * The arrows of the layer diagram in docs/ARCHITECTURE.md: the layers each layer (folder under
 * src/, or the main entry index.ts) builds on directly. A layer may import every layer its
 * arrows reach.
 */
const BUILDS_ON: Readonly<Record<string, readonly string[]>> = {
  kernel: [],
  reference: ["kernel"],
  model: ["kernel"],
  engine: ["model"],
  providers: ["model"],
  adapters: ["model"],
  library: ["engine", "providers", "adapters"],
  session: ["library"],
  cli: ["library", "session"],
  // the package's entries re-export the library and the sessions; the CLI is the bin's, never an entry's
  entries: ["library", "session"],
  "index.ts": ["library", "session"],
  toolchain: [],
};

/**
 * The toolchain's stages (docs/ARCHITECTURE.md, "The translator, stage by stage"): the folders
 * under src/toolchain/ (and its two top files) and the stages each builds on directly.
 */
const TOOLCHAIN_STAGES: Readonly<Record<string, readonly string[]>> = {
  ir: [],
  frontend: ["ir"],
  resolve: ["ir"],
  emit: ["frontend"],
  "program.ts": ["emit", "resolve"],
  check: ["program.ts"],
  "cli.ts": ["check"],
};

/** The layers reachable from `layer` along the arrows of `arrows`. */
function reachable(layer: string, arrows: Readonly<Record<string, readonly string[]>> = BUILDS_ON): Set<string> {
  const seen = new Set<string>();
  const todo = [...(arrows[layer] ?? [])];
  while (todo.length > 0) {
    const next = todo.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(arrows[next] ?? []));
  }
  return seen;
}

/**
 * The only modules that may import the kernel's code; every other import of it is `import type`
 * (the reference implementations too: their independence from the kernel's code is the point).
 */
const KERNEL_DOORS = new Set([
  // the gate, split by stage; kernel-gate.ts re-exports the three
  "src/engine/boundary/kernel-gate-trigger.ts",
  "src/engine/boundary/kernel-gate-plan.ts",
  "src/engine/boundary/kernel-gate-commit.ts",
  // generated from the kernel's //@ requires; the gate calls its guards
  "src/engine/boundary/kernel-requires.ts",
  "src/entries/kernel.ts",
]);

/**
 * The engine's stages (folders under src/engine/) and the stages each builds on, one way: the
 * kernel gate and the checks beside it (`boundary`) are the bottom, importing the kernel, the
 * model and each other, never the store or the run that call them (the gate is stateless and
 * knows the kernel's types, not the store's); the store and the summarize step build on the
 * boundary, the run on all of them (docs/ARCHITECTURE.md, "Layers").
 */
const ENGINE_BUILDS_ON: Readonly<Record<string, readonly string[]>> = {
  boundary: [],
  store: ["boundary"],
  summarize: ["boundary"],
  "tool-output": ["boundary"],
  run: ["store", "summarize", "boundary"],
  memory: [],
};

/** The engine stage of a path under src/engine/, or undefined for any other path. */
function stageOf(path: string): string | undefined {
  const parts = path.split("/");
  return parts[1] === "engine" ? parts[2] : undefined;
}

interface SourceFile {
  /** path from the repository root, with forward slashes */
  readonly path: string;
  readonly text: string;
}

interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

function importsOf(f: SourceFile): Import[] {
  const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings !== undefined && ts.isNamedImports(c.namedBindings) ? c.namedBindings : undefined;
      const typeOnly =
        c !== undefined &&
        (c.isTypeOnly || (c.name === undefined && named !== undefined && named.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named =
        node.exportClause !== undefined && ts.isNamedExports(node.exportClause) ? node.exportClause : undefined;
      const typeOnly = node.isTypeOnly || named?.elements.every((e) => e.isTypeOnly) === true;
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The layer of a path under src/: its first folder, or the file's name for files directly in src/. */
function layerOf(path: string): string {
  return path.split("/")[1];
}

/** Every import that breaks the layering, as "from -> to: why". */
function violations(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    const from = layerOf(f.path);
    if (BUILDS_ON[from] === undefined) {
      found.push(`${f.path}: layer "${from}" is not in BUILDS_ON (add it, with the layers it builds on)`);
      continue;
    }
    const allowed = reachable(from);
    for (const imp of importsOf(f)) {
      if (!imp.specifier.startsWith(".")) continue; // packages and node: built-ins
      const target = posix.normalize(posix.join(posix.dirname(f.path), imp.specifier));
      if (!target.startsWith("src/")) {
        found.push(`${f.path} -> ${target}: imports from outside src/`);
        continue;
      }
      const to = layerOf(target);
      if (to !== from && !allowed.has(to)) found.push(`${f.path} -> ${target}: ${from} may not import ${to}`);
      if (to === "kernel" && from !== "kernel" && !imp.typeOnly && !KERNEL_DOORS.has(f.path))
        found.push(`${f.path} -> ${target}: the kernel's code is called only through engine/boundary/kernel-gate.ts`);
      const [fromStage, toStage] = [stageOf(f.path), stageOf(target)];
      if (fromStage !== undefined && toStage !== undefined && fromStage !== toStage) {
        const below = ENGINE_BUILDS_ON[fromStage];
        if (below === undefined)
          found.push(
            `${f.path}: engine stage "${fromStage}" is not in ENGINE_BUILDS_ON (add it, with the stages it builds on)`,
          );
        else if (!below.includes(toStage))
          found.push(
            `${f.path} -> ${target}: engine/${fromStage} may not import engine/${toStage} (the engine's stages point one way)`,
          );
      }
    }
  }
  return found;
}

/** The stage of a path under src/toolchain/: its folder there, or the file's name for its top files. */
function toolchainStageOf(path: string): string {
  return path.split("/")[2];
}

/** Every import inside src/toolchain/ that runs against its stages, as "from -> to: why". */
function stageViolations(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    if (!f.path.startsWith("src/toolchain/")) continue;
    const from = toolchainStageOf(f.path);
    if (TOOLCHAIN_STAGES[from] === undefined) {
      found.push(`${f.path}: stage "${from}" is not in TOOLCHAIN_STAGES (add it, with the stages it builds on)`);
      continue;
    }
    const allowed = reachable(from, TOOLCHAIN_STAGES);
    for (const imp of importsOf(f)) {
      if (!imp.specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(f.path), imp.specifier));
      if (!target.startsWith("src/toolchain/")) continue;
      const to = toolchainStageOf(target);
      if (to !== from && !allowed.has(to)) found.push(`${f.path} -> ${target}: ${from} may not import ${to}`);
    }
  }
  return found;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    if (!e.name.endsWith(".ts")) return [];
    return [{ path: relative(ROOT, p).split("\\").join("/"), text: readFileSync(p, "utf8") }];
  });
}

describe("layers", () => {
  it("every import in src/ follows the layering", () => {
    const files = sourceFiles(join(ROOT, "src"));
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  it("reports an import against the direction, the kernel called around its door, and an unknown folder", () => {
    const file = (path: string, text: string): SourceFile => ({ path, text });
    expect(
      violations([
        file("src/engine/run/x.ts", 'import { summarizerFromConfig } from "../../providers/from-config.ts";'),
        file("src/engine/run/y.ts", 'export { runCli } from "../../cli/main.ts";'),
        file("src/engine/run/z.ts", 'const a = await import("../../adapters/detect.ts");'),
        file("src/providers/x.ts", 'import type { Plan } from "../engine/run/plan.ts";'),
        file("src/providers/y.ts", 'import { x } from "../adapters/detect.ts";'),
        file("src/model/x.ts", 'import { ConversationStore } from "../engine/store/store.ts";'),
        file("src/engine/run/w.ts", 'import { splice, type Stretch } from "../../kernel/splice.ts";'),
        file("src/reference/x.ts", 'import { splice } from "../kernel/splice.ts";'),
        file("src/extras/x.ts", 'import { a } from "../model/json.ts";'),
        file("src/engine/boundary/x.ts", 'import type { LiveViews } from "../store/views.ts";'),
        file("src/engine/store/x.ts", 'import type { CompactOptions } from "../run/compact.ts";'),
        file("src/engine/summarize/x.ts", 'import { ConversationStore } from "../store/store.ts";'),
        file("src/adapters/x.ts", 'import type { CompactionReport } from "../engine/run/report.ts";'),
        file("src/adapters/y.ts", 'import { compactParsed } from "../library/compact-messages.ts";'),
        file("src/index.ts", 'export { runCli } from "./cli/main.ts";'),
      ]),
    ).toEqual([
      "src/engine/run/x.ts -> src/providers/from-config.ts: engine may not import providers",
      "src/engine/run/y.ts -> src/cli/main.ts: engine may not import cli",
      "src/engine/run/z.ts -> src/adapters/detect.ts: engine may not import adapters",
      "src/providers/x.ts -> src/engine/run/plan.ts: providers may not import engine",
      "src/providers/y.ts -> src/adapters/detect.ts: providers may not import adapters",
      "src/model/x.ts -> src/engine/store/store.ts: model may not import engine",
      "src/engine/run/w.ts -> src/kernel/splice.ts: the kernel's code is called only through engine/boundary/kernel-gate.ts",
      "src/reference/x.ts -> src/kernel/splice.ts: the kernel's code is called only through engine/boundary/kernel-gate.ts",
      'src/extras/x.ts: layer "extras" is not in BUILDS_ON (add it, with the layers it builds on)',
      "src/engine/boundary/x.ts -> src/engine/store/views.ts: engine/boundary may not import engine/store (the engine's stages point one way)",
      "src/engine/store/x.ts -> src/engine/run/compact.ts: engine/store may not import engine/run (the engine's stages point one way)",
      "src/engine/summarize/x.ts -> src/engine/store/store.ts: engine/summarize may not import engine/store (the engine's stages point one way)",
      "src/adapters/x.ts -> src/engine/run/report.ts: adapters may not import engine",
      "src/adapters/y.ts -> src/library/compact-messages.ts: adapters may not import library",
      "src/index.ts -> src/cli/main.ts: index.ts may not import cli",
    ]);
  });

  it("reads type-only imports as types, and a kernel path in a string as no import", () => {
    expect(
      violations([
        { path: "src/engine/run/v.ts", text: 'import type { Stretch } from "../../kernel/stretch.ts";' },
        { path: "src/engine/run/u.ts", text: 'import { type Role } from "../../kernel/roles.ts";' },
        { path: "src/toolchain/x.ts", text: 'const line = `import * as m from "../kernel/${name}.ts";`;' },
      ]),
    ).toEqual([]);
  });
});

/** Every file of src/ that `entry` loads, following its imports that are not type-only (what a bundler keeps). */
function loadedBy(entry: string, files: readonly SourceFile[]): Set<string> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const path = todo.pop() as string;
    const f = byPath.get(path);
    if (f === undefined || seen.has(path)) continue;
    seen.add(path);
    for (const imp of importsOf(f))
      if (imp.specifier.startsWith(".") && !imp.typeOnly)
        todo.push(posix.normalize(posix.join(posix.dirname(path), imp.specifier)));
  }
  return seen;
}

describe("the entries", () => {
  it("the main entry loads no file of the CLI", () => {
    const loaded = [...loadedBy("src/index.ts", sourceFiles(join(ROOT, "src")))];
    expect(loaded).toContain("src/library/compact-messages.ts");
    expect(loaded.filter((p) => p.startsWith("src/cli/"))).toEqual([]);
  });

  it("safecut/adapters loads the adapters and the model, never the engine, the library or the providers", () => {
    const files = sourceFiles(join(ROOT, "src"));
    const loaded = [...loadedBy("src/entries/adapters.ts", files)];
    expect(loaded).toContain("src/adapters/conversation-file.ts");
    expect(loaded.filter((p) => !/^src\/(adapters|model|entries)\//.test(p))).toEqual([]);
  });

  it("notices an adapter that loads the engine", () => {
    const files = [
      { path: "src/entries/adapters.ts", text: 'export { a } from "../adapters/a.ts";' },
      { path: "src/adapters/a.ts", text: 'import { b } from "./b.ts";\nexport const a = b;' },
      { path: "src/adapters/b.ts", text: 'import { parseConfig } from "../engine/boundary/config-rules.ts";' },
      { path: "src/engine/boundary/config-rules.ts", text: "" },
    ];
    expect([...loadedBy("src/entries/adapters.ts", files)]).toContain("src/engine/boundary/config-rules.ts");
  });
});

describe("toolchain stages", () => {
  it("every import in src/toolchain/ follows its stages", () => {
    const files = sourceFiles(join(ROOT, "src", "toolchain"));
    expect(files.length).toBeGreaterThan(30);
    expect(stageViolations(files)).toEqual([]);
  });

  it("reports an earlier stage importing a later one, and a file outside every stage", () => {
    expect(
      stageViolations([
        { path: "src/toolchain/ir/x.ts", text: 'import { translateFiles } from "../frontend/frontend.ts";' },
        { path: "src/toolchain/frontend/x.ts", text: 'import { emitModule } from "../emit/dafny-emit.ts";' },
        { path: "src/toolchain/emit/x.ts", text: 'import { checkDafny } from "../check/check.ts";' },
        { path: "src/toolchain/check/x.ts", text: 'import type { Expr } from "../ir/ir.ts";' },
        { path: "src/toolchain/walk.ts", text: "" },
      ]),
    ).toEqual([
      "src/toolchain/ir/x.ts -> src/toolchain/frontend/frontend.ts: ir may not import frontend",
      "src/toolchain/frontend/x.ts -> src/toolchain/emit/dafny-emit.ts: frontend may not import emit",
      "src/toolchain/emit/x.ts -> src/toolchain/check/check.ts: emit may not import check",
      'src/toolchain/walk.ts: stage "walk.ts" is not in TOOLCHAIN_STAGES (add it, with the stages it builds on)',
    ]);
  });
});

describe("proof-only models", () => {
  it("the kernel marks its models (@model), and the engine's door imports none of them", () => {
    const models: string[] = [];
    for (const f of sourceFiles(join(ROOT, "src", "kernel"))) {
      const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
      for (const st of sf.statements)
        if (ts.isFunctionDeclaration(st) && st.name !== undefined && isProofModel(st)) models.push(st.name.text);
    }
    expect(models.sort()).toEqual([
      "clearPinned",
      "compactRolesOnce",
      "compactUntilStable",
      "lowWaterRun",
      "raceTwoPlans",
      "selectAfterSplice",
      "selectPinned",
    ]);
    const gate = sourceFiles(join(ROOT, "src", "engine", "boundary")).filter(
      (f) => !f.path.endsWith("kernel-requires.ts"),
    );
    const imported = gate.flatMap((f) => {
      const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
      return sf.statements.flatMap((st) =>
        ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)
          ? st.importClause.namedBindings.elements.map((e) => e.name.text)
          : [],
      );
    });
    expect(imported.filter((n) => models.includes(n))).toEqual([]);
  });
});
