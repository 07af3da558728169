// The one walk over the IR: the direct sub-expressions of an expression, in source order, like
// TypeScript's own ts.forEachChild, and the statement lists directly inside a statement. Every stage that looks through expressions without
// rebuilding them (the program table's call search, the ownership check, the spec parser's
// division check, the break, continue and in-place searches) walks with it, so a new kind of
// expression or statement is added here once.

import type { Expr, Stmt } from "./ir.ts";

/** Calls `f` on each direct sub-expression of `e`, in source order. */
export function forEachChild(e: Expr, f: (child: Expr) => void): void {
  switch (e.k) {
    case "bin":
      f(e.l);
      f(e.r);
      return;
    case "not":
    case "neg":
    case "len":
    case "field":
      f(e.e);
      return;
    case "cond":
      f(e.c);
      f(e.t);
      f(e.f);
      return;
    case "index":
      f(e.e);
      f(e.i);
      return;
    case "slice":
      f(e.e);
      if (e.lo) f(e.lo);
      if (e.hi) f(e.hi);
      return;
    case "call":
      e.args.forEach((a) => f(a));
      return;
    case "record":
      for (const [, v] of e.fields) f(v);
      return;
    case "seqlit":
      e.elems.forEach((x) => f(x));
      return;
    case "quant":
      f(e.body);
      return;
    case "minmax":
      f(e.a);
      f(e.b);
      return;
    case "let":
      f(e.e);
      f(e.body);
      return;
    case "update":
      f(e.e);
      f(e.i);
      f(e.v);
      return;
    case "num":
    case "bool":
    case "var":
    case "result":
    case "str":
    case "member":
      return;
  }
}

/** Calls `f` on `e` and on every expression inside it, parents before children. */
export function forEachExpr(e: Expr, f: (e: Expr) => void): void {
  f(e);
  forEachChild(e, (c) => forEachExpr(c, f));
}

/** The statement lists directly inside `s`: an if's two branches, a loop's or a block's body. */
export function childLists(s: Stmt): Stmt[][] {
  switch (s.k) {
    case "if":
      return [s.t, s.f];
    case "while":
    case "block":
      return [s.body];
    default:
      return [];
  }
}

/**
 * Whether a statement of `stmts` satisfies `p`, looking into ifs and blocks but not into
 * loops: a `break` or `continue` inside a nested loop belongs to that loop.
 */
export function someOutsideLoops(stmts: readonly Stmt[], p: (s: Stmt) => boolean): boolean {
  return stmts.some((s) => p(s) || (s.k !== "while" && childLists(s).some((l) => someOutsideLoops(l, p))));
}
