// Type inference over the IR, shared by every stage after the program table. Input: an IR
// expression, the types of the names in scope and the program table. Output: its type, or a
// TranslateError where an expression cannot have one (an unknown name or field, indexing a
// non-array). It renders nothing, and it does not decide whether an expression is allowed
// where it stands (the resolve stage does).

import { type Expr, type Pos, TranslateError, type Ty } from "../ir/ir.ts";
import type { ProgramInfo } from "./program-info.ts";

const INT: Ty = { k: "int" };
export const BOOL: Ty = { k: "bool" };
const UNKNOWN: Ty = { k: "unknown" };

/** The types of the names in scope: parameters, locals, quantified variables. */
export type Env = Map<string, Ty>;

/** Rejects a named type that no kernel file or `//@ declare-type` declares. */
export function checkTy(info: ProgramInfo, t: Ty, pos: Pos, tparams: string[]): void {
  if (t.k === "seq") checkTy(info, t.elem, pos, tparams);
  if (t.k === "named" && !info.unions.has(t.name) && !info.records.has(t.name)) {
    if (tparams.includes(t.name)) return;
    throw new TranslateError(pos, `unknown type ${t.name} (declare it in a kernel file or with //@ declare-type)`);
  }
}

/**
 * The type of an expression, from the types of the names in scope (`env`) and of `\result`
 * (null outside an ensures). UNKNOWN for an untyped literal or a companion function's result:
 * the position it stands in decides.
 */
export function typeOf(info: ProgramInfo, e: Expr, env: Env, result: Ty | null): Ty {
  switch (e.k) {
    case "num":
      return INT;
    case "bool":
      return BOOL;
    case "var": {
      const t = env.get(e.name);
      if (!t) throw new TranslateError(e.pos, `unknown identifier ${e.name}`);
      return t;
    }
    case "result":
      if (!result) throw new TranslateError(e.pos, "\\result is only allowed in ensures");
      return result;
    case "str":
      return UNKNOWN;
    case "member":
      return { k: "named", name: e.type };
    case "bin": {
      if (["+", "-", "*", "/", "concat"].includes(e.op)) {
        const l = typeOf(info, e.l, env, result);
        return l.k === "seq" ? l : INT;
      }
      return BOOL;
    }
    case "not":
    case "quant":
      return BOOL;
    case "len": {
      // `.length` of a record is its field of that name
      const t = typeOf(info, e.e, env, result);
      return t.k === "named" ? typeOf(info, { k: "field", e: e.e, name: "length", pos: e.pos }, env, result) : INT;
    }
    case "neg":
    case "minmax":
      return INT;
    case "cond": {
      const t = typeOf(info, e.t, env, result);
      return t.k === "unknown" ? typeOf(info, e.f, env, result) : t;
    }
    case "index": {
      const t = typeOf(info, e.e, env, result);
      if (t.k !== "seq") throw new TranslateError(e.pos, "indexing something that is not an array");
      return t.elem;
    }
    case "slice":
    case "update":
      return typeOf(info, e.e, env, result);
    case "field": {
      const t = typeOf(info, e.e, env, result);
      const fields = t.k === "named" ? info.records.get(t.name) : undefined;
      const f = fields?.find((x) => x.name === e.name);
      if (!f) throw new TranslateError(e.pos, `unknown field ${e.name}`);
      return f.ty;
    }
    case "call": {
      const entry = info.fns.get(e.fn);
      if (!entry) return UNKNOWN;
      const bind = new Map<string, Ty>();
      entry.fn.params.forEach((p, i) => {
        if (i < e.args.length) unify(p.ty, typeOf(info, e.args[i], env, result), bind);
      });
      return substitute(entry.fn.ret, bind);
    }
    case "record":
      return e.type ? { k: "named", name: e.type } : UNKNOWN;
    case "seqlit":
      return { k: "seq", elem: e.elems.length > 0 ? typeOf(info, e.elems[0], env, result) : UNKNOWN };
    case "let": {
      const inner = new Map(env);
      inner.set(e.name, e.ty.k === "unknown" ? typeOf(info, e.e, env, result) : e.ty);
      return typeOf(info, e.body, inner, result);
    }
  }
}

/** Whether two values of these types can be compared (unknown: an untyped literal or a companion function). */
export function compatible(a: Ty, b: Ty): boolean {
  if (a.k === "unknown" || b.k === "unknown") return true;
  const num = (t: Ty) => t.k === "int" || t.k === "nat";
  if (num(a) || num(b)) return num(a) && num(b);
  if (a.k === "seq" && b.k === "seq") return compatible(a.elem, b.elem);
  if ((a.k === "named" && b.k === "named") || (a.k === "tparam" && b.k === "tparam")) return a.name === b.name;
  return a.k === b.k;
}

/** A type as an error message names it. */
export function describeTy(t: Ty): string {
  switch (t.k) {
    case "seq":
      return "arrays";
    case "bool":
      return "booleans";
    case "named":
      return `values of ${t.name}`;
    case "tparam":
      return `values of type parameter ${t.name}`;
    default:
      return "numbers";
  }
}

/** Binds the type parameters in `p` to the parts of `a` they stand for (the first binding wins). */
export function unify(p: Ty, a: Ty, bind: Map<string, Ty>): void {
  if (p.k === "tparam" && a.k !== "unknown" && !bind.has(p.name)) bind.set(p.name, a);
  if (p.k === "seq" && a.k === "seq") unify(p.elem, a.elem, bind);
}

/** `t` with its type parameters replaced by their bindings (UNKNOWN when unbound). */
export function substitute(t: Ty, bind: Map<string, Ty>): Ty {
  if (t.k === "tparam") return bind.get(t.name) ?? UNKNOWN;
  if (t.k === "seq") return { k: "seq", elem: substitute(t.elem, bind) };
  return t;
}
