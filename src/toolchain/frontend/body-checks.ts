// Stage: body checks. Input: a function body in the IR, after statement translation and
// continue lowering. Output: nothing, or a TranslateError: whether every path returns a
// value, and whether an array changed in place has no other name. It does not read
// TypeScript or change the IR; the caller decides where a missing return is reported.

import { type Expr, type Pos, type Stmt, TranslateError } from "../ir/ir.ts";
import { childLists, forEachChild, someOutsideLoops } from "../ir/walk.ts";

/** Whether running `stmts` always ends in a `return` (JavaScript returns undefined otherwise). */
export function endsInReturn(stmts: Stmt[]): boolean {
  const last = stmts[stmts.length - 1];
  if (last === undefined) return false;
  switch (last.k) {
    case "return":
      return true;
    case "if":
      return endsInReturn(last.t) && endsInReturn(last.f);
    case "block":
      return endsInReturn(last.body);
    // `while (true)` ends only through return when no break leaves it
    case "while":
      return last.c.k === "bool" && last.c.v && !containsBreak(last.body);
    default:
      return false;
  }
}

/** Whether a `break` of the enclosing loop or switch occurs in `stmts` (nested loops hold their own). */
export function containsBreak(stmts: Stmt[]): boolean {
  return someOutsideLoops(stmts, (s) => s.k === "break");
}

/**
 * JavaScript arrays are references, Dafny sequences are values: they agree as long as an
 * array that is changed in place (push, element assignment) has no other name. So such an
 * array must be created fresh (an array literal or .slice()) and otherwise be used only as
 * xs[i], xs.length, xs.slice(...) or a returned value.
 */
export function checkOwnership(stmts: Stmt[]): void {
  const mutated = new Set<string>();
  const collect = (list: Stmt[]): void => {
    for (const s of list) {
      if (s.k === "assign" && s.inPlace) mutated.add(s.name);
      childLists(s).forEach(collect);
    }
  };
  collect(stmts);
  if (mutated.size === 0) return;
  const fail = (name: string, pos: Pos): never => {
    throw new TranslateError(
      pos,
      `unsupported aliasing of array ${name}: an array changed in place must be created by an array literal or .slice() and used only as ${name}[i], ${name}.length, ${name}.slice(...) or a return value`,
    );
  };
  // an array changed in place may stand as the array of xs[i], xs.length and xs.slice(...)
  const uses = (e: Expr): void => {
    if (e.k === "var") {
      if (mutated.has(e.name)) fail(e.name, e.pos);
      return;
    }
    if (e.k === "quant") return;
    const owner = (e.k === "index" || e.k === "len" || e.k === "slice") && e.e.k === "var" ? e.e : null;
    forEachChild(e, (c) => {
      if (c !== owner) uses(c);
    });
  };
  const fresh = (name: string, e: Expr, pos: Pos): void => {
    if (mutated.has(name) && e.k !== "seqlit" && e.k !== "slice") fail(name, pos);
    uses(e);
  };
  const check = (list: Stmt[]): void => {
    for (const s of list) {
      switch (s.k) {
        case "var":
          fresh(s.name, s.init, s.pos);
          break;
        case "assign":
          if (!s.inPlace) fresh(s.name, s.e, s.pos);
          else if (s.e.k === "update") {
            uses(s.e.i);
            uses(s.e.v);
          } else if (s.e.k === "bin") uses(s.e.r);
          break;
        case "if":
          uses(s.c);
          check(s.t);
          check(s.f);
          break;
        case "while":
          uses(s.c);
          check(s.body);
          break;
        case "block":
          check(s.body);
          break;
        case "return":
          if (s.e.k !== "var") uses(s.e);
          break;
        default:
      }
    }
  };
  check(stmts);
}
