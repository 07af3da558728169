// The resolved IR: what the resolve stage hands a backend's printer. Every name is spelled
// as the backend spells it, every type is known, every string literal and enum member is a
// constructor of its union, every object literal a constructor call with its arguments in
// field order, and every call says whether it calls a method. Nothing in it can be an error:
// a printer only lays it out as text.

import type { BinOp, Pos } from "./ir.ts";

/** The largest safe integer, 2^53 - 1: up to it a double holds every integer exactly. */
export const MAX_SAFE = "9007199254740991";

/** A type with nothing left to infer. */
export type RTy =
  | { k: "int" }
  | { k: "nat" }
  | { k: "bool" }
  | { k: "seq"; elem: RTy }
  | { k: "named"; name: string }
  | { k: "tparam"; name: string };

/** A resolved expression. */
export type RExpr =
  | { k: "num"; v: string }
  | { k: "bool"; v: boolean }
  | { k: "var"; name: string }
  /** the function's result: in an ensures of a function, the function applied to its parameters */
  | { k: "result" }
  /** a union value: a string literal or an enum member */
  | { k: "ctor"; type: string; ctor: string }
  | { k: "bin"; op: BinOp; l: RExpr; r: RExpr }
  | { k: "not"; e: RExpr }
  | { k: "neg"; e: RExpr }
  /**
   * a number result of code, which must be a safe integer (JavaScript's doubles are exact
   * there): `fn` is the module's bound, `at` where the arithmetic stands in the TypeScript
   */
  | { k: "exact"; fn: string; e: RExpr; at: Pos }
  | { k: "cond"; c: RExpr; t: RExpr; f: RExpr }
  | { k: "index"; e: RExpr; i: RExpr }
  /** the length of a sequence (`.length` of a record is a field) */
  | { k: "len"; e: RExpr }
  | { k: "slice"; e: RExpr; lo: RExpr | null; hi: RExpr | null }
  | { k: "update"; e: RExpr; i: RExpr; v: RExpr }
  | { k: "field"; e: RExpr; name: string }
  /** `method`: the callee is a kernel function that is a method (only a whole right-hand side) */
  | { k: "call"; fn: string; args: RExpr[]; method: boolean }
  /** a record value: the constructor of `type` with one argument per field, in declared order */
  | { k: "record"; type: string; args: RExpr[] }
  | { k: "seqlit"; elems: RExpr[] }
  | { k: "quant"; q: "forall" | "exists"; v: string; ty: RTy; body: RExpr }
  | { k: "minmax"; op: "min" | "max"; a: RExpr; b: RExpr }
  | { k: "let"; name: string; ty: RTy; e: RExpr; body: RExpr };

/** A resolved statement of a method body. */
export type RStmt =
  | { k: "var"; name: string; ty: RTy; init: RExpr }
  | { k: "assign"; name: string; e: RExpr }
  | { k: "if"; c: RExpr; t: RStmt[]; f: RStmt[] }
  | { k: "while"; c: RExpr; invariants: RExpr[]; decreases: RExpr[]; body: RStmt[] }
  | { k: "break" }
  | { k: "return"; e: RExpr }
  | { k: "assert"; e: RExpr }
  /** a lemma call of the proof companion */
  | { k: "use"; call: RExpr }
  | { k: "block"; body: RStmt[] };

/** What a kernel function becomes in Dafny: a pure function, or a method (it loops or calls one). */
export type FnKind = "function" | "method";

/** A parameter or record field. */
export interface RParam {
  name: string;
  ty: RTy;
}

/** A resolved function with its contract. */
export interface RFn {
  name: string;
  kind: FnKind;
  /** trusted: the contract is printed, the body is not */
  extern: boolean;
  tparams: string[];
  params: RParam[];
  ret: RTy;
  requires: RExpr[];
  ensures: RExpr[];
  decreases: RExpr[];
  /** null for an extern; a pure expression for a function, statements for a method */
  body: { k: "pure"; e: RExpr } | { k: "stmts"; stmts: RStmt[] } | null;
}

/** A resolved type declaration. */
export type RTypeDecl = { k: "union"; name: string; ctors: string[] } | { k: "record"; name: string; fields: RParam[] };

/** One kernel module, resolved. */
export interface RModule {
  name: string;
  source: string;
  imports: string[];
  companion: string | null;
  types: RTypeDecl[];
  fns: RFn[];
  /** the name of the module's safe-integer bound, when its code does arithmetic */
  exactBound: string | null;
}
