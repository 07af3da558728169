// Extraction of `//@` annotation lines from TypeScript comments. An annotation is a line
// comment starting `//@` (only whitespace before it on its line) followed by a keyword; a
// `//@` line without a keyword continues the previous annotation, so long specifications
// can wrap. `verify` and `extern` take no text and cannot be continued.

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
  /** where each source line of `text` starts in `text` and in the file (continuations) */
  segments: Segment[];
}

/** A piece of an annotation's text that starts at `start` in the text and at `pos` in the file. */
export interface Segment {
  start: number;
  pos: Pos;
}

/** The file position of character `offset` of an annotation's text. */
export function segmentPos(segments: readonly Segment[], offset: number): Pos {
  let seg = segments[0];
  for (const s of segments) if (s.start <= offset) seg = s;
  return { ...seg.pos, col: seg.pos.col + (offset - seg.start) };
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
    const before = text.slice(text.lastIndexOf("\n", m.index - 1) + 1, m.index).trim();
    // `//@` quoted inside another comment is prose, not an annotation
    if (before.includes("//") || before.startsWith("*") || before.startsWith("/*")) continue;
    if (before.length > 0) throw new TranslateError(posAt(sf, m.index), "an annotation '//@' must start its own line");
    const body = m[1];
    const bodyStart = m.index + 3;
    const lead = body.length - body.trimStart().length;
    const trimmed = body.trim();
    const kw = KINDS.find((k) => trimmed === k || new RegExp(`^${k}\\s`).test(trimmed));
    const afterKw = bodyStart + lead + (kw ? kw.length : 0);
    const restOffset = afterKw + (text.slice(afterKw).length - text.slice(afterKw).trimStart().length);
    const rest = kw ? trimmed.slice(kw.length).trim() : trimmed;
    const restPos = posAt(sf, kw ? Math.min(restOffset, m.index + m[0].length) : bodyStart + lead);
    const prev = out[out.length - 1];
    if (kw) {
      if ((kw === "verify" || kw === "extern") && rest.length > 0) {
        throw new TranslateError(restPos, `//@ ${kw} takes no text (found '${rest}')`);
      }
      out.push({ kind: kw, text: rest, pos: restPos, offset: bodyStart - 3, segments: [{ start: 0, pos: restPos }] });
    } else if (prev !== undefined && prev.kind !== "verify" && prev.kind !== "extern" && prev.kind !== "type" &&
        !/\S/.test(text.slice(prev.offset, m.index).replace(/^[ \t]*\/\/@.*$/gm, ""))) {
      // continuation: a `//@` line right below an annotation that takes text
      prev.segments.push({ start: prev.text.length + 1, pos: restPos });
      prev.text += " " + rest;
    } else {
      throw new TranslateError(posAt(sf, bodyStart - 3), `unknown annotation '//@${body.trimEnd()}'`);
    }
  }
  return out;
}

/** Annotations in the comments directly above a node. */
export function leadingAnnotations(sf: ts.SourceFile, node: ts.Node): Annotation[] {
  return annotationsIn(sf, node.getFullStart(), node.getStart(sf));
}
