// Stage: types and type declarations. Input: TypeScript type syntax (type aliases,
// interfaces, annotations of parameters and locals) and the `//@ declare-type` and
// `//@ type x nat` annotations. Output: IR types and type declarations. It does not check
// that a named type exists (the kernel shares one namespace, known only once every file is
// read) and does not translate enums or functions.

import ts from "typescript";
import { type Param, type Pos, TranslateError, type Ty, type TypeDecl } from "../ir/ir.ts";
import type { Annotation } from "./annotations.ts";
import type { FileContext } from "./front-context.ts";

/** A union tag's constructor name: the literal in PascalCase ("max_tokens" -> "MaxTokens"). */
function ctorName(tag: string): string {
  return tag
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
}

/** The record type a `//@ declare-type Name { field: type; ... }` annotation declares. */
export function declareType(a: Annotation): TypeDecl {
  const m = /^([A-Za-z][A-Za-z0-9_]*)\s*\{(.*)\}\s*$/.exec(a.text);
  if (!m) throw new TranslateError(a.pos, "declare-type expects 'Name { field: type; ... }'");
  const fields: Param[] = m[2]
    .split(/[;,]/)
    .map((f) => f.trim())
    .filter((f) => f.length > 0)
    .map((f) => {
      const fm = /^([A-Za-z][A-Za-z0-9_]*)\s*:\s*(.+)$/.exec(f);
      if (!fm) throw new TranslateError(a.pos, `declare-type field '${f}' is not 'name: type'`);
      return { name: fm[1], ty: tyFromText(fm[2].trim(), a.pos) };
    });
  return { k: "record", name: m[1], fields, pos: a.pos };
}

function tyFromText(text: string, pos: Pos): Ty {
  if (text === "number") return { k: "int" };
  if (text === "nat") return { k: "nat" };
  if (text === "boolean") return { k: "bool" };
  const arr = /^(?:readonly\s+)?(.+)\[\]$/.exec(text);
  if (arr) return { k: "seq", elem: tyFromText(arr[1].trim(), pos) };
  if (/^[A-Za-z][A-Za-z0-9_]*$/.test(text)) return { k: "named", name: text };
  throw new TranslateError(pos, `unsupported type '${text}'`);
}

/** A type alias: a union of string literals or an object type. */
export function typeAlias(cx: FileContext, st: ts.TypeAliasDeclaration): TypeDecl {
  if (st.typeParameters) cx.unsupported(st, "generic type alias");
  const t = st.type;
  const members = ts.isUnionTypeNode(t) ? t.types : [t];
  if (members.every((m) => ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal))) {
    const tags = members.map((m) => ((m as ts.LiteralTypeNode).literal as ts.StringLiteral).text);
    const seen = new Map<string, string>();
    for (const tag of tags) {
      const c = ctorName(tag);
      if (c.length === 0 || !/^[A-Z]/.test(c)) cx.fail(st, `union member "${tag}" has no usable constructor name`);
      if (seen.has(c)) cx.fail(st, `union members "${seen.get(c)}" and "${tag}" map to the same constructor ${c}`);
      seen.set(c, tag);
    }
    return {
      k: "union",
      name: st.name.text,
      numeric: false,
      tags: tags.map((tag) => ({ tag, ctor: ctorName(tag) })),
      pos: cx.pos(st),
    };
  }
  if (ts.isTypeLiteralNode(t))
    return { k: "record", name: st.name.text, fields: recordFields(cx, t.members, new Set()), pos: cx.pos(st) };
  cx.unsupported(st, "type alias (only unions of string literals and object types are supported)");
}

/** An interface: a record type. */
export function interfaceDecl(cx: FileContext, st: ts.InterfaceDeclaration): TypeDecl {
  if (st.typeParameters) cx.unsupported(st, "generic interface");
  if (st.heritageClauses) cx.unsupported(st, "interface inheritance");
  return { k: "record", name: st.name.text, fields: recordFields(cx, st.members, new Set()), pos: cx.pos(st) };
}

function recordFields(cx: FileContext, members: ts.NodeArray<ts.TypeElement>, tparams: Set<string>): Param[] {
  return members.map((m) => {
    if (!ts.isPropertySignature(m) || !m.type) cx.unsupported(m, "record member (only typed properties are supported)");
    if (m.questionToken) cx.unsupported(m, "optional field");
    return { name: m.name.getText(cx.sf), ty: tyFromNode(cx, m.type, tparams) };
  });
}

/** The IR type of a TypeScript type node; `tparams` are the enclosing function's type parameters. */
export function tyFromNode(cx: FileContext, t: ts.TypeNode, tparams: Set<string>): Ty {
  switch (t.kind) {
    case ts.SyntaxKind.NumberKeyword:
      return { k: "int" };
    case ts.SyntaxKind.BooleanKeyword:
      return { k: "bool" };
    default:
  }
  if (ts.isArrayTypeNode(t)) return { k: "seq", elem: tyFromNode(cx, t.elementType, tparams) };
  if (ts.isTypeOperatorNode(t) && t.operator === ts.SyntaxKind.ReadonlyKeyword && ts.isArrayTypeNode(t.type)) {
    return { k: "seq", elem: tyFromNode(cx, t.type.elementType, tparams) };
  }
  if (ts.isParenthesizedTypeNode(t)) return tyFromNode(cx, t.type, tparams);
  if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName)) {
    const n = t.typeName.text;
    if ((n === "ReadonlyArray" || n === "Array") && t.typeArguments?.length === 1) {
      return { k: "seq", elem: tyFromNode(cx, t.typeArguments[0], tparams) };
    }
    if (t.typeArguments) cx.unsupported(t, `generic type ${n}<...>`);
    if (tparams.has(n)) return { k: "tparam", name: n };
    return { k: "named", name: n };
  }
  cx.unsupported(t, `type '${t.getText(cx.sf)}'`);
}

/** `ty` narrowed to nat by a `//@ type x nat` annotation (only a number can be). */
export function natOf(cx: FileContext, node: ts.Node, ty: Ty): Ty {
  if (ty.k !== "int") cx.fail(node, "//@ type ... nat applies only to number");
  return { k: "nat" };
}

/** The name a `//@ type NAME nat` annotation narrows (a parameter, a local or \result). */
export function typeAnnotation(a: Annotation): string {
  const m = /^(\\result|[A-Za-z_$][A-Za-z0-9_$]*)\s+nat$/.exec(a.text);
  if (!m) throw new TranslateError(a.pos, "//@ type expects 'NAME nat'");
  return m[1];
}
