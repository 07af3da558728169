// The source files of src/ and the imports each declares, read from its syntax tree (import and
// export declarations, dynamic import()), so that paths inside strings do not count. Shared by the
// structure tests (layers, import cycles, file sizes); it checks nothing itself.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/** The repository's root. */
export const ROOT = resolve(import.meta.dirname, "../..");

/** A source file: its path from the repository root, with forward slashes, and its text. */
export interface SourceFile {
  /** path from the repository root, with forward slashes */
  readonly path: string;
  readonly text: string;
}

/** One import a file declares: its specifier, whether only types are imported, whether it is a dynamic import(). */
export interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

/** Every import `f` declares, in order. */
export function importsOf(f: SourceFile): Import[] {
  const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings !== undefined && ts.isNamedImports(c.namedBindings) ? c.namedBindings : undefined;
      const typeOnly =
        c !== undefined &&
        (c.isTypeOnly || (c.name === undefined && named !== undefined && named.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named =
        node.exportClause !== undefined && ts.isNamedExports(node.exportClause) ? node.exportClause : undefined;
      const typeOnly = node.isTypeOnly || named?.elements.every((e) => e.isTypeOnly) === true;
      out.push({ specifier: node.moduleSpecifier.text, typeOnly, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every .ts file under `dir`, with its text. */
export function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    if (!e.name.endsWith(".ts")) return [];
    return [{ path: relative(ROOT, p).split("\\").join("/"), text: readFileSync(p, "utf8") }];
  });
}
