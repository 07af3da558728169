// Stage: statements. Input: a function body as TypeScript syntax, with the `//@` assert,
// use, invariant and decreases annotations between its statements. Output: the body as IR
// statements, `for` and `switch` rewritten to `while` and `if`, each loop body passed
// through continue lowering. It does not type expressions or resolve names (later stages do),
// and does not decide whether the body also has a pure form (pure-form.ts).

import ts from "typescript";
import { type Expr, type Stmt, TranslateError, type Ty } from "../ir/ir.ts";
import { type Annotation, annotationsIn } from "./annotations.ts";
import { containsBreak } from "./body-checks.ts";
import { type FileContext, type FnScope, spec, syntaxName } from "./front-context.ts";
import { expr } from "./front-exprs.ts";
import { tyFromNode } from "./front-types.ts";
import { lowerContinue } from "./lower-continue.ts";

/** The IR statements of a block; `isLoopBody`: its leading invariants were read by the loop. */
export function block(cx: FileContext, b: ts.Block, scope: FnScope, isLoopBody: boolean): Stmt[] {
  const sf = cx.sf;
  const out: Stmt[] = [];
  // an annotation's names resolve as in code at the statement after it (or the block's end)
  const emitAnnotations = (anns: Annotation[], location: ts.Node) => {
    for (const a of anns) {
      if (a.kind === "assert")
        out.push({ k: "assert", e: spec(cx, cx.take(a), { location, hidden: null }), pos: a.pos });
      else if (a.kind === "use") {
        const call = spec(cx, cx.take(a), { location, hidden: null });
        if (call.k !== "call") throw new TranslateError(a.pos, "//@ use expects a lemma call 'Name(args)'");
        out.push({ k: "use", call, pos: a.pos });
      } else if (a.kind === "type") continue;
      else if ((a.kind === "invariant" || a.kind === "decreases") && isLoopBody) {
        // loopSpecs took those above the first statement
        if (!cx.used.has(a.offset))
          throw new TranslateError(a.pos, `//@ ${a.kind} must come before the first statement of the loop body`);
      } else throw new TranslateError(a.pos, `//@ ${a.kind} is not allowed here`);
    }
  };
  let cursor = b.getStart(sf) + 1;
  for (const st of b.statements) {
    emitAnnotations(annotationsIn(sf, cursor, st.getStart(sf)), st);
    out.push(...statement(cx, st, scope));
    cursor = st.end;
  }
  emitAnnotations(annotationsIn(sf, cursor, b.end - 1), b);
  return out;
}

function asBlock(cx: FileContext, s: ts.Statement, scope: FnScope, isLoopBody: boolean): Stmt[] {
  if (ts.isBlock(s)) return block(cx, s, scope, isLoopBody);
  if (isLoopBody) cx.fail(s, "a loop body must be a block { ... } (it holds the invariants)");
  return statement(cx, s, scope);
}

/**
 * The invariant and decreases annotations of a loop (first lines of its body block), whose
 * names resolve as at the loop statement: its `for` variable is in scope, its body's locals are not.
 */
function loopSpecs(cx: FileContext, loop: ts.IterationStatement): { invariants: Expr[]; decreases: Expr[] } {
  const sf = cx.sf;
  const body = loop.statement;
  const place = { location: loop, hidden: body };
  if (!ts.isBlock(body)) cx.fail(body, "a loop body must be a block { ... } (it holds the invariants)");
  const end = body.statements.length > 0 ? body.statements[0].getStart(sf) : body.end;
  const anns = annotationsIn(sf, body.getStart(sf), end);
  return {
    invariants: anns.filter((a) => a.kind === "invariant").map((a) => spec(cx, cx.take(a), place)),
    decreases: anns.filter((a) => a.kind === "decreases").map((a) => spec(cx, cx.take(a), place)),
  };
}

function declarations(cx: FileContext, list: ts.VariableDeclarationList, scope: FnScope): Stmt[] {
  return list.declarations.map((d) => {
    if (!ts.isIdentifier(d.name)) cx.unsupported(d, "destructuring declaration");
    if (!d.initializer) cx.fail(d, `${d.name.text} needs an initializer`);
    let ty: Ty = d.type ? tyFromNode(cx, d.type, scope.tparams) : { k: "unknown" };
    if (scope.natNames.has(d.name.text)) ty = { k: "nat" };
    return { k: "var", name: d.name.text, ty, init: expr(cx, d.initializer), pos: cx.pos(d) };
  });
}

function statement(cx: FileContext, st: ts.Statement, scope: FnScope): Stmt[] {
  const pos = cx.pos(st);
  if (ts.isVariableStatement(st)) return declarations(cx, st.declarationList, scope);
  if (ts.isExpressionStatement(st)) return [exprStatement(cx, st.expression, scope)];
  if (ts.isIfStatement(st)) {
    return [
      {
        k: "if",
        c: expr(cx, st.expression),
        t: asBlock(cx, st.thenStatement, scope, false),
        f: st.elseStatement ? asBlock(cx, st.elseStatement, scope, false) : [],
        pos,
      },
    ];
  }
  if (ts.isWhileStatement(st)) {
    const { invariants, decreases } = loopSpecs(cx, st);
    const body = lowerContinue(asBlock(cx, st.statement, scope, true), []);
    return [{ k: "while", c: expr(cx, st.expression), invariants, decreases, body, pos }];
  }
  if (ts.isForStatement(st)) return [forLoop(cx, st, scope)];
  if (ts.isBreakStatement(st)) {
    if (st.label) cx.unsupported(st, "labelled break");
    return [{ k: "break", pos }];
  }
  if (ts.isContinueStatement(st)) {
    if (st.label) cx.unsupported(st, "labelled continue");
    return [{ k: "continue", pos }];
  }
  if (ts.isReturnStatement(st)) {
    if (!st.expression) cx.unsupported(st, `return without a value (${scope.fnName} returns ${scope.retText})`);
    return [{ k: "return", e: expr(cx, st.expression), pos }];
  }
  if (ts.isBlock(st)) return [{ k: "block", body: block(cx, st, scope, false), pos }];
  if (ts.isSwitchStatement(st)) return switchStatement(cx, st, scope);
  if (ts.isLabeledStatement(st))
    cx.unsupported(st, `labelled statement '${st.label.text}:' (and so labelled break/continue)`);
  cx.unsupported(st, `statement (${syntaxName(st.kind)})`);
}

function forLoop(cx: FileContext, st: ts.ForStatement, scope: FnScope): Stmt {
  const pos = cx.pos(st);
  if (!st.initializer || !ts.isVariableDeclarationList(st.initializer))
    cx.unsupported(st, "for loop without a 'let' initializer");
  const init = declarations(cx, st.initializer, scope);
  if (!st.condition) cx.unsupported(st, "for loop without a condition");
  if (!st.incrementor) cx.unsupported(st, "for loop without an increment");
  const incr = exprStatement(cx, st.incrementor, scope);
  const { invariants, decreases } = loopSpecs(cx, st);
  const body = lowerContinue(asBlock(cx, st.statement, scope, true), [incr]);
  // the block scopes the loop variable, as `let` does in TypeScript
  return {
    k: "block",
    body: [...init, { k: "while", c: expr(cx, st.condition), invariants, decreases, body, pos }],
    pos,
  };
}

function switchStatement(cx: FileContext, st: ts.SwitchStatement, scope: FnScope): Stmt[] {
  const pos = cx.pos(st);
  const disc = expr(cx, st.expression);
  const clauses = st.caseBlock.clauses.map((c) => {
    const body = c.statements.flatMap((s) => statement(cx, s, scope));
    const last = body[body.length - 1];
    const endsWithBreak = last !== undefined && last.k === "break";
    const stmts = endsWithBreak ? body.slice(0, -1) : body;
    if (containsBreak(stmts)) cx.fail(c, "a break inside a switch clause must be its last statement");
    const terminates = endsWithBreak || (last !== undefined && last.k === "return");
    return { label: ts.isCaseClause(c) ? expr(cx, c.expression) : null, stmts, terminates, node: c };
  });
  // A clause entered at index i runs its statements and falls through to the next
  // clauses until one terminates.
  const bodyFrom = (i: number): Stmt[] => {
    const out: Stmt[] = [];
    for (let j = i; j < clauses.length; j++) {
      out.push(...clauses[j].stmts);
      if (clauses[j].terminates) break;
    }
    return out;
  };
  const defaultIndex = clauses.findIndex((c) => c.label === null);
  let chain: Stmt[] = defaultIndex >= 0 ? bodyFrom(defaultIndex) : [];
  for (let i = clauses.length - 1; i >= 0; i--) {
    const label = clauses[i].label;
    if (label === null) continue;
    chain = [{ k: "if", c: { k: "bin", op: "==", l: disc, r: label, pos }, t: bodyFrom(i), f: chain, pos }];
  }
  return chain;
}

function exprStatement(cx: FileContext, e: ts.Expression, scope: FnScope): Stmt {
  const pos = cx.pos(e);
  const local = (id: ts.Expression, what: string): string => {
    if (!ts.isIdentifier(id)) cx.unsupported(id, `${what} of anything but a local variable`);
    if (scope.params.has(id.text))
      cx.fail(id, `unsupported mutation of parameter ${id.text} (parameters are values in the proofs)`);
    return id.text;
  };
  const v = (name: string, at: ts.Node): Expr => ({ k: "var", name, pos: cx.pos(at) });
  const one: Expr = { k: "num", v: "1", pos };
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.EqualsToken) {
      if (ts.isElementAccessExpression(e.left)) {
        const name = local(e.left.expression, "element assignment");
        return {
          k: "assign",
          name,
          e: { k: "update", e: v(name, e.left), i: expr(cx, e.left.argumentExpression), v: expr(cx, e.right), pos },
          pos,
          inPlace: true,
        };
      }
      return { k: "assign", name: local(e.left, "assignment"), e: expr(cx, e.right), pos };
    }
    if (op === ts.SyntaxKind.PlusEqualsToken || op === ts.SyntaxKind.MinusEqualsToken) {
      const name = local(e.left, "compound assignment");
      return {
        k: "assign",
        name,
        e: {
          k: "bin",
          op: op === ts.SyntaxKind.PlusEqualsToken ? "+" : "-",
          l: v(name, e.left),
          r: expr(cx, e.right),
          pos,
          opPos: cx.pos(e.operatorToken),
        },
        pos,
      };
    }
  }
  if (
    (ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) &&
    (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)
  ) {
    const name = local(e.operand, "increment");
    return {
      k: "assign",
      name,
      e: { k: "bin", op: e.operator === ts.SyntaxKind.PlusPlusToken ? "+" : "-", l: v(name, e.operand), r: one, pos },
      pos,
    };
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === "push") {
    const name = local(e.expression.expression, "push");
    if (e.arguments.length !== 1) cx.unsupported(e, "push with other than one argument");
    const item: Expr = { k: "seqlit", elems: [expr(cx, e.arguments[0])], pos };
    return {
      k: "assign",
      name,
      e: { k: "bin", op: "concat", l: v(name, e.expression.expression), r: item, pos },
      pos,
      inPlace: true,
    };
  }
  cx.unsupported(e, `expression statement '${e.getText(cx.sf)}'`);
}
