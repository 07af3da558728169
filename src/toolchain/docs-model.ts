// Stage: the documentation model. Input: the kernel's sources, translated first (so the
// docs describe exactly what the prover checks, and fail as it does). Output: ModuleDoc per
// module: each exported verified function's signature as written, its doc comment, its
// requires and ensures in the form a reader sees, the module's exported types and the laws
// its header names. It writes and renders nothing (docs-emit.ts does).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { type Annotation, leadingAnnotations } from "./annotations.ts";
import { isProofModel, withoutModelTag } from "./models.ts";
import { type Layout, loadKernel } from "./program.ts";

/** One exported, verified kernel function as the documentation shows it. */
export interface FnDoc {
  name: string;
  /** type parameters as written ("<T>"), or "" */
  tparams: string;
  /** the parameters as written, with their types */
  typedParams: string[];
  returns: string;
  /** the function's own doc comment, without the comment markers */
  summary: string;
  requires: string[];
  ensures: string[];
  /** a proof-only model (models.ts): proven, never called by the engine */
  model: boolean;
  /** `//@ spec`: for specifications only, so not in the `safecut/kernel` entry */
  specOnly: boolean;
}

/** One kernel module: its verified functions, exported types and the laws its header names. */
export interface ModuleDoc {
  name: string;
  source: string;
  laws: string[];
  /** proof companion under proofs/dafny, where the capitalised predicates are defined */
  companion: string | null;
  fns: FnDoc[];
  types: string[];
}

/** Law names (L1, L2-L6) in a module's opening comment, in order of first mention. */
function headerLaws(sf: ts.SourceFile): string[] {
  const first = sf.statements[0];
  const header = sf.text.slice(0, first === undefined ? sf.text.length : first.getStart(sf));
  const comments = header
    .split("\n")
    .filter((l) => /^\s*\/\/(?!@)/.test(l))
    .join("\n");
  return [...new Set(comments.match(/\bL\d+(?:-L\d+)?\b/g) ?? [])];
}

/** The text of the last `/** ... *\/` comment directly above a node, markers removed. */
function docComment(sf: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.getFullStart()) ?? [];
  const docs = ranges.filter((r) => sf.text.startsWith("/**", r.pos));
  const last = docs[docs.length - 1];
  if (last === undefined) return "";
  return sf.text
    .slice(last.pos + 3, last.end - 2)
    .split("\n")
    .map((l) => l.replace(/^\s*\*\s?/, "").trimEnd())
    .join("\n")
    .trim();
}

/** An annotation's specification in the form a reader sees: `\result` is the function's result. */
function readable(a: Annotation): string {
  return a.text
    .replace(/\\result\b/g, "result")
    .replace(/\s+/g, " ")
    .trim();
}

function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function fnDoc(sf: ts.SourceFile, fd: ts.FunctionDeclaration, ann: readonly Annotation[]): FnDoc {
  const requires: string[] = [];
  const ensures: string[] = [];
  for (const a of ann) {
    if (a.kind === "requires") requires.push(readable(a));
    else if (a.kind === "ensures") ensures.push(readable(a));
    else if (a.kind === "type") {
      // `//@ type x nat`: x (a parameter, or \result) is a natural number
      const [what] = readable(a).split(/\s+/);
      (what === "result" ? ensures : requires).push(`${what} >= 0 (a natural number)`);
    }
  }
  return {
    name: fd.name?.text ?? "",
    tparams: fd.typeParameters === undefined ? "" : `<${fd.typeParameters.map((t) => t.getText(sf)).join(", ")}>`,
    typedParams: fd.parameters.map((p) => p.getText(sf).replace(/\s+/g, " ")),
    returns: fd.type?.getText(sf) ?? "void",
    summary: withoutModelTag(docComment(sf, fd)),
    requires,
    ensures,
    model: isProofModel(fd),
    specOnly: ann.some((a) => a.kind === "spec"),
  };
}

/** Every kernel module with its exported verified functions and exported types, in file order. */
export function kernelModules(l: Layout): ModuleDoc[] {
  // translating first makes the docs describe exactly what the prover checks (and fail as it does)
  const { mods } = loadKernel(l);
  return mods.map((m) => {
    const sf = ts.createSourceFile(
      m.source,
      readFileSync(join(l.root, m.source), "utf8"),
      ts.ScriptTarget.ES2022,
      true,
      ts.ScriptKind.TS,
    );
    const fns: FnDoc[] = [];
    const types: string[] = [];
    for (const st of sf.statements) {
      if (!isExported(st)) continue;
      if (ts.isFunctionDeclaration(st) && st.name !== undefined) {
        const ann = leadingAnnotations(sf, st);
        // an `extern` function is trusted, not proven: it stays out of the verified entry
        if (
          ann.some((a) => a.kind === "verify" || a.kind === "spec") &&
          m.fns.some((f) => f.name === st.name?.text && !f.extern)
        )
          fns.push(fnDoc(sf, st, ann));
      } else if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name !== undefined) {
        types.push(st.name.text);
      }
    }
    return { name: m.name, source: m.source, laws: headerLaws(sf), companion: m.companion, fns, types };
  });
}
