// Translation holes: constructs the translator once accepted, whose proof verified while
// the proved `ensures` was false when the same TypeScript ran in Node. Each case runs the
// program in Node (showing the ensures it states is false there) and checks that the
// translator now rejects the construct at the right file:line:column.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { translate, translateError } from "./harness.ts";

interface Hole {
  what: string;
  /** kernel module m.ts, line 1 first */
  src: string[];
  /** other kernel modules of the program */
  others?: Record<string, string[]>;
  line: number;
  col: number;
  /** the source text at line:col starts with this */
  at: string;
  message: string;
  /** the proved ensures, evaluated in Node on module m's exports: false shows the hole
   * (absent for a construct rejected for uniformity, where JavaScript and Dafny agree or
   * Node fails to load the module) */
  ensuresInNode?: (m: Record<string, (...args: never[]) => unknown>) => boolean;
}

const HOLES: Hole[] = [
  {
    what: "var (function-scoped in JavaScript, block-scoped in Dafny)",
    src: [
      "//@ verify",
      "//@ ensures \\result === 0",
      "export function f(c: boolean): number {",
      "  var y = 0;",
      "  if (c) {",
      "    var y = 1;",
      "  }",
      "  return y;",
      "}",
    ],
    line: 4,
    col: 3,
    at: "var y = 0",
    message: "unsupported 'var' (function-scoped in JavaScript): declare locals with let or const",
    ensuresInNode: (m) => m.f(true as never) === 0,
  },
  {
    what: "a branch local that continue-lowering would let capture the rest of the loop body",
    src: [
      "//@ verify",
      "//@ requires c",
      "//@ ensures \\result === 14",
      "export function f(c: boolean): number {",
      "  let x = 0;",
      "  let s = 0;",
      "  let i = 0;",
      "  while (i < 1) {",
      "    //@ invariant 0 <= i && i <= 1",
      "    //@ invariant i === 1 ==> s === 14",
      "    //@ decreases 1 - i",
      "    i++;",
      "    if (!c) {",
      "      continue;",
      "    } else {",
      "      const x = 7;",
      "      s = x;",
      "    }",
      "    s = s + x;",
      "  }",
      "  return s;",
      "}",
    ],
    line: 16,
    col: 13,
    at: "x = 7",
    message:
      "unsupported local x: it shadows the x declared at src/kernel/m.ts:5:7 (give each local of a function its own name)",
    ensuresInNode: (m) => m.f(true as never) === 14,
  },
  {
    what: "a body local named like the for-loop variable (the increment would update it)",
    src: [
      "//@ verify",
      "//@ ensures \\result === 10",
      "export function f(): number {",
      "  let n = 0;",
      "  for (let i = 0; i < 3 && n < 10; i++) {",
      "    //@ invariant 0 <= n && n <= 10",
      "    //@ invariant i === 0 && n < 10 || n === 10",
      "    //@ decreases 10 - n",
      "    let i = 5;",
      "    n = n + 1;",
      "  }",
      "  return n;",
      "}",
    ],
    line: 9,
    col: 9,
    at: "i = 5",
    message:
      "unsupported local i: it shadows the i declared at src/kernel/m.ts:5:12 (give each local of a function its own name)",
    ensuresInNode: (m) => m.f() === 10,
  },
  {
    what: "a name used outside the block that declares it (continue lowering would move the use into that block)",
    src: [
      "//@ verify",
      "//@ ensures \\result === 7",
      "export function f(c: boolean): number {",
      "  let s = 7;",
      "  let i = 0;",
      "  while (i < 1) {",
      "    //@ invariant 0 <= i && i <= 1 && s === 7",
      "    //@ decreases 1 - i",
      "    i++;",
      "    if (c) {",
      "      continue;",
      "    } else {",
      "      const y = 7;",
      "      s = y;",
      "    }",
      "    s = y;",
      "  }",
      "  return s;",
      "}",
    ],
    line: 16,
    col: 9,
    at: "y;",
    message: "unsupported use of y outside the block that declares it (src/kernel/m.ts:13:13)",
    // Node throws a ReferenceError where Dafny proved the ensures
    ensuresInNode: (m) => {
      try {
        return m.f(false as never) === 7;
      } catch (e) {
        return !(e instanceof ReferenceError);
      }
    },
  },
  {
    what: "a local named like a parameter",
    src: [
      "//@ verify",
      "//@ ensures \\result === a",
      "export function f(a: number): number {",
      "  {",
      "    const a = 1;",
      "  }",
      "  return a;",
      "}",
    ],
    line: 5,
    col: 11,
    at: "a = 1",
    message: "unsupported local a: it shadows the parameter a (give each local of a function its own name)",
  },
  {
    what: "an object literal with a repeated key (JavaScript keeps the last value)",
    src: [
      "export interface Pt {",
      "  x: number;",
      "}",
      "//@ verify",
      "//@ ensures \\result.x === 1",
      "export function f(): Pt {",
      "  const p: Pt = { x: 1, x: 2 };",
      "  return p;",
      "}",
    ],
    line: 7,
    col: 25,
    at: "x: 2",
    message: "unsupported repeated key x in an object literal (JavaScript keeps the last value)",
    ensuresInNode: (m) => (m.f() as { x: number }).x === 1,
  },
  {
    what: "+ on arrays (string concatenation in JavaScript)",
    src: [
      "//@ verify",
      "//@ ensures \\result.length === 2",
      "export function f(): number[] {",
      "  const x: number[] = [10];",
      "  const y: number[] = [20];",
      "  return x + y;",
      "}",
    ],
    line: 6,
    col: 10,
    at: "x + y",
    message: "unsupported + on arrays (JavaScript joins them into a string; use push)",
    ensuresInNode: (m) => (m.f() as unknown[]).length === 2,
  },
  {
    what: "+= on arrays",
    src: [
      "//@ verify",
      "//@ ensures \\result.length === 2",
      "export function f(): number[] {",
      "  let x: number[] = [10];",
      "  const y: number[] = [20];",
      "  x += y;",
      "  return x;",
      "}",
    ],
    line: 6,
    col: 3,
    at: "x += y",
    message: "unsupported + on arrays (JavaScript joins them into a string; use push)",
    ensuresInNode: (m) => (m.f() as unknown[]).length === 2,
  },
  {
    what: "< on arrays (string comparison in JavaScript)",
    src: [
      "//@ verify",
      "//@ ensures !\\result",
      "export function f(): boolean {",
      "  const x: number[] = [1];",
      "  const y: number[] = [2];",
      "  return x < y;",
      "}",
    ],
    line: 6,
    col: 10,
    at: "x < y",
    message: "unsupported < on arrays (only numbers are ordered)",
    ensuresInNode: (m) => !m.f(),
  },
  {
    what: "a renamed import (the call would resolve by the kernel-wide name)",
    src: [
      'import { dec as inc } from "./lib.ts";',
      "//@ verify",
      "//@ ensures \\result === a + 1",
      "export function f(a: number): number {",
      "  return inc(a);",
      "}",
    ],
    others: {
      lib: [
        "//@ verify",
        "//@ ensures \\result === a - 1",
        "export function dec(a: number): number {",
        "  return a - 1;",
        "}",
        "//@ verify",
        "//@ ensures \\result === a + 1",
        "export function inc(a: number): number {",
        "  return a + 1;",
        "}",
      ],
    },
    line: 1,
    col: 10,
    at: "dec as inc",
    message: "unsupported renamed import 'dec as inc' (the kernel imports names as they are declared)",
    ensuresInNode: (m) => m.f(1 as never) === 2,
  },
  {
    what: "a call of another module's function that is not imported",
    src: [
      'import { dec } from "./lib.ts";',
      "//@ verify",
      "//@ ensures \\result === a + 1",
      "export function f(a: number): number {",
      "  return inc(a);",
      "}",
    ],
    others: {
      lib: [
        "//@ verify",
        "//@ ensures \\result === a - 1",
        "export function dec(a: number): number {",
        "  return a - 1;",
        "}",
        "//@ verify",
        "//@ ensures \\result === a + 1",
        "export function inc(a: number): number {",
        "  return a + 1;",
        "}",
      ],
    },
    line: 5,
    col: 10,
    at: "inc(a)",
    message: "inc is declared in lib.ts, which m.ts does not import by that name",
  },
  {
    what: "export default",
    src: [
      "//@ verify",
      "//@ ensures \\result === a",
      "export default function f(a: number): number {",
      "  return a;",
      "}",
    ],
    line: 3,
    col: 1,
    at: "export default",
    message: "unsupported export default (kernel functions are exported and imported by name)",
  },
  {
    what: "a default import",
    src: [
      'import g from "./lib.ts";',
      "//@ verify",
      "//@ ensures \\result === a",
      "export function f(a: number): number {",
      "  return a;",
      "}",
    ],
    others: { lib: ["//@ verify", "export function g(a: number): number {", "  return a;", "}"] },
    line: 1,
    col: 8,
    at: "g from",
    message: "unsupported default or namespace import (the kernel imports names as they are declared)",
  },
  {
    what: "a capitalised parameter read as a union member",
    src: [
      'export type K = "lo" | "hi";',
      "export interface Two {",
      "  Lo: number;",
      "}",
      "//@ verify",
      "//@ ensures \\result",
      "export function f(K: Two): boolean {",
      '  return K.Lo === "lo";',
      "}",
    ],
    line: 8,
    col: 19,
    at: '"lo"',
    message: 'string literal "lo" needs a declared union type in this position',
    ensuresInNode: (m) => m.f({ Lo: 1 } as never) === true,
  },
  {
    what: "a string literal standing for a member of a numeric enum",
    src: [
      "export enum Color { Red, Green }",
      "//@ verify",
      "//@ ensures c === Color.Red ==> \\result",
      "export function f(c: Color): boolean {",
      '  return c === "Red";',
      "}",
    ],
    line: 5,
    col: 16,
    at: '"Red"',
    message:
      'string literal "Red" is not a value of enum Color (its members are numbers in JavaScript: write Color.Red)',
    ensuresInNode: (m) => m.f(0 as never) === true,
  },
  {
    what: "a body that can end without return (JavaScript returns undefined)",
    src: [
      "//@ verify",
      "//@ ensures \\result * 0 === 0",
      "export function f(a: number): number {",
      "  let b = a;",
      "  if (b > 0) {",
      "    return 1;",
      "  }",
      "}",
    ],
    line: 8,
    col: 1,
    at: "}",
    message: "function f can reach its end without returning a value (JavaScript returns undefined)",
    ensuresInNode: (m) => (m.f(0 as never) as number) * 0 === 0,
  },
  {
    what: "return without a value",
    src: [
      "//@ verify",
      "//@ ensures \\result * 0 === 0",
      "export function f(a: number): number {",
      "  let b = a;",
      "  if (b > 0) {",
      "    return;",
      "  }",
      "  return b;",
      "}",
    ],
    line: 6,
    col: 5,
    at: "return;",
    message: "unsupported return without a value (f returns number)",
    ensuresInNode: (m) => (m.f(1 as never) as number) * 0 === 0,
  },
  {
    what: "//@ inside a block comment",
    src: [
      "/*",
      "//@ requires false",
      "*/",
      "//@ verify",
      "//@ ensures \\result === 1",
      "export function f(a: number): number {",
      "  return a;",
      "}",
    ],
    line: 2,
    col: 1,
    at: "//@ requires",
    message:
      "an annotation inside a block comment is not read: write it as a '//@' line comment outside the block comment",
    ensuresInNode: (m) => m.f(2 as never) === 1,
  },
  {
    what: "a misspelt annotation '// @ensures'",
    src: [
      "//@ verify",
      "//@ ensures \\result >= a",
      "// @ensures \\result === 1",
      "export function f(a: number): number {",
      "  return a;",
      "}",
    ],
    line: 3,
    col: 1,
    at: "// @ensures",
    message: "'// @ensures' looks like an annotation but is a plain comment: write '//@ ensures'",
    ensuresInNode: (m) => m.f(2 as never) === 1,
  },
  {
    what: "a misspelt annotation '/*@ ... */'",
    src: [
      "//@ verify",
      "//@ ensures \\result >= a",
      "/*@ ensures \\result === 1 */",
      "export function f(a: number): number {",
      "  return a;",
      "}",
    ],
    line: 3,
    col: 1,
    at: "/*@",
    message:
      "an annotation inside a block comment is not read: write it as a '//@' line comment outside the block comment",
    ensuresInNode: (m) => m.f(2 as never) === 1,
  },
  {
    what: "spec === on arrays (TypeScript compares references)",
    src: [
      "//@ verify",
      "//@ ensures \\result === xs",
      "export function f(xs: readonly number[]): number[] {",
      "  return xs.slice();",
      "}",
    ],
    line: 2,
    col: 21,
    at: "=== xs",
    message:
      "unsupported === on arrays in a specification (TypeScript compares references): write equal(a, b) for value equality",
    ensuresInNode: (m) => {
      const xs = [1];
      return m.f(xs as never) === xs;
    },
  },
];

function lines(src: string[]): string {
  return `${src.join("\n")}\n`;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Imports module m of a case as Node runs it (vitest strips the types, as tsx does). */
async function runInNode(c: Hole): Promise<Record<string, (...args: never[]) => unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "safecut-hole-"));
  roots.push(dir);
  mkdirSync(join(dir, "kernel"));
  writeFileSync(join(dir, "kernel", "m.ts"), lines(c.src));
  for (const [n, src] of Object.entries(c.others ?? {})) writeFileSync(join(dir, "kernel", `${n}.ts`), lines(src));
  return (await import(join(dir, "kernel", "m.ts"))) as Record<string, (...args: never[]) => unknown>;
}

describe("translation holes are rejected where they stand", () => {
  for (const c of HOLES) {
    it(c.what, async () => {
      if (c.ensuresInNode)
        expect(c.ensuresInNode(await runInNode(c)), "the proved ensures is false in Node").toBe(false);
      const sources: Record<string, string> = { m: lines(c.src) };
      for (const [n, src] of Object.entries(c.others ?? {})) sources[n] = lines(src);
      const lineText = sources.m.split("\n")[c.line - 1] ?? "";
      expect(
        lineText.slice(c.col - 1).startsWith(c.at),
        `line ${c.line} col ${c.col} is '${lineText.slice(c.col - 1)}'`,
      ).toBe(true);
      expect(translateError(sources)).toBe(`src/kernel/m.ts:${c.line}:${c.col}: ${c.message}`);
    });
  }
});

describe("what the rules leave accepted", () => {
  it("sibling blocks reuse a name, while (true) ends in its returns, JSDoc tags and quoted //@ are prose", () => {
    const src = lines([
      "/**",
      " * Counts up to a. @param a the bound; @type is JSDoc's, and //@ here is quoted prose.",
      " * @param a the bound",
      " * @type {number}",
      " */",
      "//@ verify",
      "//@ requires a >= 0",
      "export function f(a: number): number {",
      "  if (a > 0) {",
      "    const t = 1;",
      "    if (t > a) return t;",
      "  } else {",
      "    const t = 2;",
      "    if (t > a) return t;",
      "  }",
      "  let i = 0;",
      "  while (true) {",
      "    //@ invariant 0 <= i && i <= a",
      "    //@ decreases a - i",
      "    if (i === a) return i;",
      "    i++;",
      "  }",
      "}",
    ]);
    const out = translate({ m: src }).get("m") ?? "";
    expect(out).toContain("var t: int := 1;");
    expect(out).toContain("var t: int := 2;");
    expect(out).toContain("while true");
  });

  it("annotations are read after a regular expression or template that holds a backtick or //@", () => {
    const src = lines([
      "//@ extern",
      "export function g(a: number): boolean {",
      '  return /`/.test(String(a)) && `x${a}` === "a //@ requires true";',
      "}",
      "//@ verify",
      "//@ requires false",
      "export function f(a: number): number {",
      "  return a;",
      "}",
    ]);
    const out = translate({ m: src }).get("m") ?? "";
    expect(out).toContain("  requires false\n");
    expect(out).not.toContain("requires true");
  });

  it("equal(a, b) is value equality, rendered as Dafny ==; X.f is a member only when no variable X is in scope", () => {
    const src = lines([
      'export type K = "lo" | "hi";',
      "export interface Two {",
      "  Lo: K;",
      "}",
      "//@ verify",
      "//@ ensures equal(\\result, xs) && !equal(\\result, xs.slice(1))",
      "export function f(xs: readonly K[], Two: Two): K[] {",
      "  const ys: K[] = [Two.Lo, K.Lo];",
      "  return xs.slice();",
      "}",
    ]);
    const out = translate({ m: src }).get("m") ?? "";
    // the parameter Two, named like the record type Two, is spelled Two' in Dafny (one namespace there)
    expect(out).toContain("ensures (f(xs, Two') == xs) && (!(f(xs, Two') == xs[1..]))");
    expect(out).toContain("var ys: seq<K> := [Two'.Lo, K.Lo];");
  });
});
