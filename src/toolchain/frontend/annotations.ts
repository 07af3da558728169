// Extraction of `//@` annotation lines from TypeScript comments. An annotation is a line
// comment starting `//@` (only whitespace before it on its line) followed by a keyword; a
// `//@` line without a keyword continues the previous annotation, so long specifications
// can wrap. `verify`, `extern` and `spec` take no text and cannot be continued. A comment that looks
// like an annotation but is not one (`// @ensures`, `/*@ ... */`, `//@` inside a block
// comment) is an error: it would otherwise be a silently ignored specification.

import ts from "typescript";
import { type Pos, TranslateError } from "../ir/ir.ts";

export type AnnotationKind =
  | "verify"
  | "extern"
  | "spec"
  | "unbounded-numbers"
  | "requires"
  | "ensures"
  | "invariant"
  | "decreases"
  | "assert"
  | "use"
  | "type"
  | "declare-type";

const KINDS: readonly AnnotationKind[] = [
  "verify",
  "extern",
  "spec",
  "unbounded-numbers",
  "requires",
  "ensures",
  "invariant",
  "decreases",
  "assert",
  "use",
  "type",
  "declare-type",
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

/**
 * The comments of a file, found by TypeScript's scanner. The scanner alone cannot tell a
 * regular expression from a division, so it skips the literals the parser found: a `//@`
 * inside a string, template or regular expression is no comment.
 */
function comments(sf: ts.SourceFile): Array<{ kind: ts.SyntaxKind; pos: number; end: number }> {
  const literals = new Map<number, number>();
  const findLiterals = (n: ts.Node): void => {
    if (
      ts.isStringLiteral(n) ||
      ts.isNoSubstitutionTemplateLiteral(n) ||
      ts.isTemplateExpression(n) ||
      ts.isRegularExpressionLiteral(n)
    ) {
      literals.set(n.getStart(sf), n.end);
    } else ts.forEachChild(n, findLiterals);
  };
  findLiterals(sf);
  const out: Array<{ kind: ts.SyntaxKind; pos: number; end: number }> = [];
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, sf.text);
  for (let t = scanner.scan(); t !== ts.SyntaxKind.EndOfFileToken; t = scanner.scan()) {
    const literalEnd = literals.get(scanner.getTokenStart());
    if (literalEnd !== undefined) scanner.resetTokenState(literalEnd);
    else if (t === ts.SyntaxKind.SingleLineCommentTrivia || t === ts.SyntaxKind.MultiLineCommentTrivia) {
      out.push({ kind: t, pos: scanner.getTokenStart(), end: scanner.getTokenEnd() });
    }
  }
  return out;
}

/** Keywords that, written `@keyword` in a block comment, read as a misplaced annotation (not JSDoc's `@type`). */
const BLOCK_LOOKALIKE = new RegExp(`^@(?:${KINDS.filter((k) => k !== "type").join("|")})\\b`);

const BLOCK_COMMENT_ANNOTATION =
  "an annotation inside a block comment is not read: write it as a '//@' line comment outside the block comment";

/**
 * Rejects comments that look like annotations but would be read as plain comments: a line
 * comment `// @ensures ...`, a block comment `/*@ ... *\/`, a line `//@ ...` or
 * `@ensures ...` inside a block comment.
 */
function rejectLookalike(sf: ts.SourceFile, c: { kind: ts.SyntaxKind; pos: number; end: number }): void {
  const text = sf.text.slice(c.pos, c.end);
  if (c.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
    // `// @ensures`, `/// @ensures`, `// @ ensures`, and a keyword right after the slashes (`//ensures`)
    const m = /^\/\/\/*[ \t]*@[ \t]*([\w-]*)/.exec(text) ?? new RegExp(`^//(${KINDS.join("|")})\\b`).exec(text);
    if (m && !text.startsWith("//@")) {
      throw new TranslateError(
        posAt(sf, c.pos),
        `'${m[0]}' looks like an annotation but is a plain comment: write '//@ ${m[1] || "<keyword>"}'`,
      );
    }
    return;
  }
  if (/^\/\*+\s*@/.test(text)) throw new TranslateError(posAt(sf, c.pos), BLOCK_COMMENT_ANNOTATION);
  let lineStart = 0;
  for (const line of text.split("\n")) {
    const body = line.replace(/^\s*(\/\*+)?[\s*]*/, "");
    if (body.startsWith("//@") || BLOCK_LOOKALIKE.test(body)) {
      throw new TranslateError(posAt(sf, c.pos + lineStart + line.indexOf(body)), BLOCK_COMMENT_ANNOTATION);
    }
    lineStart += line.length + 1;
  }
}

const fileAnnotations = new WeakMap<ts.SourceFile, Annotation[]>();

/** All annotations of a file, in order; rejects comments that look like annotations and are not. */
function allAnnotations(sf: ts.SourceFile): Annotation[] {
  const cached = fileAnnotations.get(sf);
  if (cached) return cached;
  const text = sf.text;
  const out: Annotation[] = [];
  for (const c of comments(sf)) {
    rejectLookalike(sf, c);
    if (c.kind !== ts.SyntaxKind.SingleLineCommentTrivia || !text.startsWith("//@", c.pos)) continue;
    const index = c.pos;
    const before = text.slice(text.lastIndexOf("\n", index - 1) + 1, index).trim();
    if (before.length > 0) throw new TranslateError(posAt(sf, index), "an annotation '//@' must start its own line");
    const body = text.slice(index + 3, c.end);
    const bodyStart = index + 3;
    const lead = body.length - body.trimStart().length;
    const trimmed = body.trim();
    const kw = KINDS.find((k) => trimmed === k || new RegExp(`^${k}\\s`).test(trimmed));
    const afterKw = bodyStart + lead + (kw ? kw.length : 0);
    const restOffset = afterKw + (text.slice(afterKw).length - text.slice(afterKw).trimStart().length);
    const rest = kw ? trimmed.slice(kw.length).trim() : trimmed;
    const restPos = posAt(sf, kw ? Math.min(restOffset, c.end) : bodyStart + lead);
    const prev = out[out.length - 1];
    if (kw) {
      if ((kw === "verify" || kw === "extern" || kw === "spec" || kw === "unbounded-numbers") && rest.length > 0) {
        throw new TranslateError(restPos, `//@ ${kw} takes no text (found '${rest}')`);
      }
      out.push({ kind: kw, text: rest, pos: restPos, offset: index, segments: [{ start: 0, pos: restPos }] });
    } else if (
      prev !== undefined &&
      prev.kind !== "verify" &&
      prev.kind !== "extern" &&
      prev.kind !== "spec" &&
      prev.kind !== "unbounded-numbers" &&
      prev.kind !== "type" &&
      !/\S/.test(text.slice(prev.offset, index).replace(/^[ \t]*\/\/@.*$/gm, ""))
    ) {
      // continuation: a `//@` line right below an annotation that takes text
      prev.segments.push({ start: prev.text.length + 1, pos: restPos });
      prev.text += ` ${rest}`;
    } else {
      throw new TranslateError(posAt(sf, index), `unknown annotation '//@${body.trimEnd()}'`);
    }
  }
  fileAnnotations.set(sf, out);
  return out;
}

/** All annotations in the source text between offsets `from` and `to`. */
export function annotationsIn(sf: ts.SourceFile, from: number, to: number): Annotation[] {
  return allAnnotations(sf).filter((a) => a.offset >= from && a.offset < to);
}

/** Annotations in the comments directly above a node. */
export function leadingAnnotations(sf: ts.SourceFile, node: ts.Node): Annotation[] {
  return annotationsIn(sf, node.getFullStart(), node.getStart(sf));
}
