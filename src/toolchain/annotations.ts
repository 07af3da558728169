// Extraction of `//@` annotation lines from TypeScript comments. An annotation line starts
// with a keyword; a `//@` line that does not continues the previous annotation, so long
// specifications can wrap.

import ts from "typescript";
import { type Pos, TranslateError } from "./ir.ts";

export type AnnotationKind =
  | "verify" | "extern" | "requires" | "ensures" | "invariant" | "decreases"
  | "assert" | "use" | "type" | "declare-type";

const KINDS: readonly AnnotationKind[] = [
  "verify", "extern", "requires", "ensures", "invariant", "decreases",
  "assert", "use", "type", "declare-type",
];

/** One annotation: its keyword, its text after the keyword, and where that text starts. */
export interface Annotation {
  kind: AnnotationKind;
  text: string;
  pos: Pos;
  /** offset in the source file, to order annotations among statements */
  offset: number;
}

/** Position (1-based line and column) of a character offset. */
export function posAt(sf: ts.SourceFile, offset: number): Pos {
  const lc = sf.getLineAndCharacterOfPosition(offset);
  return { file: sf.fileName, line: lc.line + 1, col: lc.character + 1 };
}

/** All annotations in the source text between offsets `from` and `to`. */
export function annotationsIn(sf: ts.SourceFile, from: number, to: number): Annotation[] {
  const text = sf.text;
  const out: Annotation[] = [];
  const re = /\/\/@(.*)$/gm;
  re.lastIndex = from;
  for (let m = re.exec(text); m !== null && m.index < to; m = re.exec(text)) {
    const body = m[1];
    const lead = body.length - body.trimStart().length;
    const trimmed = body.trim();
    const kw = KINDS.find((k) => trimmed === k || trimmed.startsWith(k + " "));
    const textStart = m.index + 3 + lead + (kw ? kw.length : 0);
    const rest = kw ? trimmed.slice(kw.length).trim() : trimmed;
    const restOffset = kw ? textStart + (body.slice(lead + kw.length).length - body.slice(lead + kw.length).trimStart().length) : textStart;
    if (kw) {
      out.push({ kind: kw, text: rest, pos: posAt(sf, restOffset), offset: m.index });
    } else if (out.length > 0) {
      // continuation: the positions of continued text are reported at the annotation start
      out[out.length - 1].text += " " + rest;
    } else {
      throw new TranslateError(posAt(sf, m.index), `unknown annotation '//@${body.trimEnd()}'`);
    }
  }
  return out;
}

/** Annotations in the comments directly above a node. */
export function leadingAnnotations(sf: ts.SourceFile, node: ts.Node): Annotation[] {
  return annotationsIn(sf, node.getFullStart(), node.getStart(sf));
}
