// Every setting shows its documentation on hover: src/model/setting-docs.ts is the one generated
// from the table of settings (scripts/readme-settings.ts), and in the emitted declarations
// (dist/index.d.ts, what a user's editor reads) every key of the public ConfigInput and Config
// types carries a doc comment, the setting's help line first.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { SETTING_DOCS_FILE, settingDocsSource } from "../../scripts/readme-settings.ts";
import { settingRows } from "../../src/model/settings-table.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** Each property of an exported type of the built package, with the doc comment an editor shows for it. */
function hoverDocs(typeName: string): Map<string, string> {
  const entry = join(ROOT, "dist/index.d.ts");
  const program = ts.createProgram([entry], { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  if (file === undefined) throw new Error("build first: npm run build");
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (moduleSymbol === undefined) throw new Error("dist/index.d.ts is not a module");
  const exported = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === typeName);
  if (exported === undefined) throw new Error(`safecut exports no ${typeName}`);
  const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(exported));
  return new Map(
    type.getProperties().map((p) => [p.name, ts.displayPartsToString(p.getDocumentationComment(checker))] as const),
  );
}

describe("the settings' doc comments", () => {
  it("are the ones generated from the table (regenerate: npx tsx scripts/readme-settings.ts)", () => {
    expect(readFileSync(join(ROOT, SETTING_DOCS_FILE), "utf8")).toBe(settingDocsSource());
  });

  it.each(["ConfigInput", "Config"])("reach every key of %s in the emitted .d.ts", (typeName) => {
    const docs = hoverDocs(typeName);
    expect([...docs.keys()].sort()).toEqual(
      settingRows()
        .map(([name]) => name)
        .sort(),
    );
    for (const [name, s] of settingRows()) {
      const doc = docs.get(name) ?? "";
      expect(doc, name).not.toBe("");
      expect(doc.startsWith(s.help), `${name}: ${doc}`).toBe(true);
    }
  });
});
