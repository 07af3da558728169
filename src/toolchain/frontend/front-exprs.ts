// Stage: expressions. Input: one TypeScript expression node of a kernel body. Output: its IR
// expression, each node with its source position. It does not type anything, resolve names
// or decide which calls are allowed where (later stages do, program-wide); it rejects only
// syntax outside the subset.

import ts from "typescript";
import type { BinOp, Expr } from "../ir/ir.ts";
import { type FileContext, syntaxName } from "./front-context.ts";
import { isVariableAt } from "./names.ts";
import { floorDiv } from "./spec-parser.ts";

const BIN_OPS: Partial<Record<ts.SyntaxKind, BinOp>> = {
  [ts.SyntaxKind.PlusToken]: "+",
  [ts.SyntaxKind.MinusToken]: "-",
  [ts.SyntaxKind.AsteriskToken]: "*",
  [ts.SyntaxKind.LessThanToken]: "<",
  [ts.SyntaxKind.LessThanEqualsToken]: "<=",
  [ts.SyntaxKind.GreaterThanToken]: ">",
  [ts.SyntaxKind.GreaterThanEqualsToken]: ">=",
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: "==",
  [ts.SyntaxKind.EqualsEqualsToken]: "==",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "!=",
  [ts.SyntaxKind.ExclamationEqualsToken]: "!=",
  [ts.SyntaxKind.AmpersandAmpersandToken]: "&&",
  [ts.SyntaxKind.BarBarToken]: "||",
};

/** The IR of a code expression. */
export function expr(cx: FileContext, e: ts.Expression): Expr {
  const pos = cx.pos(e);
  if (ts.isParenthesizedExpression(e)) return expr(cx, e.expression);
  if (ts.isNumericLiteral(e)) {
    if (!/^[0-9]+$/.test(e.text)) cx.unsupported(e, `number literal ${e.getText(cx.sf)} (integers only)`);
    return { k: "num", v: e.text, pos };
  }
  if (e.kind === ts.SyntaxKind.TrueKeyword) return { k: "bool", v: true, pos };
  if (e.kind === ts.SyntaxKind.FalseKeyword) return { k: "bool", v: false, pos };
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { k: "str", v: e.text, pos };
  if (ts.isIdentifier(e)) {
    if (e.text === "undefined" || e.text === "NaN" || e.text === "Infinity") cx.unsupported(e, `value ${e.text}`);
    return { k: "var", name: e.text, pos };
  }
  if (ts.isPrefixUnaryExpression(e)) {
    if (e.operator === ts.SyntaxKind.ExclamationToken) return { k: "not", e: expr(cx, e.operand), pos };
    if (e.operator === ts.SyntaxKind.MinusToken) return { k: "neg", e: expr(cx, e.operand), pos };
    cx.unsupported(e, `operator ${ts.tokenToString(e.operator)} here`);
  }
  if (ts.isBinaryExpression(e)) {
    const op = BIN_OPS[e.operatorToken.kind];
    if (!op)
      cx.unsupported(
        e.operatorToken,
        `operator '${e.operatorToken.getText(cx.sf)}'${e.operatorToken.kind === ts.SyntaxKind.SlashToken ? " (write Math.floor(a / b))" : ""}`,
      );
    return { k: "bin", op, l: expr(cx, e.left), r: expr(cx, e.right), pos, opPos: cx.pos(e.operatorToken) };
  }
  if (ts.isConditionalExpression(e)) {
    return { k: "cond", c: expr(cx, e.condition), t: expr(cx, e.whenTrue), f: expr(cx, e.whenFalse), pos };
  }
  if (ts.isElementAccessExpression(e))
    return { k: "index", e: expr(cx, e.expression), i: expr(cx, e.argumentExpression), pos };
  if (ts.isPropertyAccessExpression(e)) {
    if (e.questionDotToken) cx.unsupported(e, "optional chaining");
    const field = e.name.text;
    if (field === "length") return { k: "len", e: expr(cx, e.expression), pos };
    // `X.f` is a member of the type X exactly where TypeScript binds X to no variable
    if (ts.isIdentifier(e.expression) && !isVariableAt(cx.checker, e.expression)) {
      return { k: "member", type: e.expression.text, name: field, pos };
    }
    return { k: "field", e: expr(cx, e.expression), name: field, pos };
  }
  if (ts.isCallExpression(e)) return call(cx, e);
  if (ts.isObjectLiteralExpression(e)) {
    const keys = new Set<string>();
    const fields: Array<[string, Expr]> = e.properties.map((p) => {
      const key =
        (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ts.isIdentifier(p.name)
          ? p.name.text
          : null;
      if (key === null) cx.unsupported(p, "object literal member");
      if (keys.has(key))
        cx.unsupported(p, `repeated key ${key} in an object literal (JavaScript keeps the last value)`);
      keys.add(key);
      if (ts.isPropertyAssignment(p)) return [key, expr(cx, p.initializer)];
      return [key, { k: "var", name: key, pos: cx.pos(p) }];
    });
    return { k: "record", type: null, fields, pos };
  }
  if (ts.isArrayLiteralExpression(e)) {
    return {
      k: "seqlit",
      elems: e.elements.map((x) => {
        if (ts.isSpreadElement(x)) cx.unsupported(x, "spread element");
        return expr(cx, x);
      }),
      pos,
    };
  }
  cx.unsupported(e, `expression '${e.getText(cx.sf)}' (${syntaxName(e.kind)})`);
}

function call(cx: FileContext, e: ts.CallExpression): Expr {
  const pos = cx.pos(e);
  if (e.typeArguments) cx.unsupported(e, "explicit type arguments");
  // arguments are translated only once the callee is known: Math.floor(a / b) holds a '/'
  // that is unsupported anywhere else
  const args = (): Expr[] => e.arguments.map((a) => expr(cx, a));
  const callee = e.expression;
  if (ts.isPropertyAccessExpression(callee)) {
    const method = callee.name.text;
    if (ts.isIdentifier(callee.expression) && callee.expression.text === "Math") {
      if ((method === "max" || method === "min") && e.arguments.length === 2) {
        const [a, b] = args();
        return { k: "minmax", op: method, a, b, pos };
      }
      if (method === "floor" && e.arguments.length === 1) {
        const inner = e.arguments[0];
        const q = ts.isParenthesizedExpression(inner) ? inner.expression : inner;
        if (ts.isBinaryExpression(q) && q.operatorToken.kind === ts.SyntaxKind.SlashToken) {
          return floorDiv(expr(cx, q.left), expr(cx, q.right), pos);
        }
      }
      cx.unsupported(e, `Math.${method} call`);
    }
    if (method === "slice" && e.arguments.length <= 2) {
      const [lo, hi] = args();
      return { k: "slice", e: expr(cx, callee.expression), lo: lo ?? null, hi: hi ?? null, pos };
    }
    cx.unsupported(e, `method call .${method}(...)`);
  }
  if (!ts.isIdentifier(callee)) cx.unsupported(e, "call of a computed function");
  return { k: "call", fn: callee.text, args: args(), pos };
}
