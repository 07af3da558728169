// What every step of the frontend shares while it reads one kernel file: the parsed source,
// the annotations taken so far, positions and errors (FileContext), and the per-function
// scope. Holds no translation itself.

import ts from "typescript";
import { type Expr, type Pos, TranslateError } from "../ir/ir.ts";
import { type Annotation, posAt } from "./annotations.ts";
import { isVariableIn } from "./names.ts";
import { parseSpec } from "./spec-parser.ts";

/** The name of a syntax kind ("VariableStatement", not its alias "FirstStatement"). */
export function syntaxName(kind: ts.SyntaxKind): string {
  const names = Object.keys(ts.SyntaxKind).filter(
    (k) => (ts.SyntaxKind as unknown as Record<string, number>)[k] === kind,
  );
  return names.find((n) => !/^(First|Last)/.test(n)) ?? names[0] ?? String(kind);
}

/** One kernel file being translated: its syntax tree, the annotations read, and how to report an error in it. */
export class FileContext {
  /** offsets of the annotations the translation took into account */
  readonly used = new Set<number>();

  constructor(
    readonly sf: ts.SourceFile,
    /** the checker of the kernel program the file belongs to: names resolve as TypeScript resolves them */
    readonly checker: ts.TypeChecker,
  ) {}

  take(a: Annotation): Annotation {
    this.used.add(a.offset);
    return a;
  }

  pos(node: ts.Node): Pos {
    return posAt(this.sf, node.getStart(this.sf));
  }

  fail(node: ts.Node, detail: string): never {
    throw new TranslateError(this.pos(node), detail);
  }

  unsupported(node: ts.Node, what: string): never {
    this.fail(node, `unsupported ${what}`);
  }
}

/** Per-function state: which names are natural numbers, which are parameters. */
export interface FnScope {
  fnName: string;
  /** the declared return type, as written */
  retText: string;
  natNames: Set<string>;
  params: Set<string>;
  tparams: Set<string>;
}

/**
 * Where a specification is read, for its names: as if it were code at `location` (the
 * statement after an assert, a loop for its invariants, a function for its contract), with
 * the declarations inside `hidden` out of scope (a function's body, for its contract).
 */
export interface SpecPlace {
  location: ts.Node;
  hidden: ts.Node | null;
}

/** An annotation's specification text, parsed to an IR expression, its names resolved at `place`. */
export function spec(cx: FileContext, a: Annotation, place: SpecPlace): Expr {
  const isVariable = (name: string): boolean =>
    isVariableIn(cx.checker, name, place.location, place.hidden, a.offset, (d) =>
      cx.fail(d, `//@ ${a.kind} at ${a.pos.line}:${a.pos.col} uses ${name} before its declaration here`),
    );
  return parseSpec(a.text, a.pos, a.segments, isVariable);
}
