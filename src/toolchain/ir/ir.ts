// The intermediate representation between annotated TypeScript and the prover backends.
// It is deliberately small: exactly the subset documented in SUBSET.md, nothing more, so a
// backend never meets a construct it has to guess about.

/** A source position, rendered as file:line:column in error messages. */
export interface Pos {
  file: string;
  line: number;
  col: number;
}

/**
 * The spec function for value equality, `equal(a, b)`: `===` compares arrays and records by
 * reference in TypeScript, so specs may not use it on them.
 */
export const VALUE_EQUALITY = "equal";

/** A type of the subset. */
export type Ty =
  | { k: "int" }
  | { k: "nat" }
  | { k: "bool" }
  | { k: "seq"; elem: Ty }
  | { k: "named"; name: string }
  | { k: "tparam"; name: string }
  | { k: "unknown" };

export type BinOp =
  | "+"
  | "-"
  | "*"
  | "/"
  | "<"
  | "<="
  | ">"
  | ">="
  | "=="
  | "!="
  | "&&"
  | "||"
  | "==>"
  | "<==>"
  /** sequence concatenation: only `xs.push(v)` produces it (`+` on arrays is rejected) */
  | "concat";

/** An expression of code or specification. */
export type Expr =
  | { k: "num"; v: string; pos: Pos }
  | { k: "bool"; v: boolean; pos: Pos }
  | { k: "var"; name: string; pos: Pos }
  | { k: "result"; pos: Pos }
  | { k: "str"; v: string; pos: Pos }
  | { k: "member"; type: string; name: string; pos: Pos }
  /** `value`: written `equal(l, r)` in a spec, value equality on any type; `opPos`: where its operator stands in code */
  | { k: "bin"; op: BinOp; l: Expr; r: Expr; pos: Pos; value?: boolean; opPos?: Pos }
  | { k: "not"; e: Expr; pos: Pos }
  | { k: "neg"; e: Expr; pos: Pos }
  | { k: "cond"; c: Expr; t: Expr; f: Expr; pos: Pos }
  | { k: "index"; e: Expr; i: Expr; pos: Pos }
  | { k: "len"; e: Expr; pos: Pos }
  | { k: "slice"; e: Expr; lo: Expr | null; hi: Expr | null; pos: Pos }
  | { k: "field"; e: Expr; name: string; pos: Pos }
  | { k: "call"; fn: string; args: Expr[]; pos: Pos }
  | { k: "record"; type: string | null; fields: Array<[string, Expr]>; pos: Pos }
  | { k: "seqlit"; elems: Expr[]; pos: Pos }
  | { k: "quant"; q: "forall" | "exists"; v: string; ty: Ty; body: Expr; pos: Pos }
  | { k: "minmax"; op: "min" | "max"; a: Expr; b: Expr; pos: Pos }
  | { k: "let"; name: string; ty: Ty; e: Expr; body: Expr; pos: Pos }
  | { k: "update"; e: Expr; i: Expr; v: Expr; pos: Pos };

/** A statement of a method body (loops and `continue` already lowered to while/if). */
export type Stmt =
  | { k: "var"; name: string; ty: Ty; init: Expr; pos: Pos }
  /** `inPlace`: the TypeScript changed the array in place (push, element assignment) */
  | { k: "assign"; name: string; e: Expr; pos: Pos; inPlace?: boolean }
  | { k: "if"; c: Expr; t: Stmt[]; f: Stmt[]; pos: Pos }
  | { k: "while"; c: Expr; invariants: Expr[]; decreases: Expr[]; body: Stmt[]; pos: Pos }
  | { k: "break"; pos: Pos }
  /** only before lowering: loops rewrite it away (Dafny 2.3 has no continue) */
  | { k: "continue"; pos: Pos }
  /** always with a value: a function without one is rejected (JavaScript returns undefined) */
  | { k: "return"; e: Expr; pos: Pos }
  | { k: "assert"; e: Expr; pos: Pos }
  | { k: "use"; call: Expr; pos: Pos }
  | { k: "block"; body: Stmt[]; pos: Pos };

/** A parameter of a function. */
export interface Param {
  name: string;
  ty: Ty;
}

/** A translated function with its contract. */
export interface Fn {
  name: string;
  tparams: string[];
  params: Param[];
  ret: Ty;
  requires: Expr[];
  ensures: Expr[];
  decreases: Expr[];
  /** the body as one pure expression, when it has that shape (then it may become a Dafny function) */
  pureExpr: Expr | null;
  /** the body as statements (used when the function becomes a Dafny method) */
  stmts: Stmt[];
  extern: boolean;
  /** `//@ spec`: verified, for specifications only (code never calls it; safecut/kernel does not export it) */
  spec: boolean;
  /** how the source writes it, for the documentation */
  written: FnWritten;
  pos: Pos;
}

/** A function as its source writes it: what the documentation shows (emit/docs-model.ts). */
export interface FnWritten {
  exported: boolean;
  /** type parameters as written ("<T>"), or "" */
  tparams: string;
  /** the parameters as written, with their types */
  typedParams: string[];
  returns: string;
  /** the function's own doc comment, without the comment markers */
  doc: string;
  /** a `@model` tag in the doc comment: a proof-only model (frontend/models.ts) */
  model: boolean;
  /** the requires, ensures and `type x nat` annotations above it, as written, in order */
  contract: Array<{ kind: "requires" | "ensures" | "type"; text: string }>;
}

/** A type declaration: a union of tags or a record. */
export type TypeDecl =
  /** `numeric`: a TypeScript enum, whose members are numbers, so no string literal names one */
  | { k: "union"; name: string; numeric: boolean; tags: Array<{ tag: string; ctor: string }>; pos: Pos }
  | { k: "record"; name: string; fields: Param[]; pos: Pos };

/** One kernel source file, translated. */
export interface Module {
  /** base name without extension, e.g. "cutpoint" */
  name: string;
  /** source path relative to the project root */
  source: string;
  imports: string[];
  /** each name an import binds, and the module it comes from */
  imported: Array<{ name: string; from: string; pos: Pos }>;
  types: TypeDecl[];
  fns: Fn[];
  /** `//@ unbounded-numbers`: its code's arithmetic carries no safe-integer obligation (trusted, listed in PROPERTIES.md) */
  unboundedNumbers: boolean;
  /** base name of the proof companion under proofs/dafny, when one exists */
  companion: string | null;
  /** law names (L1, L2-L6) its opening comment mentions, in order of first mention */
  laws: string[];
  /** its exported interfaces and type aliases, in file order */
  exportedTypes: string[];
}

/** An error in the input, reported with its position. */
export class TranslateError extends Error {
  constructor(
    readonly pos: Pos,
    readonly detail: string,
  ) {
    super(`${pos.file}:${pos.line}:${pos.col}: ${detail}`);
    this.name = "TranslateError";
  }
}
