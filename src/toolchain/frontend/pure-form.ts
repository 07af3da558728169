// Stage: pure form. Input: a function body as TypeScript syntax. Output: the body as one IR
// expression when it is a chain of `const`, `if ... return` and `return` with no statement
// annotations (such a function may become a Dafny function, usable in specifications), or
// null. It reports no errors of its own: the statement translation has already read the same
// body, and the body always has its statement form too.

import ts from "typescript";
import type { Expr } from "../ir/ir.ts";
import { annotationsIn } from "./annotations.ts";
import type { FileContext, FnScope } from "./front-context.ts";
import { expr } from "./front-exprs.ts";
import { tyFromNode } from "./front-types.ts";

/** The body as one expression when it is a chain of const / if-return / return, else null. */
export function pureForm(cx: FileContext, stmts: readonly ts.Statement[], scope: FnScope, at: ts.Node): Expr | null {
  const sf = cx.sf;
  // statement-level annotations (assert, use, ...) need a method body
  if (annotationsIn(sf, at.getStart(sf), at.end).some((a) => a.kind !== "type")) return null;
  const go = (i: number): Expr | null => {
    if (i >= stmts.length) return null;
    const st = stmts[i];
    if (ts.isReturnStatement(st)) return st.expression ? expr(cx, st.expression) : null;
    if (ts.isVariableStatement(st)) {
      if (!(st.declarationList.flags & ts.NodeFlags.Const)) return null;
      const decls = st.declarationList.declarations;
      if (decls.length !== 1) return null;
      const d = decls[0];
      if (!ts.isIdentifier(d.name) || !d.initializer) return null;
      const body = go(i + 1);
      if (!body) return null;
      const ty = d.type ? tyFromNode(cx, d.type, scope.tparams) : { k: "unknown" as const };
      return {
        k: "let",
        name: d.name.text,
        ty: scope.natNames.has(d.name.text) ? { k: "nat" } : ty,
        e: expr(cx, d.initializer),
        body,
        pos: cx.pos(d),
      };
    }
    if (ts.isIfStatement(st)) {
      const t = branch(st.thenStatement);
      if (!t) return null;
      if (st.elseStatement) {
        if (i + 1 < stmts.length) return null;
        const f = branch(st.elseStatement);
        return f ? { k: "cond", c: expr(cx, st.expression), t, f, pos: cx.pos(st) } : null;
      }
      const f = go(i + 1);
      return f ? { k: "cond", c: expr(cx, st.expression), t, f, pos: cx.pos(st) } : null;
    }
    return null;
  };
  const branch = (s: ts.Statement): Expr | null =>
    ts.isBlock(s) ? pureForm(cx, s.statements, scope, s) : pureForm(cx, [s], scope, s);
  return go(0);
}
