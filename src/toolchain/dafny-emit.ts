// From the IR to Dafny source, in Dafny 4 spelling (`function` for compiled functions).
// The emitter types expressions itself (ints, bools, sequences, declared datatypes): string
// literals and object literals take their datatype from the position they stand in.

import { dafnyName } from "./dafny-names.ts";
import { type Expr, type Fn, type Module, type Pos, type Stmt, TranslateError, type Ty, VALUE_EQUALITY } from "./ir.ts";
import type { ProgramInfo } from "./program-info.ts";
import { BOOL, checkTy, compatible, describeTy, type Env, memberAsField, substitute, typeOf, unify } from "./typing.ts";

function tyText(t: Ty, pos: Pos): string {
  switch (t.k) {
    case "int":
      return "int";
    case "nat":
      return "nat";
    case "bool":
      return "bool";
    case "seq":
      return `seq<${tyText(t.elem, pos)}>`;
    case "named":
    case "tparam":
      return t.name;
    case "unknown":
      throw new TranslateError(pos, "cannot infer a type here: add a type annotation");
  }
}

interface Ctx {
  info: ProgramInfo;
  module: Module;
  /** what `\result` stands for */
  result: { text: string; ty: Ty } | null;
  inSpec: boolean;
}

class Emitter {
  constructor(readonly info: ProgramInfo) {}

  typeOf(e: Expr, env: Env, cx: Ctx): Ty {
    return typeOf(this.info, e, env, cx.result?.ty ?? null);
  }

  /** Renders an expression; `expect` is the type its position requires, when known. */
  expr(e: Expr, env: Env, cx: Ctx, expect: Ty | null): string {
    const wrap = (x: Expr, ex: Ty | null): string => {
      const s = this.expr(x, env, cx, ex);
      return ["bin", "cond", "quant", "let", "minmax", "neg", "not"].includes(x.k) ? `(${s})` : s;
    };
    switch (e.k) {
      case "num":
        return e.v;
      case "bool":
        return e.v ? "true" : "false";
      case "var":
        this.typeOf(e, env, cx);
        return dafnyName(e.name, e.pos);
      case "result":
        if (!cx.result) throw new TranslateError(e.pos, "\\result is only allowed in ensures");
        return cx.result.text;
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
        return `${expect.name}.${c}`;
      }
      case "member": {
        // a capitalised variable in scope is a variable, as in JavaScript, not a type's member
        if (env.has(e.type)) return this.expr(memberAsField(e), env, cx, expect);
        const u = this.info.unions.get(e.type);
        if (!u) throw new TranslateError(e.pos, `unknown enum ${e.type}`);
        if (!u.ctors.has(e.name)) throw new TranslateError(e.pos, `${e.name} is not a member of ${e.type}`);
        return `${e.type}.${dafnyName(e.name, e.pos)}`;
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
          return `${wrap(e.l, rt.k === "unknown" ? null : rt)} ${e.op} ${wrap(e.r, lt.k === "unknown" ? null : lt)}`;
        }
        if (e.op === "concat") {
          const lt = this.typeOf(e.l, env, cx);
          return `${wrap(e.l, lt)} + ${wrap(e.r, lt)}`;
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
          return `${wrap(e.l, null)} ${e.op} ${wrap(e.r, null)}`;
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
        return `${wrap(e.l, null)} ${e.op} ${wrap(e.r, null)}`;
      }
      case "not":
        return `!${wrap(e.e, null)}`;
      case "neg":
        return `-${wrap(e.e, null)}`;
      case "cond": {
        const t = expect ?? this.typeOf(e, env, cx);
        const ex = t.k === "unknown" ? null : t;
        return `if ${this.expr(e.c, env, cx, null)} then ${this.expr(e.t, env, cx, ex)} else ${this.expr(e.f, env, cx, ex)}`;
      }
      case "index": {
        this.typeOf(e, env, cx);
        return `${wrap(e.e, null)}[${this.expr(e.i, env, cx, null)}]`;
      }
      case "len": {
        const t = this.typeOf(e.e, env, cx);
        if (t.k === "named") return this.expr({ k: "field", e: e.e, name: "length", pos: e.pos }, env, cx, expect);
        if (t.k !== "seq") throw new TranslateError(e.pos, ".length of something that is not an array");
        return `|${this.expr(e.e, env, cx, null)}|`;
      }
      case "slice": {
        if (this.typeOf(e.e, env, cx).k !== "seq")
          throw new TranslateError(e.pos, ".slice of something that is not an array");
        const lo = e.lo ? this.expr(e.lo, env, cx, null) : "";
        const hi = e.hi ? this.expr(e.hi, env, cx, null) : "";
        return `${wrap(e.e, null)}[${lo}..${hi}]`;
      }
      case "update": {
        const t = this.typeOf(e.e, env, cx);
        if (t.k !== "seq") throw new TranslateError(e.pos, "element assignment on something that is not an array");
        return `${wrap(e.e, null)}[${this.expr(e.i, env, cx, null)} := ${this.expr(e.v, env, cx, t.elem)}]`;
      }
      case "field": {
        this.typeOf(e, env, cx);
        return `${wrap(e.e, null)}.${dafnyName(e.name, e.pos)}`;
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
        return `${name}(${args.join(", ")})`;
      }
      case "seqlit": {
        const elem = expect && expect.k === "seq" ? expect.elem : null;
        return `[${e.elems.map((x) => this.expr(x, env, cx, elem)).join(", ")}]`;
      }
      case "quant": {
        if (!cx.inSpec) throw new TranslateError(e.pos, `${e.q} is only allowed in specifications`);
        const inner = new Map(env);
        inner.set(e.v, e.ty);
        return `${e.q} ${dafnyName(e.v, e.pos)}: ${tyText(e.ty, e.pos)} :: ${this.expr(e.body, inner, cx, null)}`;
      }
      case "minmax": {
        const a = wrap(e.a, null);
        const b = wrap(e.b, null);
        return `if ${a} ${e.op === "max" ? ">=" : "<="} ${b} then ${a} else ${b}`;
      }
      case "let": {
        const ty = this.letType(e, env, cx);
        const inner = new Map(env);
        inner.set(e.name, ty);
        return `var ${dafnyName(e.name, e.pos)}: ${tyText(ty, e.pos)} := ${this.expr(e.e, env, cx, ty)}; ${this.expr(e.body, inner, cx, expect)}`;
      }
    }
  }

  /** A call; `asStatement` is true where Dafny allows a method call (whole right-hand side). */
  call(e: Extract<Expr, { k: "call" }>, env: Env, cx: Ctx, asStatement: boolean): string {
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
      return `${dafnyName(e.fn, e.pos)}(${args.join(", ")})`;
    }
    const companion = [...(this.info.reach.get(cx.module.name) ?? [])].some((m) =>
      this.info.companionNames.get(m)?.has(e.fn),
    );
    if (companion && cx.inSpec) return `${e.fn}(${e.args.map((a) => this.expr(a, env, cx, null)).join(", ")})`;
    if (companion)
      throw new TranslateError(
        e.pos,
        `${e.fn} is proof material (from proofs/dafny): use it only in specifications and //@ use`,
      );
    throw new TranslateError(e.pos, `call to unknown function ${e.fn} (not a verified kernel function)`);
  }

  /** A right-hand side: a method call where Dafny allows one, any expression otherwise. */
  rhs(e: Expr, env: Env, cx: Ctx, expect: Ty | null): string {
    return e.k === "call" ? this.call(e, env, cx, true) : this.expr(e, env, cx, expect);
  }

  stmts(list: Stmt[], env: Env, cx: Ctx, indent: string): string[] {
    const out: string[] = [];
    for (const s of list) out.push(...this.stmt(s, env, cx, indent));
    return out;
  }

  spec(e: Expr, env: Env, cx: Ctx): string {
    return this.expr(e, env, { ...cx, inSpec: true }, BOOL);
  }

  stmt(s: Stmt, env: Env, cx: Ctx, ind: string): string[] {
    const inner = `${ind}  `;
    switch (s.k) {
      case "var": {
        const ty = s.ty.k === "unknown" ? this.typeOf(s.init, env, cx) : s.ty;
        if (ty.k === "unknown" || (ty.k === "seq" && ty.elem.k === "unknown")) {
          throw new TranslateError(s.pos, `cannot infer the type of ${s.name}: add a type annotation`);
        }
        const line = `${ind}var ${dafnyName(s.name, s.pos)}: ${tyText(ty, s.pos)} := ${this.rhs(s.init, env, cx, ty)};`;
        env.set(s.name, ty);
        return [line];
      }
      case "assign": {
        const ty = env.get(s.name);
        if (!ty) throw new TranslateError(s.pos, `assignment to unknown variable ${s.name}`);
        return [`${ind}${dafnyName(s.name, s.pos)} := ${this.rhs(s.e, env, cx, ty)};`];
      }
      case "if": {
        const out = [`${ind}if ${this.expr(s.c, env, cx, BOOL)} {`, ...this.stmts(s.t, new Map(env), cx, inner)];
        if (s.f.length > 0) out.push(`${ind}} else {`, ...this.stmts(s.f, new Map(env), cx, inner));
        out.push(`${ind}}`);
        return out;
      }
      case "while": {
        const out = [`${ind}while ${this.expr(s.c, env, cx, BOOL)}`];
        for (const i of s.invariants) out.push(`${inner}invariant ${this.spec(i, env, cx)}`);
        if (s.decreases.length > 0)
          out.push(
            `${inner}decreases ${s.decreases.map((d) => this.expr(d, env, { ...cx, inSpec: true }, null)).join(", ")}`,
          );
        out.push(`${ind}{`, ...this.stmts(s.body, new Map(env), cx, inner), `${ind}}`);
        return out;
      }
      case "break":
        return [`${ind}break;`];
      case "continue":
        throw new TranslateError(s.pos, "continue outside a loop");
      case "return": {
        if (!cx.result) throw new TranslateError(s.pos, "return with a value in a function without a result");
        if (s.e.k === "call" && this.info.fns.get(s.e.fn)?.kind === "method") {
          return [`${ind}result := ${this.call(s.e, env, cx, true)};`, `${ind}return;`];
        }
        return [`${ind}return ${this.expr(s.e, env, cx, cx.result.ty)};`];
      }
      case "assert":
        return [`${ind}assert ${this.spec(s.e, env, cx)};`];
      case "use": {
        if (s.call.k !== "call") throw new TranslateError(s.pos, "//@ use expects a lemma call");
        if (this.info.fns.has(s.call.fn))
          throw new TranslateError(
            s.call.pos,
            `//@ use calls ${s.call.fn}, a kernel function: it takes a lemma of the proof companion`,
          );
        return [`${ind}${this.call(s.call, env, { ...cx, inSpec: true }, false)};`];
      }
      case "block":
        return [`${ind}{`, ...this.stmts(s.body, new Map(env), cx, inner), `${ind}}`];
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

  /** A function body in the pure form, laid out over lines. */
  body(e: Expr, env: Env, cx: Ctx, ind: string, expect: Ty): string[] {
    if (e.k === "let") {
      const ty = this.letType(e, env, cx);
      const inner = new Map(env);
      inner.set(e.name, ty);
      return [
        `${ind}var ${dafnyName(e.name, e.pos)}: ${tyText(ty, e.pos)} := ${this.expr(e.e, env, cx, ty)};`,
        ...this.body(e.body, inner, cx, ind, expect),
      ];
    }
    if (e.k === "cond") {
      return [
        `${ind}if ${this.expr(e.c, env, cx, BOOL)} then`,
        ...this.body(e.t, env, cx, `${ind}  `, expect),
        `${ind}else`,
        ...this.body(e.f, env, cx, `${ind}  `, expect),
      ];
    }
    return [`${ind}${this.expr(e, env, cx, expect)}`];
  }

  fn(f: Fn, mod: Module): string[] {
    const entry = this.info.fns.get(f.name);
    if (!entry) throw new TranslateError(f.pos, `internal: ${f.name} missing from program info`);
    for (const p of f.params) checkTy(this.info, p.ty, f.pos, f.tparams);
    checkTy(this.info, f.ret, f.pos, f.tparams);
    const env: Env = new Map(f.params.map((p) => [p.name, p.ty]));
    const tps = f.tparams.length > 0 ? `<${f.tparams.join(", ")}>` : "";
    const params = f.params.map((p) => `${dafnyName(p.name, f.pos)}: ${tyText(p.ty, f.pos)}`).join(", ");
    const name = dafnyName(f.name, f.pos);
    const isFunction = entry.kind === "function";
    const resultText = isFunction ? `${name}(${f.params.map((p) => dafnyName(p.name, f.pos)).join(", ")})` : "result";
    const base: Ctx = { info: this.info, module: mod, result: null, inSpec: true };
    const withResult: Ctx = { ...base, result: { text: resultText, ty: f.ret } };
    const out: string[] = [];
    if (f.extern) out.push("// extern: the body is trusted, not translated (listed in proofs/PROPERTIES.md)");
    out.push(
      isFunction
        ? `function ${f.extern ? "{:axiom} " : ""}${name}${tps}(${params}): ${tyText(f.ret, f.pos)}`
        : `method ${name}${tps}(${params}) returns (result: ${tyText(f.ret, f.pos)})`,
    );
    for (const r of f.requires) out.push(`  requires ${this.spec(r, env, base)}`);
    for (const q of f.ensures) out.push(`  ensures ${this.spec(q, env, withResult)}`);
    if (f.decreases.length > 0)
      out.push(`  decreases ${f.decreases.map((d) => this.expr(d, env, base, null)).join(", ")}`);
    if (f.extern) return out;
    const code: Ctx = { info: this.info, module: mod, result: { text: "result", ty: f.ret }, inSpec: false };
    if (isFunction && f.pureExpr) {
      out.push("{", ...this.body(f.pureExpr, env, code, "  ", f.ret), "}");
    } else {
      const locals = new Map(env);
      out.push("{", ...this.stmts(f.stmts, locals, code, "  "), "}");
    }
    return out;
  }
}

/** The Dafny text of one module (Dafny 4 spelling). */
export function emitModule(mod: Module, info: ProgramInfo): string {
  const em = new Emitter(info);
  const lines: string[] = [
    `// Generated by safecut's translator from ${mod.source}. Do not edit: run \`npm run gen\`.`,
    "",
  ];
  for (const i of mod.imports) lines.push(`include "${i}.dfy"`);
  if (mod.companion) lines.push(`include "../proofs/dafny/${mod.companion}.dfy"`);
  if (mod.imports.length > 0 || mod.companion) lines.push("");
  for (const t of mod.types) {
    if (t.k === "union")
      lines.push(`datatype ${t.name} = ${t.tags.map((x) => dafnyName(x.ctor, t.pos)).join(" | ")}`, "");
    else {
      for (const f of t.fields) checkTy(info, f.ty, t.pos, []);
      lines.push(
        `datatype ${t.name} = ${t.name}(${t.fields.map((f) => `${dafnyName(f.name, t.pos)}: ${tyText(f.ty, t.pos)}`).join(", ")})`,
        "",
      );
    }
  }
  for (const f of mod.fns) lines.push(...em.fn(f, mod), "");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return `${lines.join("\n")}\n`;
}
