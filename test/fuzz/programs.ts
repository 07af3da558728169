// Random programs in the translator's subset (src/toolchain/SUBSET.md), for the program fuzzer:
// integer arithmetic (+ - *, floor division by a literal or a guarded variable, Math.max/min),
// comparisons, conditionals, for and while loops with break and continue, local arrays (push,
// element assignment, slice), records, string unions, and calls to a pure helper and to a helper
// with a loop. Every program is self-contained (its names carry its number, as the kernel shares
// one namespace) and total on every input the fuzzer gives it (indices and divisors guarded,
// loops bounded). Inputs range over all the safe integers, near +-(2^53 - 1) too, and assignments
// clamp to a bound the program picks (up to 2^52), so its arithmetic may leave the safe integers:
// the fuzzer runs the compiled Dafny with its safe-integer bound checked, and an input that breaks
// that bound is outside what the number model proves (any other difference is the translator's).
// Each program also carries contracts (contracted() below): the clamp helper and a linear function
// with requires and ensures written as //@ spec functions, which the fuzzer verifies for a sample.

/** A deterministic pseudo-random source (mulberry32). */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export const TAGS = ["red", "green", "blue"] as const;
export type Tag = (typeof TAGS)[number];

/** The result types a program's main function may have. */
const RESULTS = ["number", "boolean", "number[]", "record", "union"] as const;

/** One generated program: its TypeScript source and the name of the function to run. */
export interface Program {
  id: number;
  source: string;
  /** the exported function the fuzzer calls: (n, m, xs, r, u) */
  main: string;
  /** the part of `source` with contracts: the clamp helper and the linear function, with their spec functions (verified alone) */
  contracts: string;
}

/** The largest safe integer, 2^53 - 1. */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The bounds a program may clamp its assignments to: small, 2^26 (products stay safe) and 2^52 (sums stay safe). */
const CLAMPS = [1000, 2 ** 26, 2 ** 52] as const;

/** The bounds a linear function's requires may put on its arguments: 2^50 keeps four terms safe, the others may not. */
const LINEAR_BOUNDS = [1000, 2 ** 50, 2 ** 51, 2 ** 52, MAX_SAFE] as const;

/** Generates the statements and expressions of one function body. */
class Body {
  private readonly lines: string[] = [];
  private readonly nums: string[];
  private readonly bools: string[] = [];
  private counter = 0;
  private loops = 0;

  constructor(
    private readonly rng: Rng,
    private readonly p: string,
    params: string[],
    /** the main function (which has xs, r, u and the helpers) rather than the pure helper */
    private readonly main: boolean,
  ) {
    this.nums = [...params];
  }

  /** `e` clamped to the program's bound by its clamp helper (printed once in Dafny, unlike Math.min/max). */
  clamp(e: string): string {
    return `${this.p}c(${e})`;
  }

  private fresh(base: string): string {
    return `${base}${this.counter++}`;
  }

  private leaf(): string {
    const r = this.rng;
    const opts = [() => String(r.int(-9, 9)), () => r.pick(this.nums)];
    if (this.main)
      opts.push(
        () => "r.a",
        () => "xs.length",
      );
    return r.pick(opts)();
  }

  /** A number expression of at most `depth` levels. */
  num(depth: number): string {
    const r = this.rng;
    if (depth <= 0 || r.chance(0.25)) return this.leaf();
    const d = depth - 1;
    switch (r.int(0, 11)) {
      case 0:
        return `${this.num(d)} + ${this.num(d)}`;
      case 1:
        return `${this.num(d)} - ${this.wrapNum(d)}`;
      case 2:
        return `${this.leaf()} * ${this.leaf()}`;
      case 3:
        return `Math.floor(${this.wrapNum(d)} / ${r.pick([2, 3, 7, -2, -3])})`;
      case 4: {
        const v = r.pick(this.nums);
        return `(${v} === 0 ? 0 : Math.floor(${this.wrapNum(d)} / ${v}))`;
      }
      case 5:
        // Math.max/min print their operands twice in Dafny: leaves keep the text small
        return `Math.${r.pick(["max", "min"])}(${this.leaf()}, ${this.leaf()})`;
      case 6:
        return `(${this.bool(d)} ? ${this.num(d)} : ${this.num(d)})`;
      case 7:
        return `-(${this.leaf()})`;
      case 8:
        if (!this.main) return this.leaf();
        return `(xs.length > 0 ? xs[Math.min(Math.max(${this.num(d)}, 0), xs.length - 1)] : ${this.leaf()})`;
      case 9:
        return this.main ? `${this.p}h(${this.num(d)}, ${this.num(d)})` : this.leaf();
      case 10:
        return `(${this.num(d)} - ${this.num(d)}) - (${this.num(d)} - ${this.num(d)})`;
      default:
        return `${this.leaf()} - (${this.leaf()} - ${this.leaf()})`;
    }
  }

  private wrapNum(depth: number): string {
    return `(${this.num(depth)})`;
  }

  /** A boolean expression of at most `depth` levels. */
  bool(depth: number): string {
    const r = this.rng;
    const d = Math.max(depth - 1, 0);
    switch (r.int(0, depth <= 0 ? 2 : 7)) {
      case 0:
        return `${this.num(d)} ${r.pick(["<", "<=", ">", ">=", "===", "!=="])} ${this.num(d)}`;
      case 1:
        return this.bools.length > 0 ? r.pick(this.bools) : "true";
      case 2:
        return this.main ? `u ${r.pick(["===", "!=="])} "${r.pick(TAGS)}"` : `${this.leaf()} < 0`;
      case 3:
        return this.main ? `r.b` : `${this.leaf()} > 0`;
      case 4:
        return `!(${this.bool(d)})`;
      case 5:
        return `(${this.bool(d)} && ${this.bool(d)})`;
      case 6:
        return `(${this.bool(d)} || ${this.bool(d)})`;
      default:
        return this.main ? `r.c === "${r.pick(TAGS)}"` : `${this.leaf()} === 1`;
    }
  }

  private emit(ind: string, line: string): void {
    this.lines.push(`${ind}${line}`);
  }

  /** Statements at indentation `ind`; `inLoop` allows break and continue. */
  block(ind: string, count: number, depth: number, inLoop: boolean): void {
    const r = this.rng;
    // locals declared here are visible only inside this block
    const nums = this.nums.length;
    const bools = this.bools.length;
    for (let k = 0; k < count; k++) {
      const choice = r.int(0, depth <= 0 ? 5 : 10);
      switch (choice) {
        case 0: {
          const v = this.fresh("v");
          this.emit(ind, `let ${v}: number = ${this.clamp(this.num(2))};`);
          this.nums.push(v);
          break;
        }
        case 1: {
          const b = this.fresh("b");
          this.emit(ind, `const ${b}: boolean = ${this.bool(2)};`);
          this.bools.push(b);
          break;
        }
        case 2: {
          const v = this.mutable();
          if (v) this.emit(ind, `${v} = ${this.clamp(this.num(2))};`);
          break;
        }
        case 3: {
          const v = this.mutable();
          if (v) this.emit(ind, r.pick([`${v}++;`, `${v}--;`, `${v} += ${this.leaf()};`, `${v} -= ${this.leaf()};`]));
          break;
        }
        case 4:
          this.emit(ind, `ys.push(${this.num(2)});`);
          break;
        case 5:
          this.emit(ind, `if (ys.length > 0) {`);
          this.emit(`${ind}  `, `ys[Math.min(Math.max(${this.num(1)}, 0), ys.length - 1)] = ${this.num(2)};`);
          this.emit(ind, `}`);
          break;
        case 6:
        case 7: {
          this.emit(ind, `if (${this.bool(2)}) {`);
          this.block(`${ind}  `, r.int(1, 3), depth - 1, inLoop);
          if (r.chance(0.5)) {
            this.emit(ind, `} else {`);
            this.block(`${ind}  `, r.int(1, 3), depth - 1, inLoop);
          }
          this.emit(ind, `}`);
          break;
        }
        case 8: {
          if (this.loops >= 2) break;
          this.loops++;
          const i = this.fresh("i");
          this.emit(ind, `for (let ${i} = 0; ${i} < ${r.int(0, 6)}; ${i}++) {`);
          this.nums.push(i);
          this.loopBody(`${ind}  `, depth);
          this.nums.pop();
          this.emit(ind, `}`);
          break;
        }
        case 9: {
          if (this.loops >= 2) break;
          this.loops++;
          const w = this.fresh("w");
          this.emit(ind, `let ${w}: number = 0;`);
          this.emit(ind, `while (${w} < ${r.int(0, 6)}) {`);
          // the counter moves first, so a continue below cannot skip it
          this.emit(`${ind}  `, `${w}++;`);
          this.loopBody(`${ind}  `, depth);
          this.emit(ind, `}`);
          this.nums.push(w);
          break;
        }
        default:
          if (inLoop) this.emit(ind, `if (${this.bool(1)}) ${r.chance(0.5) ? "break" : "continue"};`);
          else if (this.main) {
            const v = this.fresh("g");
            this.emit(ind, `const ${v}: number = ${this.p}g(${this.num(1)}, xs);`);
            this.nums.push(v);
          }
      }
    }
    this.nums.length = nums;
    this.bools.length = bools;
  }

  private loopBody(ind: string, depth: number): void {
    this.block(ind, this.rng.int(1, 4), depth - 1, true);
  }

  /** A local number variable that may be assigned (not a parameter, not a loop index). */
  private mutable(): string | undefined {
    const vs = this.nums.filter((v) => /^v\d+$/.test(v));
    return vs.length > 0 ? this.rng.pick(vs) : undefined;
  }

  text(): string[] {
    return this.lines;
  }
}

/** The return statement for a result type. */
function result(rng: Rng, b: Body, kind: (typeof RESULTS)[number], p: string): string {
  switch (kind) {
    case "number":
      return `return ${b.num(3)};`;
    case "boolean":
      return `return ${b.bool(3)};`;
    case "number[]":
      return rng.pick([
        "return ys;",
        `return ys.slice(0, Math.min(${rng.int(0, 4)}, ys.length));`,
        `return xs.slice(Math.min(${rng.int(0, 3)}, xs.length));`,
      ]);
    case "record":
      return `return { a: ${b.clamp(b.num(2))}, b: ${b.bool(1)}, c: ${b.bool(1)} ? "${rng.pick(TAGS)}" : r.c };`;
    case "union":
      return `return ${b.bool(2)} ? "${rng.pick(TAGS)}" : ${rng.chance(0.5) ? "u" : `"${rng.pick(TAGS)}"`};`;
  }
  return `${p}`;
}

/** Program number `id`, generated from `rng`. */
export function program(rng: Rng, id: number): Program {
  const p = `f${id}`;
  const U = `F${id}U`;
  const R = `F${id}R`;
  const kind = rng.pick(RESULTS);
  const ret = kind === "record" ? R : kind === "union" ? U : kind;
  const out: string[] = [
    `export type ${U} = ${TAGS.map((t) => `"${t}"`).join(" | ")};`,
    `export interface ${R} {`,
    "  a: number;",
    "  b: boolean;",
    `  c: ${U};`,
    "}",
    "",
  ];
  const contracts = contracted(rng, p);
  out.push(...contracts, "//@ verify", `export function ${p}h(x: number, y: number): number {`);
  // the pure helper: consts and if-returns (a Dafny function)
  const h = new Body(rng, p, ["x", "y"], false);
  out.push(`  if (${h.bool(1)}) return ${h.clamp(h.num(2))};`);
  out.push(`  return ${h.clamp(h.num(2))};`, "}", "");
  // the helper with a loop (a Dafny method): called only as a whole initializer
  out.push(
    "//@ verify",
    `export function ${p}g(k: number, xs: readonly number[]): number {`,
    "  let s: number = k;",
    "  for (let j = 0; j < xs.length; j++) {",
    `    if (xs[j] ${rng.pick(["<", ">", "==="])} ${rng.int(-5, 5)}) ${rng.pick(["continue", "break"])};`,
    `    s = ${p}c(s ${rng.pick(["+", "-"])} xs[j]);`,
    "  }",
    "  return s;",
    "}",
    "",
  );
  const b = new Body(rng, p, ["n", "m"], true);
  b.block("  ", rng.int(2, 5), 3, false);
  out.push(
    "//@ verify",
    `export function ${p}(n: number, m: number, xs: readonly number[], r: ${R}, u: ${U}): ${ret} {`,
    "  const ys: number[] = [];",
    ...b.text(),
    `  ${result(rng, b, kind, p)}`,
    "}",
    "",
  );
  return { id, source: out.join("\n"), main: p, contracts: contracts.join("\n") };
}

/** A linear expression over x and y: up to four leaves (x, y, a small literal, 2 * x), + and -, parenthesised at random. */
function linear(rng: Rng, depth: number): { text: string; x: number; y: number; k: number } {
  if (depth <= 0 || rng.chance(0.3)) {
    switch (rng.int(0, 3)) {
      case 0:
        return { text: "x", x: 1, y: 0, k: 0 };
      case 1:
        return { text: "y", x: 0, y: 1, k: 0 };
      case 2: {
        const k = rng.int(-9, 9);
        return { text: k < 0 ? `(${k})` : String(k), x: 0, y: 0, k };
      }
      default:
        return { text: "2 * x", x: 2, y: 0, k: 0 };
    }
  }
  const l = linear(rng, depth - 1);
  const r = linear(rng, depth - 1);
  const minus = rng.chance(0.5);
  const s = minus ? -1 : 1;
  return { text: `${l.text} ${minus ? "-" : "+"} (${r.text})`, x: l.x + s * r.x, y: l.y + s * r.y, k: l.k + s * r.k };
}

/**
 * The program's contracted functions: the clamp helper `c` (ensures: within the bound, and x
 * itself when x is) and a linear function `l` (requires: both arguments within a bound picked
 * from LINEAR_BOUNDS; ensures: its result is the same sum in canonical form). Both contracts are
 * //@ spec functions, so that the fuzzer evaluates them, compiled from Dafny, on Node's results.
 */
function contracted(rng: Rng, p: string): string[] {
  const c = rng.pick(CLAMPS);
  const b = rng.pick(LINEAR_BOUNDS);
  const e = linear(rng, 2);
  return [
    CONTRACTS_START,
    "//@ spec",
    `export function ${p}cpost(x: number, r: number): boolean {`,
    `  return -${c} <= r && r <= ${c} && (x < -${c} || x > ${c} || r === x);`,
    "}",
    "",
    "//@ verify",
    `//@ ensures ${p}cpost(x, \\result)`,
    `export function ${p}c(x: number): number {`,
    `  if (x < -${c}) return -${c};`,
    `  if (x > ${c}) return ${c};`,
    "  return x;",
    "}",
    "",
    "//@ spec",
    `export function ${p}lpre(x: number, y: number): boolean {`,
    `  return -${b} <= x && x <= ${b} && -${b} <= y && y <= ${b};`,
    "}",
    "",
    "//@ spec",
    `export function ${p}lpost(x: number, y: number, r: number): boolean {`,
    `  return r === ${e.x} * x + ${e.y} * y + ${e.k};`,
    "}",
    "",
    "//@ verify",
    `//@ requires ${p}lpre(x, y)`,
    `//@ ensures ${p}lpost(x, y, \\result)`,
    `export function ${p}l(x: number, y: number): number {`,
    `  return ${e.text};`,
    "}",
    CONTRACTS_END,
    "",
  ];
}

/** The comment lines around a program's contracted functions (a regression case keeps them). */
export const CONTRACTS_START = "// contracts:";
export const CONTRACTS_END = "// end of contracts";

/**
 * A random safe integer: small (-20..20) half the time, else near a power of two up to 2^52,
 * within 1,000 of +-(2^53 - 1), or anywhere in the safe range (53 random bits).
 */
export function safeInteger(rng: Rng): number {
  const sign = rng.chance(0.5) ? -1 : 1;
  switch (rng.int(0, 5)) {
    case 0:
    case 1:
    case 2:
      return rng.int(-20, 20);
    case 3:
      return sign * (2 ** rng.int(1, 52) + rng.int(-3, 3));
    case 4:
      return sign * (MAX_SAFE - rng.int(0, 1000));
    default:
      return sign * (rng.int(0, 2 ** 21 - 1) * 2 ** 32 + rng.int(0, 2 ** 32 - 1));
  }
}

/** Random arguments (n, m, xs, r, u) for a program's main function. */
export function inputs(rng: Rng): [number, number, number[], { a: number; b: boolean; c: Tag }, Tag] {
  const v = () => safeInteger(rng);
  return [
    v(),
    v(),
    Array.from({ length: rng.int(0, 6) }, v),
    { a: v(), b: rng.chance(0.5), c: rng.pick(TAGS) },
    rng.pick(TAGS),
  ];
}
