// What the source says about itself beyond the IR, read while the frontend has the parsed file:
// a function's signature, doc comment and contract as written, a module's law names and
// exported types. The documentation (emit/docs-model.ts) reads these from the frontend's
// result, so it never parses the kernel again.

import ts from "typescript";
import type { FnWritten } from "../ir/ir.ts";
import type { Annotation } from "./annotations.ts";
import { isProofModel } from "./models.ts";

/** Law names (L1, L2-L6) in a module's opening comment, in order of first mention. */
export function headerLaws(sf: ts.SourceFile): string[] {
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

/** Whether a top-level statement carries `export`. */
export function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** A function declaration as written, with the contract annotations above it (`ann`). */
export function fnWritten(sf: ts.SourceFile, fd: ts.FunctionDeclaration, ann: readonly Annotation[]): FnWritten {
  const contract: FnWritten["contract"] = [];
  for (const a of ann) {
    if (a.kind === "requires" || a.kind === "ensures" || a.kind === "type")
      contract.push({ kind: a.kind, text: a.text });
  }
  return {
    exported: isExported(fd),
    tparams: fd.typeParameters === undefined ? "" : `<${fd.typeParameters.map((t) => t.getText(sf)).join(", ")}>`,
    typedParams: fd.parameters.map((p) => p.getText(sf).replace(/\s+/g, " ")),
    returns: fd.type?.getText(sf) ?? "void",
    doc: docComment(sf, fd),
    model: isProofModel(fd),
    contract,
  };
}
