// Stage: resolve. Input: one module's IR, the program table and a backend's spelling of
// names. Output: the resolved IR (ir/resolved-ir.ts): every type inferred and known, every
// name spelled, string literals, enum members and object literals turned into constructors
// by the type their position requires, each call checked against what the module imports
// and whether a method may stand there. Every error a well-formed IR can still hold is
// reported here, in source order. It prints nothing: a backend's printer only lays the
// result out.

import {
  type Expr,
  type Fn,
  type Module,
  type Pos,
  type Stmt,
  TranslateError,
  type Ty,
  VALUE_EQUALITY,
} from "../ir/ir.ts";
import {
  MAX_SAFE,
  type RExpr,
  type RFn,
  type RModule,
  type RParam,
  type RStmt,
  type RTy,
  type RTypeDecl,
} from "../ir/resolved-ir.ts";
import type { ProgramInfo } from "./program-info.ts";
import { BOOL, checkTy, compatible, describeTy, type Env, substitute, typeOf, unify } from "./typing.ts";

/** A backend's spelling of a kernel name; throws a TranslateError for a name it cannot spell. */
export type Spell = (name: string, pos: Pos) => string;

/** Where an expression stands: its module, what `\result` is (null outside ensures and code), spec or code. */
interface Ctx {
  module: Module;
  /** the function whose contract or body this is */
  fn: Fn;
  result: Ty | null;
  inSpec: boolean;
}

/** A type with nothing left to infer, or the error that asks for an annotation. */
function known(t: Ty, pos: Pos): RTy {
  switch (t.k) {
    case "int":
    case "nat":
    case "bool":
      return { k: t.k };
    case "seq":
      return { k: "seq", elem: known(t.elem, pos) };
    case "named":
    case "tparam":
      return { k: t.k, name: t.name };
    case "unknown":
      throw new TranslateError(pos, "cannot infer a type here: add a type annotation");
  }
}

class Resolver {
  /** the module's safe-integer bound, once its code does arithmetic */
  exactBound: string | null = null;

  constructor(
    readonly info: ProgramInfo,
    readonly spell: Spell,
  ) {}

  typeOf(e: Expr, env: Env, cx: Ctx): Ty {
    return typeOf(this.info, e, env, cx.result);
  }

  /**
   * A number that code computes, with the proof obligation that it is a safe integer: Node
   * computes + - * on doubles, which agree with the integers exactly while every result stays
   * within +-(2^53 - 1). Specifications mean the integers and carry no obligation.
   */
  exact(e: RExpr, cx: Ctx, at: Pos): RExpr {
    if (cx.inSpec || cx.fn.spec || cx.module.unboundedNumbers) return e;
    this.exactBound = `SafeInteger_${cx.module.name}`;
    return { k: "exact", fn: this.exactBound, e, at };
  }

  /**
   * The Dafny spelling of a variable (parameter, local, bound variable). TypeScript keeps
   * values and types in separate namespaces, Dafny does not: in `P.User` a variable `P`
   * would capture the constructor `P.User` of a type `P`, and `P(...)` the record
   * constructor. A variable named like a type gets a trailing `'`, which no TypeScript
   * identifier holds, so it can never meet another name.
   */
  varName(name: string, pos: Pos): string {
    const spelt = this.spell(name, pos);
    return this.info.unions.has(name) || this.info.records.has(name) ? `${spelt}'` : spelt;
  }

  /** Resolves an expression; `expect` is the type its position requires, when known. */
  expr(e: Expr, env: Env, cx: Ctx, expect: Ty | null): RExpr {
    switch (e.k) {
      case "num":
        if (!cx.inSpec && BigInt(e.v) > BigInt(MAX_SAFE))
          throw new TranslateError(e.pos, `integer literal ${e.v} is past 2^53 - 1: JavaScript rounds it`);
        return { k: "num", v: e.v };
      case "bool":
        return { k: "bool", v: e.v };
      case "var":
        this.typeOf(e, env, cx);
        return { k: "var", name: this.varName(e.name, e.pos) };
      case "result":
        if (!cx.result) throw new TranslateError(e.pos, "\\result is only allowed in ensures");
        return { k: "result" };
      case "str": {
        const u = expect && expect.k === "named" ? this.info.unions.get(expect.name) : undefined;
        if (!u || !expect || expect.k !== "named")
          throw new TranslateError(e.pos, `string literal "${e.v}" needs a declared union type in this position`);
        if (u.numeric)
          throw new TranslateError(
            e.pos,
            `string literal "${e.v}" is not a value of enum ${expect.name} (its members are numbers in JavaScript: write ${expect.name}.${e.v})`,
          );
        const c = u.tags.get(e.v);
        if (!c) throw new TranslateError(e.pos, `"${e.v}" is not a member of ${expect.name}`);
        return { k: "ctor", type: expect.name, ctor: c };
      }
      case "member": {
        // the frontend made `X.f` a member only where TypeScript binds X to no variable
        const u = this.info.unions.get(e.type);
        if (!u) throw new TranslateError(e.pos, `unknown enum ${e.type}`);
        if (!u.ctors.has(e.name)) throw new TranslateError(e.pos, `${e.name} is not a member of ${e.type}`);
        return { k: "ctor", type: e.type, ctor: this.spell(e.name, e.pos) };
      }
      case "bin": {
        if (e.op === "==" || e.op === "!=") {
          const lt = this.typeOf(e.l, env, cx);
          const rt = this.typeOf(e.r, env, cx);
          // JavaScript compares arrays and objects by reference, Dafny by value: only the
          // specifications (which mean value equality) may compare them
          if (!compatible(lt, rt))
            throw new TranslateError(
              e.pos,
              `unsupported ${e.op === "==" ? "===" : "!=="} between ${describeTy(lt)} and ${describeTy(rt)}`,
            );
          const ty = lt.k === "unknown" ? rt : lt;
          if (
            !e.value &&
            (ty.k === "seq" || ty.k === "tparam" || (ty.k === "named" && this.info.records.has(ty.name)))
          ) {
            const what =
              ty.k === "seq"
                ? "arrays"
                : ty.k === "tparam"
                  ? `values of type parameter ${ty.name}`
                  : `records (${ty.name})`;
            const op = e.op === "==" ? "===" : "!==";
            if (cx.inSpec)
              throw new TranslateError(
                e.pos,
                `unsupported ${op} on ${what} in a specification (TypeScript compares references): write ${e.op === "==" ? "" : "!"}${VALUE_EQUALITY}(a, b) for value equality`,
              );
            throw new TranslateError(
              e.pos,
              `unsupported ${op} on ${what} in code (JavaScript compares references; compare elements or fields)`,
            );
          }
          const l = this.expr(e.l, env, cx, rt.k === "unknown" ? null : rt);
          return { k: "bin", op: e.op, l, r: this.expr(e.r, env, cx, lt.k === "unknown" ? null : lt) };
        }
        if (e.op === "concat") {
          const lt = this.typeOf(e.l, env, cx);
          const l = this.expr(e.l, env, cx, lt);
          return { k: "bin", op: e.op, l, r: this.expr(e.r, env, cx, lt) };
        }
        if (e.op === "+" || e.op === "-" || e.op === "*" || e.op === "/") {
          const lt = this.typeOf(e.l, env, cx);
          const rt = this.typeOf(e.r, env, cx);
          // JavaScript's + joins arrays into a string; the other operators make NaN
          if (lt.k === "seq" || rt.k === "seq")
            throw new TranslateError(
              e.pos,
              `unsupported ${e.op} on arrays${e.op === "+" ? " (JavaScript joins them into a string; use push)" : ""}`,
            );
          const l = this.expr(e.l, env, cx, null);
          const r = this.expr(e.r, env, cx, null);
          // floor division: Math.floor(a / b) is the integer floor while a is a safe integer
          // (the rounding of a / b never reaches the next integer), and the quotient is no larger
          const at = e.opPos ?? e.pos;
          if (e.op === "/") return { k: "bin", op: e.op, l: this.exact(l, cx, at), r };
          return this.exact({ k: "bin", op: e.op, l, r }, cx, at);
        }
        if (e.op === "<" || e.op === "<=" || e.op === ">" || e.op === ">=") {
          // only numbers: JavaScript compares arrays and strings as strings, Dafny's < on
          // sequences is "proper prefix"
          for (const t of [this.typeOf(e.l, env, cx), this.typeOf(e.r, env, cx)]) {
            if (t.k !== "int" && t.k !== "nat" && t.k !== "unknown") {
              throw new TranslateError(e.pos, `unsupported ${e.op} on ${describeTy(t)} (only numbers are ordered)`);
            }
          }
        }
        if (["==>", "<==>"].includes(e.op) && !cx.inSpec)
          throw new TranslateError(e.pos, `${e.op} is only allowed in specifications`);
        const l = this.expr(e.l, env, cx, null);
        return { k: "bin", op: e.op, l, r: this.expr(e.r, env, cx, null) };
      }
      case "not":
        return { k: "not", e: this.expr(e.e, env, cx, null) };
      case "neg":
        return { k: "neg", e: this.expr(e.e, env, cx, null) };
      case "cond": {
        const t = expect ?? this.typeOf(e, env, cx);
        const ex = t.k === "unknown" ? null : t;
        const c = this.expr(e.c, env, cx, null);
        const whenTrue = this.expr(e.t, env, cx, ex);
        return { k: "cond", c, t: whenTrue, f: this.expr(e.f, env, cx, ex) };
      }
      case "index": {
        this.typeOf(e, env, cx);
        const seq = this.expr(e.e, env, cx, null);
        return { k: "index", e: seq, i: this.expr(e.i, env, cx, null) };
      }
      case "len": {
        const t = this.typeOf(e.e, env, cx);
        if (t.k === "named") return this.expr({ k: "field", e: e.e, name: "length", pos: e.pos }, env, cx, expect);
        if (t.k !== "seq") throw new TranslateError(e.pos, ".length of something that is not an array");
        return { k: "len", e: this.expr(e.e, env, cx, null) };
      }
      case "slice": {
        if (this.typeOf(e.e, env, cx).k !== "seq")
          throw new TranslateError(e.pos, ".slice of something that is not an array");
        const lo = e.lo ? this.expr(e.lo, env, cx, null) : null;
        const hi = e.hi ? this.expr(e.hi, env, cx, null) : null;
        return { k: "slice", e: this.expr(e.e, env, cx, null), lo, hi };
      }
      case "update": {
        const t = this.typeOf(e.e, env, cx);
        if (t.k !== "seq") throw new TranslateError(e.pos, "element assignment on something that is not an array");
        const seq = this.expr(e.e, env, cx, null);
        const i = this.expr(e.i, env, cx, null);
        return { k: "update", e: seq, i, v: this.expr(e.v, env, cx, t.elem) };
      }
      case "field": {
        this.typeOf(e, env, cx);
        const rec = this.expr(e.e, env, cx, null);
        return { k: "field", e: rec, name: this.spell(e.name, e.pos) };
      }
      case "call":
        return this.call(e, env, cx, false);
      case "record": {
        const name = e.type ?? (expect && expect.k === "named" ? expect.name : null);
        const fields = name ? this.info.records.get(name) : undefined;
        if (!name || !fields)
          throw new TranslateError(e.pos, "object literal needs a declared record type in this position");
        for (const [f] of e.fields)
          if (!fields.some((x) => x.name === f)) throw new TranslateError(e.pos, `${name} has no field ${f}`);
        const args = fields.map((f) => {
          const v = e.fields.find(([n]) => n === f.name);
          if (!v) throw new TranslateError(e.pos, `object literal of ${name} lacks field ${f.name}`);
          return this.expr(v[1], env, cx, f.ty);
        });
        return { k: "record", type: name, args };
      }
      case "seqlit": {
        const elem = expect && expect.k === "seq" ? expect.elem : null;
        return { k: "seqlit", elems: e.elems.map((x) => this.expr(x, env, cx, elem)) };
      }
      case "quant": {
        if (!cx.inSpec) throw new TranslateError(e.pos, `${e.q} is only allowed in specifications`);
        const inner = new Map(env);
        inner.set(e.v, e.ty);
        const v = this.varName(e.v, e.pos);
        const ty = known(e.ty, e.pos);
        return { k: "quant", q: e.q, v, ty, body: this.expr(e.body, inner, cx, null) };
      }
      case "minmax": {
        const a = this.expr(e.a, env, cx, null);
        return { k: "minmax", op: e.op, a, b: this.expr(e.b, env, cx, null) };
      }
      case "let": {
        const ty = this.letType(e, env, cx);
        const inner = new Map(env);
        inner.set(e.name, ty);
        const name = this.varName(e.name, e.pos);
        const rty = known(ty, e.pos);
        const init = this.expr(e.e, env, cx, ty);
        return { k: "let", name, ty: rty, e: init, body: this.expr(e.body, inner, cx, expect) };
      }
    }
  }

  /** A call; `asStatement` is true where a method call may stand (a whole right-hand side). */
  call(e: Extract<Expr, { k: "call" }>, env: Env, cx: Ctx, asStatement: boolean): RExpr {
    const entry = this.info.fns.get(e.fn);
    if (entry) {
      if (!this.info.reach.get(cx.module.name)?.has(entry.module)) {
        throw new TranslateError(
          e.pos,
          `${e.fn} is declared in ${entry.module}.ts, which ${cx.module.name}.ts does not import`,
        );
      }
      // code calls what the module imports under that name (JavaScript resolves nothing else)
      if (
        !cx.inSpec &&
        entry.module !== cx.module.name &&
        !cx.module.imported.some((x) => x.name === e.fn && x.from === entry.module)
      ) {
        throw new TranslateError(
          e.pos,
          `${e.fn} is declared in ${entry.module}.ts, which ${cx.module.name}.ts does not import by that name`,
        );
      }
      if (!cx.inSpec) {
        // code runs in Node: a spec function there would recurse once per element (the reason
        // for //@ spec), so only specifications and other spec functions call it
        if (entry.fn.spec && !cx.fn.spec)
          throw new TranslateError(
            e.pos,
            `${e.fn} is //@ spec (for specifications only): code calls a loop proven equal to it instead`,
          );
        const calls = this.info.codeCalls.get(cx.fn.name) ?? [];
        calls.push({ to: e.fn, pos: e.pos });
        this.info.codeCalls.set(cx.fn.name, calls);
      }
      if (entry.kind === "method" && cx.inSpec) {
        throw new TranslateError(
          e.pos,
          `specification calls ${e.fn}, which translates to a method (its body is not a pure expression)`,
        );
      }
      if (entry.kind === "method" && !asStatement) {
        throw new TranslateError(
          e.pos,
          `call to ${e.fn} (a method in Dafny) must be the whole initializer of a const/let, the right side of an assignment, or a return value`,
        );
      }
      if (e.args.length !== entry.fn.params.length)
        throw new TranslateError(e.pos, `${e.fn} takes ${entry.fn.params.length} arguments`);
      // type parameters take their types from the arguments that have one
      const bind = new Map<string, Ty>();
      entry.fn.params.forEach((p, i) => unify(p.ty, this.typeOf(e.args[i], env, cx), bind));
      const args = e.args.map((a, i) => {
        const pt = substitute(entry.fn.params[i].ty, bind);
        return this.expr(a, env, cx, pt.k === "unknown" ? null : pt);
      });
      return { k: "call", fn: this.spell(e.fn, e.pos), args, method: entry.kind === "method" };
    }
    const companion = [...(this.info.reach.get(cx.module.name) ?? [])].some((m) =>
      this.info.companionNames.get(m)?.has(e.fn),
    );
    // a companion's names are the backend's own: they are not respelled
    if (companion && cx.inSpec)
      return { k: "call", fn: e.fn, args: e.args.map((a) => this.expr(a, env, cx, null)), method: false };
    if (companion)
      throw new TranslateError(
        e.pos,
        `${e.fn} is proof material (from proofs/dafny): use it only in specifications and //@ use`,
      );
    throw new TranslateError(e.pos, `call to unknown function ${e.fn} (not a verified kernel function)`);
  }

  /** A right-hand side: a method call where one may stand, any expression otherwise. */
  rhs(e: Expr, env: Env, cx: Ctx, expect: Ty | null): RExpr {
    return e.k === "call" ? this.call(e, env, cx, true) : this.expr(e, env, cx, expect);
  }

  stmts(list: Stmt[], env: Env, cx: Ctx): RStmt[] {
    return list.map((s) => this.stmt(s, env, cx));
  }

  spec(e: Expr, env: Env, cx: Ctx): RExpr {
    return this.expr(e, env, { ...cx, inSpec: true }, BOOL);
  }

  /** Resolves a statement; a declaration adds its local to `env`. */
  stmt(s: Stmt, env: Env, cx: Ctx): RStmt {
    switch (s.k) {
      case "var": {
        const ty = s.ty.k === "unknown" ? this.typeOf(s.init, env, cx) : s.ty;
        if (ty.k === "unknown" || (ty.k === "seq" && ty.elem.k === "unknown")) {
          throw new TranslateError(s.pos, `cannot infer the type of ${s.name}: add a type annotation`);
        }
        const name = this.varName(s.name, s.pos);
        const rty = known(ty, s.pos);
        const out: RStmt = { k: "var", name, ty: rty, init: this.rhs(s.init, env, cx, ty) };
        env.set(s.name, ty);
        return out;
      }
      case "assign": {
        const ty = env.get(s.name);
        if (!ty) throw new TranslateError(s.pos, `assignment to unknown variable ${s.name}`);
        const name = this.varName(s.name, s.pos);
        return { k: "assign", name, e: this.rhs(s.e, env, cx, ty) };
      }
      case "if": {
        const c = this.expr(s.c, env, cx, BOOL);
        const t = this.stmts(s.t, new Map(env), cx);
        return { k: "if", c, t, f: s.f.length > 0 ? this.stmts(s.f, new Map(env), cx) : [] };
      }
      case "while": {
        const c = this.expr(s.c, env, cx, BOOL);
        const invariants = s.invariants.map((i) => this.spec(i, env, cx));
        const decreases = s.decreases.map((d) => this.expr(d, env, { ...cx, inSpec: true }, null));
        return { k: "while", c, invariants, decreases, body: this.stmts(s.body, new Map(env), cx) };
      }
      case "break":
        return { k: "break" };
      case "continue":
        throw new TranslateError(s.pos, "continue outside a loop");
      case "return": {
        if (!cx.result) throw new TranslateError(s.pos, "return with a value in a function without a result");
        if (s.e.k === "call" && this.info.fns.get(s.e.fn)?.kind === "method") {
          return { k: "return", e: this.call(s.e, env, cx, true) };
        }
        return { k: "return", e: this.expr(s.e, env, cx, cx.result) };
      }
      case "assert":
        return { k: "assert", e: this.spec(s.e, env, cx) };
      case "use": {
        if (s.call.k !== "call") throw new TranslateError(s.pos, "//@ use expects a lemma call");
        if (this.info.fns.has(s.call.fn))
          throw new TranslateError(
            s.call.pos,
            `//@ use calls ${s.call.fn}, a kernel function: it takes a lemma of the proof companion`,
          );
        return { k: "use", call: this.call(s.call, env, { ...cx, inSpec: true }, false) };
      }
      case "block":
        return { k: "block", body: this.stmts(s.body, new Map(env), cx) };
    }
  }

  /** The type of a `const` of a function body: declared, or the initializer's. */
  letType(e: Extract<Expr, { k: "let" }>, env: Env, cx: Ctx): Ty {
    const ty = e.ty.k === "unknown" ? this.typeOf(e.e, env, cx) : e.ty;
    if (ty.k === "unknown" || (ty.k === "seq" && ty.elem.k === "unknown")) {
      throw new TranslateError(e.pos, `cannot infer the type of ${e.name}: add a type annotation`);
    }
    return ty;
  }

  /**
   * A function body in the pure form: its top-level consts and ifs take the result type as
   * their expectation (a printer lays them out over lines), the rest is an expression.
   */
  body(e: Expr, env: Env, cx: Ctx, expect: Ty): RExpr {
    if (e.k === "let") {
      const ty = this.letType(e, env, cx);
      const inner = new Map(env);
      inner.set(e.name, ty);
      const name = this.varName(e.name, e.pos);
      const rty = known(ty, e.pos);
      const init = this.expr(e.e, env, cx, ty);
      return { k: "let", name, ty: rty, e: init, body: this.body(e.body, inner, cx, expect) };
    }
    if (e.k === "cond") {
      const c = this.expr(e.c, env, cx, BOOL);
      const t = this.body(e.t, env, cx, expect);
      return { k: "cond", c, t, f: this.body(e.f, env, cx, expect) };
    }
    return this.expr(e, env, cx, expect);
  }

  fn(f: Fn, mod: Module): RFn {
    const entry = this.info.fns.get(f.name);
    if (!entry) throw new TranslateError(f.pos, `internal: ${f.name} missing from program info`);
    for (const p of f.params) checkTy(this.info, p.ty, f.pos, f.tparams);
    checkTy(this.info, f.ret, f.pos, f.tparams);
    const env: Env = new Map(f.params.map((p) => [p.name, p.ty]));
    const params: RParam[] = f.params.map((p) => {
      const name = this.varName(p.name, f.pos);
      return { name, ty: known(p.ty, f.pos) };
    });
    const name = this.spell(f.name, f.pos);
    const ret = known(f.ret, f.pos);
    if (f.spec && entry.kind === "method")
      throw new TranslateError(f.pos, `//@ spec function ${f.name} calls a method: it must be a Dafny function`);
    const base: Ctx = { module: mod, fn: f, result: null, inSpec: true };
    const withResult: Ctx = { ...base, result: f.ret };
    const requires = f.requires.map((r) => this.spec(r, env, base));
    const ensures = f.ensures.map((q) => this.spec(q, env, withResult));
    const decreases = f.decreases.map((d) => this.expr(d, env, base, null));
    const out: RFn = {
      name,
      kind: entry.kind,
      extern: f.extern,
      tparams: f.tparams,
      params,
      ret,
      requires,
      ensures,
      decreases,
      body: null,
    };
    if (f.extern) return out;
    const code: Ctx = { module: mod, fn: f, result: f.ret, inSpec: false };
    if (entry.kind === "function" && f.pureExpr) {
      out.body = { k: "pure", e: this.body(f.pureExpr, env, code, f.ret) };
    } else {
      const locals = new Map(env);
      out.body = { k: "stmts", stmts: this.stmts(f.stmts, locals, code) };
    }
    return out;
  }
}

/** Resolves one module against the program table, spelling names with `spell`. */
export function resolveModule(mod: Module, info: ProgramInfo, spell: Spell): RModule {
  const r = new Resolver(info, spell);
  const types: RTypeDecl[] = mod.types.map((t) => {
    if (t.k === "union") return { k: "union", name: t.name, ctors: t.tags.map((x) => spell(x.ctor, t.pos)) };
    for (const f of t.fields) checkTy(info, f.ty, t.pos, []);
    return {
      k: "record",
      name: t.name,
      fields: t.fields.map((f) => {
        const name = spell(f.name, t.pos);
        return { name, ty: known(f.ty, t.pos) };
      }),
    };
  });
  return {
    name: mod.name,
    source: mod.source,
    imports: mod.imports,
    companion: mod.companion,
    types,
    fns: mod.fns.map((f) => r.fn(f, mod)),
    exactBound: r.exactBound,
  };
}
