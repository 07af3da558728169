// The package's public surface is the one list in src/entries/surface.ts: package.json's
// `exports`, the names each entry file exports and README's entry table all match it.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type EntrySurface, SURFACE } from "../../src/entries/surface.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** The names a module exports, read from its syntax: export declarations and exported declarations. */
function exportedNames(text: string): string[] {
  const sf = ts.createSourceFile("entry.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      if (st.exportClause === undefined || !ts.isNamedExports(st.exportClause))
        throw new Error("an entry re-exports with `export *`: name what it exports");
      for (const e of st.exportClause.elements) names.push(e.name.text);
      continue;
    }
    const exported =
      ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) names.push((d.name as ts.Identifier).text);
    else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isClassDeclaration(st)) &&
      st.name !== undefined
    )
      names.push(st.name.text);
  }
  return [...new Set(names)].sort();
}

/** The `import` column of README's entry table (the one headed `| import | what it holds |`). */
function readmeEntries(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf("| import | what it holds |");
  if (at < 0) throw new Error("README.md: no entry table");
  const rows: string[] = [];
  for (const line of readme.slice(at).split("\n").slice(2)) {
    const m = /^\| `([^`]+)` \|/.exec(line);
    if (m === null) break;
    rows.push(m[1]);
  }
  return rows;
}

const entries = Object.entries(SURFACE) as [string, EntrySurface][];

describe("the public surface (src/entries/surface.ts)", () => {
  it("is package.json's exports, each pointing at its entry file's build", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    const exported = Object.entries(pkg.exports).filter(([k]) => k !== "./package.json");
    expect(exported.map(([k]) => (k === "." ? "safecut" : `safecut/${k.slice(2)}`)).sort()).toEqual(
      entries.map(([k]) => k).sort(),
    );
    for (const [k, target] of exported) {
      const file = SURFACE[k === "." ? "safecut" : `safecut/${k.slice(2)}`].file;
      const built = `./dist/${file.slice("src/".length, -".ts".length)}`;
      expect(target, k).toEqual({ types: `${built}.d.ts`, default: `${built}.js` });
    }
  });

  it.each(entries.filter(([, e]) => e.names !== undefined))("%s exports exactly the listed names", (_, e) => {
    expect(exportedNames(readFileSync(join(ROOT, e.file), "utf8"))).toEqual([...(e.names ?? [])].sort());
  });

  it("README's entry table lists every entry, in the list's order", () => {
    expect(readmeEntries()).toEqual(entries.map(([k]) => k));
  });

  it("reads an entry's names from its syntax, and refuses `export *`", () => {
    expect(
      exportedNames(
        'export { a, type B } from "./x.ts";\nexport type { C } from "./y.ts";\nexport function d() {}\nexport const e = 1;\nconst f = 2;',
      ),
    ).toEqual(["B", "C", "a", "d", "e"]);
    expect(() => exportedNames('export * from "./x.ts";')).toThrow(/export \*/);
  });
});
