// Parser for `//@` specification expressions: TypeScript expression syntax plus `==>`,
// `<==>`, `forall(k: nat, P)`, `exists(k: nat, P)`, `equal(a, b)` and `\result`. TypeScript's own parser
// cannot read the extra operators, so specs get this small precedence-climbing parser.

import { type BinOp, type Expr, type Pos, TranslateError, type Ty, VALUE_EQUALITY } from "../ir/ir.ts";
import { forEachChild } from "../ir/walk.ts";
import { type Segment, segmentPos } from "./annotations.ts";

interface Token {
  kind: "id" | "num" | "str" | "op" | "eof";
  text: string;
  offset: number;
}

const OPERATORS = [
  "<==>",
  "===",
  "!==",
  "==>",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "!",
  "?",
  ":",
  "(",
  ")",
  "[",
  "]",
  ".",
  ",",
];

function tokenize(src: string, at: (offset: number) => Pos): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (src.startsWith("\\result", i)) {
      out.push({ kind: "id", text: "\\result", offset: i });
      i += 7;
      continue;
    }
    const id = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i));
    if (id) {
      out.push({ kind: "id", text: id[0], offset: i });
      i += id[0].length;
      continue;
    }
    const num = /^[0-9][0-9_]*/.exec(src.slice(i));
    if (num) {
      out.push({ kind: "num", text: num[0].replace(/_/g, ""), offset: i });
      i += num[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = src.indexOf(ch, i + 1);
      if (end < 0) throw new TranslateError(at(i), "unterminated string literal in spec");
      out.push({ kind: "str", text: src.slice(i + 1, end), offset: i });
      i = end + 1;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new TranslateError(at(i), `unsupported character '${ch}' in spec`);
    out.push({ kind: "op", text: op, offset: i });
    i += op.length;
  }
  out.push({ kind: "eof", text: "", offset: src.length });
  return out;
}

// Binary operators by precedence level, loosest first. `==>` is right-associative.
const LEVELS: Array<{ ops: string[]; right?: boolean }> = [
  { ops: ["<==>"] },
  { ops: ["==>"], right: true },
  { ops: ["||"] },
  { ops: ["&&"] },
  { ops: ["===", "!==", "==", "!="] },
  { ops: ["<", "<=", ">", ">="] },
  { ops: ["+", "-"] },
  { ops: ["*", "/", "%"] },
];

const TERNARY_LEVEL = 2; // `c ? a : b` binds looser than || and tighter than ==>

function normalizeOp(op: string, pos: Pos): BinOp {
  if (op === "===") return "==";
  if (op === "!==") return "!=";
  if (op === "%")
    throw new TranslateError(pos, "unsupported operator '%' (JavaScript and Dafny disagree on negative operands)");
  return op as BinOp;
}

/**
 * Parses one spec expression; `base` is the position of its first character, `segments`
 * (when the spec continues over several `//@` lines) where each line's text starts, and
 * `isVariable` whether a name is a variable where the spec stands (TypeScript's resolution).
 */
export function parseSpec(
  src: string,
  base: Pos,
  segments: readonly Segment[] | undefined,
  isVariable: (name: string) => boolean,
): Expr {
  // the variables the quantifiers around the current position bind: they shadow every other name
  const bound: string[] = [];
  const at = (offset: number): Pos => segmentPos(segments ?? [{ start: 0, pos: base }], offset);
  const toks = tokenize(src, at);
  let p = 0;
  const peek = (): Token => toks[p];
  const next = (): Token => toks[p++];
  const isOp = (text: string): boolean => peek().kind === "op" && peek().text === text;
  const expect = (text: string): void => {
    const t = next();
    if (t.kind !== "op" || t.text !== text) {
      throw new TranslateError(at(t.offset), `expected '${text}' in spec, found '${t.text || "end of spec"}'`);
    }
  };

  const parseLevel = (level: number): Expr => {
    if (level >= LEVELS.length) return parseUnary();
    const left = parseOps(level);
    if (level === TERNARY_LEVEL && isOp("?")) {
      const q = next();
      const t = parseLevel(0);
      expect(":");
      const f = parseLevel(0);
      return { k: "cond", c: left, t, f, pos: at(q.offset) };
    }
    return left;
  };

  const parseOps = (level: number): Expr => {
    const { ops, right } = LEVELS[level];
    let left = parseLevel(level + 1);
    while (peek().kind === "op" && ops.includes(peek().text)) {
      const t = next();
      const pos = at(t.offset);
      const rhs = right ? parseLevel(level) : parseLevel(level + 1);
      left = { k: "bin", op: normalizeOp(t.text, pos), l: left, r: rhs, pos };
      if (right) break;
    }
    return left;
  };

  const parseUnary = (): Expr => {
    if (isOp("!")) {
      const t = next();
      return { k: "not", e: parseUnary(), pos: at(t.offset) };
    }
    if (isOp("-")) {
      const t = next();
      return { k: "neg", e: parseUnary(), pos: at(t.offset) };
    }
    return parsePostfix(parsePrimary());
  };

  const parseArgs = (): Expr[] => {
    const args: Expr[] = [];
    expect("(");
    if (!isOp(")")) {
      args.push(parseLevel(0));
      while (isOp(",")) {
        next();
        args.push(parseLevel(0));
      }
    }
    expect(")");
    return args;
  };

  const parsePostfix = (e0: Expr): Expr => {
    let e = e0;
    for (;;) {
      if (isOp("[")) {
        const t = next();
        const i = parseLevel(0);
        expect("]");
        e = { k: "index", e, i, pos: at(t.offset) };
      } else if (isOp(".")) {
        next();
        const name = next();
        if (name.kind !== "id") throw new TranslateError(at(name.offset), "expected a field name after '.'");
        const pos = at(name.offset);
        if (name.text === "length") e = { k: "len", e, pos };
        else if (name.text === "slice" && isOp("(")) {
          const args = parseArgs();
          if (args.length > 2) throw new TranslateError(pos, "slice takes at most two arguments");
          e = { k: "slice", e, lo: args[0] ?? null, hi: args[1] ?? null, pos };
        } else if (e.k === "var" && !bound.includes(e.name) && !isVariable(e.name)) {
          // `X.f` where X is no variable (as TypeScript resolves X here): a member of the type X
          e = { k: "member", type: e.name, name: name.text, pos };
        } else e = { k: "field", e, name: name.text, pos };
      } else return e;
    }
  };

  const parseQuant = (q: "forall" | "exists", pos: Pos): Expr => {
    expect("(");
    const v = next();
    if (v.kind !== "id") throw new TranslateError(at(v.offset), `expected a bound variable in ${q}`);
    expect(":");
    const tyTok = next();
    let ty: Ty;
    if (tyTok.text === "nat") ty = { k: "nat" };
    else if (tyTok.text === "int" || tyTok.text === "number") ty = { k: "int" };
    else throw new TranslateError(at(tyTok.offset), `unsupported bound variable type '${tyTok.text}' (use nat or int)`);
    expect(",");
    bound.push(v.text);
    const body = parseLevel(0);
    bound.pop();
    expect(")");
    return { k: "quant", q, v: v.text, ty, body, pos };
  };

  const parsePrimary = (): Expr => {
    const t = next();
    const pos = at(t.offset);
    switch (t.kind) {
      case "num":
        return { k: "num", v: t.text, pos };
      case "str":
        return { k: "str", v: t.text, pos };
      case "id": {
        if (t.text === "\\result") return { k: "result", pos };
        if (t.text === "true" || t.text === "false") return { k: "bool", v: t.text === "true", pos };
        if ((t.text === "forall" || t.text === "exists") && isOp("(")) return parseQuant(t.text, pos);
        if (t.text === "Math" && isOp(".")) {
          next();
          const m = next();
          if (m.text === "floor") {
            const args = parseArgs();
            const q = args[0];
            if (args.length !== 1 || q.k !== "bin" || q.op !== "/")
              throw new TranslateError(pos, "unsupported Math.floor in spec (only Math.floor(a / b))");
            rejectDivision(q.l);
            rejectDivision(q.r);
            const d = floorDiv(q.l, q.r, pos);
            divisions.add(d);
            if (d.k === "cond") {
              divisions.add(d.t);
              divisions.add(d.f);
            }
            return d;
          }
          if (m.text !== "max" && m.text !== "min") throw new TranslateError(pos, `unsupported Math.${m.text} in spec`);
          const args = parseArgs();
          if (args.length !== 2) throw new TranslateError(pos, `Math.${m.text} takes two arguments`);
          return { k: "minmax", op: m.text, a: args[0], b: args[1], pos };
        }
        if (t.text === VALUE_EQUALITY && isOp("(")) {
          const args = parseArgs();
          if (args.length !== 2) throw new TranslateError(pos, `${VALUE_EQUALITY} takes two arguments`);
          return { k: "bin", op: "==", l: args[0], r: args[1], pos, value: true };
        }
        if (isOp("(")) return { k: "call", fn: t.text, args: parseArgs(), pos };
        return { k: "var", name: t.text, pos };
      }
      case "op":
        if (t.text === "(") {
          const e = parseLevel(0);
          expect(")");
          return e;
        }
        throw new TranslateError(pos, `unexpected '${t.text}' in spec`);
      default:
        throw new TranslateError(pos, "unexpected end of spec");
    }
  };

  // `/` is JavaScript's real division: only Math.floor(a / b) has an integer meaning (and
  // Dafny's `/` is Euclidean, so floorDiv spells it out)
  const divisions = new WeakSet<Expr>();
  const rejectDivision = (x: Expr): void => {
    if (x.k === "bin" && x.op === "/" && !divisions.has(x)) {
      throw new TranslateError(x.pos, "unsupported operator '/' in spec (write Math.floor(a / b))");
    }
    forEachChild(x, rejectDivision);
  };

  const e = parseLevel(0);
  const rest = peek();
  if (rest.kind !== "eof") throw new TranslateError(at(rest.offset), `unexpected '${rest.text}' after spec expression`);
  rejectDivision(e);
  return e;
}

/**
 * Math.floor(a / b). Dafny's `/` is Euclidean: it is the floor only for b > 0, so a divisor
 * that is not a positive literal divides the negated operands when it is negative
 * (floor(a / b) = floor(-a / -b)). A zero divisor stays a proof obligation.
 */
export function floorDiv(a: Expr, b: Expr, pos: Pos): Expr {
  if (b.k === "num" && !/^0+$/.test(b.v)) return { k: "bin", op: "/", l: a, r: b, pos };
  const zero: Expr = { k: "num", v: "0", pos };
  return {
    k: "cond",
    c: { k: "bin", op: ">", l: b, r: zero, pos },
    t: { k: "bin", op: "/", l: a, r: b, pos },
    f: { k: "bin", op: "/", l: { k: "neg", e: a, pos }, r: { k: "neg", e: b, pos }, pos },
    pos,
  };
}
