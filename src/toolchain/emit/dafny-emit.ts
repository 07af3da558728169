// Stage: print Dafny. Input: one resolved module (ir/resolved-ir.ts), its names already in
// Dafny's spelling (dafny-names.ts). Output: its Dafny source, in Dafny 4 spelling
// (`function` for compiled functions; dialect.ts rewrites it for Dafny 2.3). It only lays the
// module out as text: it infers no type, resolves no name and reports no error (resolve.ts
// does all three before it runs).

import type { Pos } from "../ir/ir.ts";
import { MAX_SAFE, type RExpr, type RFn, type RModule, type RStmt, type RTy } from "../ir/resolved-ir.ts";

/** Brackets around a source position inside the printed text (no printed Dafny holds these characters). */
const MARK = "⟦";
const MARK_END = "⟧";
const MARKS = /⟦(\d+):(\d+)⟧/g;

function tyText(t: RTy): string {
  switch (t.k) {
    case "int":
    case "nat":
    case "bool":
      return t.k;
    case "seq":
      return `seq<${tyText(t.elem)}>`;
    case "named":
    case "tparam":
      return t.name;
  }
}

/** Expressions that need parentheses as an operand. */
const COMPOUND = new Set<RExpr["k"]>(["bin", "cond", "quant", "let", "minmax", "neg", "not"]);

/** An expression on one line; `result` is how `\result` reads where it stands. */
function expr(e: RExpr, result: string): string {
  const wrap = (x: RExpr): string => {
    const s = expr(x, result);
    return COMPOUND.has(x.k) ? `(${s})` : s;
  };
  switch (e.k) {
    case "num":
      return e.v;
    case "bool":
      return e.v ? "true" : "false";
    case "var":
      return e.name;
    case "result":
      return result;
    case "ctor":
      return `${e.type}.${e.ctor}`;
    case "bin":
      return `${wrap(e.l)} ${e.op === "concat" ? "+" : e.op} ${wrap(e.r)}`;
    case "not":
      return `!${wrap(e.e)}`;
    case "neg":
      return `-${wrap(e.e)}`;
    case "exact":
      // the mark records where the TypeScript's arithmetic stands; emitModuleMapped removes it
      return `${MARK}${e.at.line}:${e.at.col}${MARK_END}${e.fn}(${expr(e.e, result)})`;
    case "cond":
      return `if ${expr(e.c, result)} then ${expr(e.t, result)} else ${expr(e.f, result)}`;
    case "index":
      return `${wrap(e.e)}[${expr(e.i, result)}]`;
    case "len":
      return `|${expr(e.e, result)}|`;
    case "slice":
      return `${wrap(e.e)}[${e.lo ? expr(e.lo, result) : ""}..${e.hi ? expr(e.hi, result) : ""}]`;
    case "update":
      return `${wrap(e.e)}[${expr(e.i, result)} := ${expr(e.v, result)}]`;
    case "field":
      return `${wrap(e.e)}.${e.name}`;
    case "call":
      return `${e.fn}(${e.args.map((a) => expr(a, result)).join(", ")})`;
    case "record":
      return `${e.type}(${e.args.map((a) => expr(a, result)).join(", ")})`;
    case "seqlit":
      return `[${e.elems.map((x) => expr(x, result)).join(", ")}]`;
    case "quant":
      return `${e.q} ${e.v}: ${tyText(e.ty)} :: ${expr(e.body, result)}`;
    case "minmax": {
      const a = wrap(e.a);
      const b = wrap(e.b);
      return `if ${a} ${e.op === "max" ? ">=" : "<="} ${b} then ${a} else ${b}`;
    }
    case "let":
      return `var ${e.name}: ${tyText(e.ty)} := ${expr(e.e, result)}; ${expr(e.body, result)}`;
  }
}

/** Method statements, indented by `ind`; `\result` reads `result` in code. */
function stmts(list: RStmt[], ind: string): string[] {
  return list.flatMap((s) => stmt(s, ind));
}

function stmt(s: RStmt, ind: string): string[] {
  const inner = `${ind}  `;
  const x = (e: RExpr) => expr(e, "result");
  switch (s.k) {
    case "var":
      return [`${ind}var ${s.name}: ${tyText(s.ty)} := ${x(s.init)};`];
    case "assign":
      return [`${ind}${s.name} := ${x(s.e)};`];
    case "if": {
      const out = [`${ind}if ${x(s.c)} {`, ...stmts(s.t, inner)];
      if (s.f.length > 0) out.push(`${ind}} else {`, ...stmts(s.f, inner));
      out.push(`${ind}}`);
      return out;
    }
    case "while": {
      const out = [`${ind}while ${x(s.c)}`];
      for (const i of s.invariants) out.push(`${inner}invariant ${x(i)}`);
      if (s.decreases.length > 0) out.push(`${inner}decreases ${s.decreases.map(x).join(", ")}`);
      out.push(`${ind}{`, ...stmts(s.body, inner), `${ind}}`);
      return out;
    }
    case "break":
      return [`${ind}break;`];
    case "return":
      // Dafny allows a method call only as a whole right-hand side, not inside `return`
      if (s.e.k === "call" && s.e.method) return [`${ind}result := ${x(s.e)};`, `${ind}return;`];
      return [`${ind}return ${x(s.e)};`];
    case "assert":
      return [`${ind}assert ${x(s.e)};`];
    case "use":
      return [`${ind}${x(s.call)};`];
    case "block":
      return [`${ind}{`, ...stmts(s.body, inner), `${ind}}`];
  }
}

/** A function body in the pure form, laid out over lines: top-level consts and ifs get their own. */
function body(e: RExpr, ind: string): string[] {
  if (e.k === "let") return [`${ind}var ${e.name}: ${tyText(e.ty)} := ${expr(e.e, "result")};`, ...body(e.body, ind)];
  if (e.k === "cond") {
    return [`${ind}if ${expr(e.c, "result")} then`, ...body(e.t, `${ind}  `), `${ind}else`, ...body(e.f, `${ind}  `)];
  }
  return [`${ind}${expr(e, "result")}`];
}

function fn(f: RFn): string[] {
  const tps = f.tparams.length > 0 ? `<${f.tparams.join(", ")}>` : "";
  const params = f.params.map((p) => `${p.name}: ${tyText(p.ty)}`).join(", ");
  const isFunction = f.kind === "function";
  // in a function's ensures the result is the function applied to its parameters
  const resultText = isFunction ? `${f.name}(${f.params.map((p) => p.name).join(", ")})` : "result";
  const out: string[] = [];
  if (f.extern) out.push("// extern: the body is trusted, not translated (listed in proofs/PROPERTIES.md)");
  out.push(
    isFunction
      ? `function ${f.extern ? "{:axiom} " : ""}${f.name}${tps}(${params}): ${tyText(f.ret)}`
      : `method ${f.name}${tps}(${params}) returns (result: ${tyText(f.ret)})`,
  );
  for (const r of f.requires) out.push(`  requires ${expr(r, "result")}`);
  for (const q of f.ensures) out.push(`  ensures ${expr(q, resultText)}`);
  if (f.decreases.length > 0) out.push(`  decreases ${f.decreases.map((d) => expr(d, "result")).join(", ")}`);
  if (f.body?.k === "pure") out.push("{", ...body(f.body.e, "  "), "}");
  else if (f.body?.k === "stmts") out.push("{", ...stmts(f.body.stmts, "  "), "}");
  return out;
}

/** Where a proof obligation of the generated Dafny comes from in the TypeScript. */
export interface Origin {
  /** 1-based line of the generated file */
  line: number;
  /** 0-based column where the obligation's call starts on that line */
  col: number;
  /** where the arithmetic stands in the kernel source */
  at: Pos;
}

/** The Dafny text of one resolved module (Dafny 4 spelling). */
export function emitModule(mod: RModule): string {
  return emitModuleMapped(mod).text;
}

/** The Dafny text of one resolved module, and where each safe-integer obligation in it comes from. */
export function emitModuleMapped(mod: RModule): { text: string; origins: Origin[] } {
  const origins: Origin[] = [];
  const marked = emitMarked(mod).split("\n");
  const text = marked
    .map((l, i) =>
      l.replace(MARKS, (_m, line: string, col: string, offset: number, whole: string) => {
        const before = whole.slice(0, offset).replace(MARKS, "");
        origins.push({
          line: i + 1,
          col: before.length,
          at: { file: mod.source, line: Number(line), col: Number(col) },
        });
        return "";
      }),
    )
    .join("\n");
  return { text, origins };
}

function emitMarked(mod: RModule): string {
  const lines: string[] = [
    `// Generated by safecut's translator from ${mod.source}. Do not edit: run \`npm run gen\`.`,
    "",
  ];
  for (const i of mod.imports) lines.push(`include "${i}.dfy"`);
  if (mod.companion) lines.push(`include "../proofs/dafny/${mod.companion}.dfy"`);
  if (mod.imports.length > 0 || mod.companion) lines.push("");
  for (const t of mod.types) {
    if (t.k === "union") lines.push(`datatype ${t.name} = ${t.ctors.join(" | ")}`, "");
    else
      lines.push(`datatype ${t.name} = ${t.name}(${t.fields.map((f) => `${f.name}: ${tyText(f.ty)}`).join(", ")})`, "");
  }
  if (mod.exactBound !== null)
    lines.push(
      "// A number code computes is a safe integer (a double holds it exactly): each + - * of code",
      "// and each dividend of a floor division goes through this bound, whose requires is proven at every use.",
      `function ${mod.exactBound}(x: int): int`,
      `  requires -${MAX_SAFE} <= x <= ${MAX_SAFE}`,
      "{",
      "  x",
      "}",
      "",
    );
  for (const f of mod.fns) lines.push(...fn(f), "");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return `${lines.join("\n")}\n`;
}
