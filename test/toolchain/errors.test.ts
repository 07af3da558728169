// Errors of the translator: every construct outside the subset is rejected with
// `file:line:column: <message>`. Each case names the exact position, and the test also
// checks that the source text at that line and column starts with the expected token, so
// a wrong column cannot pass by accident.

import { describe, expect, it } from "vitest";
import { translateError } from "./harness.ts";

interface ErrorCase {
  what: string;
  /** source of kernel module m.ts, line 1 first */
  src: string[];
  line: number;
  col: number;
  /** the source text at line:col starts with this */
  at: string;
  message: string;
  /** the module the error is in, when not m */
  file?: string;
  /** other kernel modules of the program */
  others?: Record<string, string[]>;
  companions?: Record<string, string>;
}

const METHOD_M = ["//@ verify", "export function m(a: number): number {", "  let b = a;", "  return b;", "}", ""];

const CASES: ErrorCase[] = [
  {
    what: "class",
    src: ["export class Counter {", "  n = 0;", "}"],
    line: 1, col: 1, at: "export class",
    message: "unsupported class declaration (the kernel holds only functions and types)",
  },
  {
    what: "top-level variable",
    src: ["export const LIMIT = 3;"],
    line: 1, col: 1, at: "export const",
    message: "unsupported top-level statement (VariableStatement) in a kernel file",
  },
  {
    what: "%",
    src: ["//@ verify", "export function f(a: number): number {", "  return a % 2;", "}"],
    line: 3, col: 12, at: "%",
    message: "unsupported operator '%'",
  },
  {
    what: "/ without Math.floor",
    src: ["//@ verify", "export function f(a: number): number {", "  const h = a / 2;", "  return h;", "}"],
    line: 3, col: 15, at: "/",
    message: "unsupported operator '/' (write Math.floor(a / b))",
  },
  {
    what: "Math.floor of anything but a quotient",
    src: ["//@ verify", "export function f(a: number): number {", "  return Math.floor(a);", "}"],
    line: 3, col: 10, at: "Math.floor",
    message: "unsupported Math.floor call",
  },
  {
    what: "other Math functions",
    src: ["//@ verify", "export function f(a: number): number {", "  return Math.abs(a);", "}"],
    line: 3, col: 10, at: "Math.abs",
    message: "unsupported Math.abs call",
  },
  {
    what: "async",
    src: ["//@ verify", "export async function f(a: number): Promise<number> {", "  return a;", "}"],
    line: 2, col: 1, at: "export async",
    message: "unsupported async function",
  },
  {
    what: "generator",
    src: ["//@ verify", "export function* f(a: number): Generator<number> {", "  return a;", "}"],
    line: 2, col: 1, at: "export function*",
    message: "unsupported generator function",
  },
  {
    what: "optional chaining",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "export function f(r: R): number {", "  return r?.n;", "}"],
    line: 6, col: 10, at: "r?.n",
    message: "unsupported optional chaining",
  },
  {
    what: "array spread",
    src: ["//@ verify", "export function f(xs: number[]): number[] {", "  return [0, ...xs];", "}"],
    line: 3, col: 14, at: "...xs",
    message: "unsupported spread element",
  },
  {
    what: "object spread",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "export function f(r: R): R {", "  return { ...r };", "}"],
    line: 6, col: 12, at: "...r",
    message: "unsupported object literal member",
  },
  {
    what: "array destructuring",
    src: ["//@ verify", "export function f(xs: number[]): number {", "  const [a] = xs;", "  return a;", "}"],
    line: 3, col: 9, at: "[a] = xs",
    message: "unsupported destructuring declaration",
  },
  {
    what: "destructuring parameter",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "export function f({ n }: R): number {", "  return n;", "}"],
    line: 5, col: 19, at: "{ n }: R",
    message: "unsupported destructuring parameter",
  },
  {
    what: "optional parameter",
    src: ["//@ verify", "export function f(a?: number): number {", "  return 0;", "}"],
    line: 2, col: 19, at: "a?: number",
    message: "unsupported optional, default or rest parameter",
  },
  {
    what: "a function neither verify nor extern",
    src: ["// a helper", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 1, at: "export function f",
    message: "function f is neither //@ verify nor //@ extern: the kernel holds only translated code",
  },
  {
    what: "both verify and extern",
    src: ["//@ verify", "//@ extern", "export function f(a: number): number {", "  return a;", "}"],
    line: 3, col: 1, at: "export function f",
    message: "function f cannot be both //@ verify and //@ extern",
  },
  {
    what: "a non-kernel import",
    src: ["// header", 'import { z } from "zod";'],
    line: 2, col: 1, at: "import",
    message: "unsupported import 'zod': the kernel imports only sibling kernel files",
  },
  {
    what: "an import of a parent directory",
    src: ['import type { Msg } from "../engine/messages.ts";'],
    line: 1, col: 1, at: "import type",
    message: "unsupported import '../engine/messages.ts': the kernel imports only sibling kernel files",
  },
  {
    what: "assignment to a parameter",
    src: ["//@ verify", "export function f(a: number): number {", "  a = a + 1;", "  return a;", "}"],
    line: 3, col: 3, at: "a = a + 1",
    message: "unsupported mutation of parameter a (parameters are values in the proofs)",
  },
  {
    what: "increment of a parameter",
    src: ["//@ verify", "export function f(a: number): number {", "  a++;", "  return a;", "}"],
    line: 3, col: 3, at: "a++",
    message: "unsupported mutation of parameter a (parameters are values in the proofs)",
  },
  {
    what: "push on a parameter",
    src: ["//@ verify", "export function f(xs: number[]): number[] {", "  xs.push(1);", "  return xs;", "}"],
    line: 3, col: 3, at: "xs.push",
    message: "unsupported mutation of parameter xs (parameters are values in the proofs)",
  },
  {
    what: "element assignment on a parameter",
    src: ["//@ verify", "export function f(xs: number[]): number[] {", "  if (xs.length > 0) {", "    xs[0] = 1;", "  }", "  return xs;", "}"],
    line: 4, col: 5, at: "xs[0] = 1",
    message: "unsupported mutation of parameter xs (parameters are values in the proofs)",
  },
  {
    what: "push on a local alias of a parameter",
    src: ["//@ verify", "export function f(xs: number[]): number[] {", "  const ys = xs;", "  ys.push(1);", "  return ys;", "}"],
    line: 3, col: 9, at: "ys = xs",
    message: "unsupported aliasing of array ys: an array changed in place must be created by an array literal or .slice() and used only as ys[i], ys.length, ys.slice(...) or a return value",
  },
  {
    what: "a second name for an array changed in place",
    src: [
      "//@ verify", "export function f(): number {", "  const a: number[] = [];", "  const b = a;", "  a.push(1);",
      "  return b.length;", "}",
    ],
    line: 4, col: 13, at: "a;",
    message: "unsupported aliasing of array a: an array changed in place must be created by an array literal or .slice() and used only as a[i], a.length, a.slice(...) or a return value",
  },
  {
    what: "an array changed in place stored in a record",
    src: [
      "export interface Box {", "  items: number[];", "}", "//@ verify", "export function f(): Box {", "  const a: number[] = [];",
      "  const box: Box = { items: a };", "  a.push(1);", "  return box;", "}",
    ],
    line: 7, col: 29, at: "a }",
    message: "unsupported aliasing of array a: an array changed in place must be created by an array literal or .slice() and used only as a[i], a.length, a.slice(...) or a return value",
  },
  {
    what: "field assignment",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "export function f(r: R): number {", "  const s: R = { n: 1 };", "  s.n = 2;", "  return s.n;", "}"],
    line: 7, col: 3, at: "s.n",
    message: "unsupported assignment of anything but a local variable",
  },
  {
    what: "a method call nested inside an expression",
    src: [...METHOD_M, "//@ verify", "export function f(a: number): number {", "  return 1 + m(a);", "}"],
    line: 9, col: 14, at: "m(a)",
    message: "call to m (a method in Dafny) must be the whole initializer of a const/let, the right side of an assignment, or a return value",
  },
  {
    what: "a method call in a condition",
    src: [...METHOD_M, "//@ verify", "export function f(a: number): number {", "  if (m(a) > 0) {", "    return 1;", "  }", "  return 0;", "}"],
    line: 9, col: 7, at: "m(a) > 0",
    message: "call to m (a method in Dafny) must be the whole initializer of a const/let, the right side of an assignment, or a return value",
  },
  {
    what: "a spec calling a method-translated function",
    src: [...METHOD_M, "//@ verify", "//@ ensures \\result === m(a)", "export function f(a: number): number {", "  return a;", "}"],
    line: 8, col: 25, at: "m(a)",
    message: "specification calls m, which translates to a method (its body is not a pure expression)",
  },
  {
    what: "a call of a function of a module not imported",
    src: ["//@ verify", "export function f(a: number): number {", "  return g(a);", "}"],
    others: { other: ["//@ verify", "export function g(a: number): number {", "  return a;", "}"] },
    line: 3, col: 10, at: "g(a)",
    message: "g is declared in other.ts, which m.ts does not import",
  },
  {
    what: "a companion lemma called from code",
    src: ["//@ verify", "export function f(a: number): number {", "  return Twice(a);", "}"],
    companions: { m: "function Twice(a: int): int { 2 * a }\n" },
    line: 3, col: 10, at: "Twice(a)",
    message: "Twice is proof material (from proofs/dafny): use it only in specifications and //@ use",
  },
  {
    what: "a call of an unknown function",
    src: ["//@ verify", "export function f(a: number): number {", "  return g(a);", "}"],
    line: 3, col: 10, at: "g(a)",
    message: "call to unknown function g (not a verified kernel function)",
  },
  {
    what: "an unknown identifier",
    src: ["//@ verify", "export function f(a: number): number {", "  return a + bee;", "}"],
    line: 3, col: 14, at: "bee",
    message: "unknown identifier bee",
  },
  {
    what: "an unknown identifier in a spec",
    src: ["//@ verify", "//@ ensures \\result > bound", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 23, at: "bound",
    message: "unknown identifier bound",
  },
  {
    what: "a string literal with no union context",
    src: ["//@ verify", "export function f(a: number): boolean {", '  return "x" === "y";', "}"],
    line: 3, col: 10, at: '"x"',
    message: 'string literal "x" needs a declared union type in this position',
  },
  {
    what: "a string literal not in the union",
    src: ['export type K = "a" | "b";', "//@ verify", "export function f(k: K): boolean {", '  return k === "c";', "}"],
    line: 4, col: 16, at: '"c"',
    message: '"c" is not a member of K',
  },
  {
    what: "an unknown annotation keyword",
    src: ["//@ verify", "//@ ensure \\result > 0", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 1, at: "//@ ensure",
    message: "unknown annotation '//@ ensure \\result > 0'",
  },
  {
    what: "a misspelt first annotation",
    src: ["//@ verfy", "export function f(a: number): number {", "  return a;", "}"],
    line: 1, col: 1, at: "//@ verfy",
    message: "unknown annotation '//@ verfy'",
  },
  {
    what: "text after //@ verify",
    src: ["//@ verify f", "export function f(a: number): number {", "  return a;", "}"],
    line: 1, col: 12, at: "f",
    message: "//@ verify takes no text (found 'f')",
  },
  {
    what: "an annotation after code on its line",
    src: ["//@ verify", "export function f(a: number): number {", "  const b = a; //@ assert b === a", "  return b;", "}"],
    line: 3, col: 16, at: "//@ assert",
    message: "an annotation '//@' must start its own line",
  },
  {
    what: "//@ invariant outside a loop",
    src: ["//@ verify", "export function f(a: number): number {", "  //@ invariant a > 0", "  return a;", "}"],
    line: 3, col: 17, at: "a > 0",
    message: "//@ invariant is not allowed here",
  },
  {
    what: "//@ invariant after the first statement of a loop body",
    src: [
      "//@ verify", "export function f(a: number): number {", "  let i = 0;", "  while (i < a) {", "    i++;",
      "    //@ invariant i <= a", "  }", "  return i;", "}",
    ],
    line: 6, col: 19, at: "i <= a",
    message: "//@ invariant must come before the first statement of the loop body",
  },
  {
    what: "//@ assert where no statement list reads it",
    src: ["//@ verify", "export function f(a: number): number {", "  if (a > 0)", "    //@ assert a > 0", "    return a;", "  return 0;", "}"],
    line: 4, col: 16, at: "a > 0",
    message: "//@ assert is not allowed here",
  },
  {
    what: "//@ requires above a type",
    src: ["//@ requires true", "export interface R {", "  n: number;", "}"],
    line: 1, col: 14, at: "true",
    message: "//@ requires is not allowed here",
  },
  {
    what: "//@ invariant above a function",
    src: ["//@ verify", "//@ invariant a > 0", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 15, at: "a > 0",
    message: "//@ invariant is not allowed above a function",
  },
  {
    what: "\\result in a precondition",
    src: ["//@ verify", "//@ requires \\result > 0", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 14, at: "\\result",
    message: "\\result is only allowed in ensures",
  },
  {
    what: "% in a spec, on a continued line",
    src: ["//@ verify", "//@ requires a > 0 &&", "//@   a < 10 % 3", "export function f(a: number): number {", "  return a;", "}"],
    line: 3, col: 14, at: "% 3",
    message: "unsupported operator '%' (JavaScript and Dafny disagree on negative operands)",
  },
  {
    what: "/ in a spec",
    src: ["//@ verify", "//@ ensures \\result === a / 2", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 27, at: "/ 2",
    message: "unsupported operator '/' in spec (write Math.floor(a / b))",
  },
  {
    what: "/ inside the operands of Math.floor in a spec",
    src: ["//@ verify", "//@ ensures \\result === Math.floor(a / 2 / 3)", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 38, at: "/ 2 / 3",
    message: "unsupported operator '/' in spec (write Math.floor(a / b))",
  },
  {
    what: "Math.floor of anything but a quotient in a spec",
    src: ["//@ verify", "//@ ensures \\result === Math.floor(a)", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 25, at: "Math.floor(a)",
    message: "unsupported Math.floor in spec (only Math.floor(a / b))",
  },
  {
    what: "//@ use of a kernel function",
    src: ["//@ verify", "export function g(a: number): number {", "  return a;", "}", "//@ verify", "export function f(a: number): number {", "  //@ use g(a)", "  return a;", "}"],
    line: 7, col: 11, at: "g(a)",
    message: "//@ use calls g, a kernel function: it takes a lemma of the proof companion",
  },
  {
    what: "//@ use of something that is not a call",
    src: ["//@ verify", "export function f(a: number): number {", "  //@ use a > 0", "  return a;", "}"],
    line: 3, col: 11, at: "a > 0",
    message: "//@ use expects a lemma call 'Name(args)'",
  },
  {
    what: "a bad token in a spec",
    src: ["//@ verify", "//@ ensures \\result >= a # 1", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 26, at: "# 1",
    message: "unsupported character '#' in spec",
  },
  {
    what: "a labelled break",
    src: [
      "//@ verify", "export function f(a: number): number {", "  let i = 0;", "  outer: while (i < a) {", "    i++;",
      "    break outer;", "  }", "  return i;", "}",
    ],
    line: 4, col: 3, at: "outer:",
    message: "unsupported labelled statement 'outer:' (and so labelled break/continue)",
  },
  {
    what: "a labelled break (whose label the parser left dangling)",
    src: ["//@ verify", "export function f(a: number): number {", "  let i = 0;", "  while (i < a) {", "    i++;", "    break done;", "  }", "  return i;", "}"],
    line: 6, col: 5, at: "break done",
    message: "unsupported labelled break",
  },
  {
    what: "a labelled continue (whose label the parser left dangling)",
    src: ["//@ verify", "export function f(a: number): number {", "  let i = 0;", "  while (i < a) {", "    i++;", "    continue done;", "  }", "  return i;", "}"],
    line: 6, col: 5, at: "continue done",
    message: "unsupported labelled continue",
  },
  {
    what: "undefined",
    src: ["//@ verify", "export function f(a: number): boolean {", "  return a === undefined;", "}"],
    line: 3, col: 16, at: "undefined",
    message: "unsupported value undefined",
  },
  {
    what: "null",
    src: ["//@ verify", "export function f(a: number): boolean {", "  return a === null;", "}"],
    line: 3, col: 16, at: "null",
    message: "unsupported expression 'null' (NullKeyword)",
  },
  {
    what: "a template literal with substitutions",
    src: ['export type K = "x1" | "x2";', "//@ verify", "export function f(k: K, a: number): boolean {", "  return k === `x${a}`;", "}"],
    line: 4, col: 16, at: "`x${a}`",
    message: "unsupported expression '`x${a}`' (TemplateExpression)",
  },
  {
    what: "a non-integer number literal",
    src: ["//@ verify", "export function f(a: number): number {", "  return a * 1.5;", "}"],
    line: 3, col: 14, at: "1.5",
    message: "unsupported number literal 1.5 (integers only)",
  },
  {
    what: "a method call on an array",
    src: ["//@ verify", "export function f(xs: number[]): number[] {", "  return xs.map((x) => x);", "}"],
    line: 3, col: 10, at: "xs.map",
    message: "unsupported method call .map(...)",
  },
  {
    what: "an arrow function",
    src: ["//@ verify", "export function f(a: number): number {", "  const g = (x: number) => x;", "  return a;", "}"],
    line: 3, col: 13, at: "(x: number)",
    message: "unsupported expression '(x: number) => x' (ArrowFunction)",
  },
  {
    what: "for-of",
    src: ["//@ verify", "export function f(xs: number[]): number {", "  let s = 0;", "  for (const x of xs) {", "    s += x;", "  }", "  return s;", "}"],
    line: 4, col: 3, at: "for (const",
    message: "unsupported statement (ForOfStatement)",
  },
  {
    what: "a loop body that is not a block",
    src: ["//@ verify", "export function f(a: number): number {", "  let i = 0;", "  while (i < a) i++;", "  return i;", "}"],
    line: 4, col: 17, at: "i++;",
    message: "a loop body must be a block { ... } (it holds the invariants)",
  },
  {
    what: "a break in the middle of a switch clause",
    src: [
      'export type K = "a" | "b";', "//@ verify", "export function f(k: K, x: number): number {", "  let r = 0;", "  switch (k) {",
      '    case "a":', "      if (x > 0) {", "        break;", "      }", "      r = 1;", "      break;", "  }", "  return r;", "}",
    ],
    line: 6, col: 5, at: 'case "a":',
    message: "a break inside a switch clause must be its last statement",
  },
  {
    what: "=== on arrays in code",
    src: ["//@ verify", "export function f(xs: number[], ys: number[]): boolean {", "  return xs === ys;", "}"],
    line: 3, col: 10, at: "xs === ys",
    message: "unsupported === on arrays in code (JavaScript compares references; compare elements or fields)",
  },
  {
    what: "!== on records in code",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "export function f(a: R, b: R): boolean {", "  return a !== b;", "}"],
    line: 6, col: 10, at: "a !== b",
    message: "unsupported !== on records (R) in code (JavaScript compares references; compare elements or fields)",
  },
  {
    what: "an enum member initializer",
    src: ["export enum E {", "  A = 1,", "}"],
    line: 2, col: 3, at: "A = 1",
    message: "unsupported enum member initializer",
  },
  {
    what: "a missing return type",
    src: ["//@ verify", "export function f(a: number) {", "  return a;", "}"],
    line: 2, col: 1, at: "export function f",
    message: "function f needs a return type annotation",
  },
  {
    what: "an unknown type",
    src: ["//@ verify", "export function f(a: Foo): number {", "  return 0;", "}"],
    line: 2, col: 1, at: "export function f",
    message: "unknown type Foo (declare it in a kernel file or with //@ declare-type)",
  },
  {
    what: "an object literal lacking a field",
    src: ["export interface R {", "  n: number;", "  m: number;", "}", "//@ verify", "export function f(): R {", "  return { n: 1 };", "}"],
    line: 7, col: 10, at: "{ n: 1 }",
    message: "object literal of R lacks field m",
  },
  {
    what: "a local without a type that can be inferred (method body)",
    src: ['export type K = "a" | "b";', "//@ verify", "export function f(): boolean {", '  let k = "a";', "  return true;", "}"],
    line: 4, col: 7, at: 'k = "a"',
    message: "cannot infer the type of k: add a type annotation",
  },
  {
    what: "a local without a type that can be inferred (function body)",
    src: ['export type K = "a" | "b";', "//@ verify", "export function f(): boolean {", '  const k = "a";', "  return true;", "}"],
    line: 4, col: 9, at: 'k = "a"',
    message: "cannot infer the type of k: add a type annotation",
  },
  {
    what: "an identifier Dafny cannot spell",
    src: ["//@ verify", "export function f(_a: number): number {", "  return 0;", "}"],
    line: 2, col: 1, at: "export function f",
    message: "unsupported identifier '_a' (Dafny names cannot start with '_' or contain '$')",
  },
  {
    what: "//@ type naming no parameter",
    src: ["//@ verify", "//@ type m nat", "export function f(n: number): number {", "  return n;", "}"],
    line: 2, col: 10, at: "m nat",
    message: "//@ type m nat: f has no parameter m",
  },
  {
    what: "//@ type naming no local",
    src: ["//@ verify", "export function f(n: number): number {", "  let k = n;", "  //@ type kk nat", "  return k;", "}"],
    line: 4, col: 12, at: "kk nat",
    message: "//@ type kk nat: f has no local kk",
  },
  {
    what: "//@ type for a parameter inside the body",
    src: ["//@ verify", "export function f(n: number): number {", "  //@ type n nat", "  let k = n;", "  return k;", "}"],
    line: 3, col: 12, at: "n nat",
    message: "//@ type n nat: annotate parameters and \\result above the function",
  },
  {
    what: "//@ type on something that is not a number",
    src: ["//@ verify", "//@ type b nat", "export function f(b: boolean): boolean {", "  return b;", "}"],
    line: 3, col: 19, at: "b: boolean",
    message: "//@ type ... nat applies only to number",
  },
  {
    what: "an identifier spelt like a renamed Dafny keyword",
    src: ["//@ verify", "export function f(seq_: number): number {", "  return seq_;", "}"],
    line: 2, col: 1, at: "export function f",
    message: "unsupported identifier 'seq_' (it is the Dafny spelling of 'seq')",
  },
  {
    what: "an import of a kernel module that does not exist",
    src: ['import { g } from "./nothere.ts";', "//@ verify", "export function f(a: number): number {", "  return a;", "}"],
    line: 1, col: 1, at: "import",
    message: "import of unknown kernel module './nothere'",
  },
  {
    what: "a switch on a method call",
    src: [...METHOD_M, "//@ verify", "export function f(a: number): number {", "  switch (m(a)) {", "    case 1:", "      return 1;", "  }", "  return 0;", "}"],
    line: 9, col: 11, at: "m(a)",
    message: "call to m (a method in Dafny) must be the whole initializer of a const/let, the right side of an assignment, or a return value",
  },
  {
    what: "a union constructor named like a record",
    src: ['// kinds', 'export type Kind = "span" | "other";', "export interface Span {", "  from: number;", "}"],
    line: 2, col: 1, at: "export type Kind",
    message: 'union member "span" of Kind becomes the constructor Span, which is also the record type Span',
  },
  {
    what: "an object literal with a field the record lacks",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "export function f(): R {", "  const r: R = { n: 1, m: 2 };", "  return r;", "}"],
    line: 6, col: 16, at: "{ n: 1, m: 2 }",
    message: "R has no field m",
  },
  {
    what: "a name declared twice in the kernel",
    src: ["//@ verify", "export function f(a: number): number {", "  return a;", "}"],
    others: { n: ["// other", "//@ verify", "export function f(a: number): number {", "  return a;", "}"] },
    file: "n", line: 3, col: 1, at: "export function f",
    message: "f is already declared at src/kernel/m.ts:2:1 (the kernel shares one namespace)",
  },
  {
    what: "var in a for initializer",
    src: ["//@ verify", "export function f(a: number): number {", "  let s = 0;", "  for (var i = 0; i < a; i++) {", "    //@ decreases a - i", "    s = s + 1;", "  }", "  return s;", "}"],
    line: 4, col: 8, at: "var i",
    message: "unsupported 'var' (function-scoped in JavaScript): declare locals with let or const",
  },
  {
    what: "a local repeated in the same block of a switch",
    src: [
      "//@ verify", "export function f(a: number): number {", "  switch (a) {", "    case 1:", "      const b = 1;", "      return b;",
      "    default:", "      const b = 2;", "      return b;", "  }", "}",
    ],
    line: 8, col: 13, at: "b = 2",
    message: "unsupported local b: it repeats the b declared at src/kernel/m.ts:5:13 (give each local of a function its own name)",
  },
  {
    what: "- on arrays",
    src: ["//@ verify", "export function f(xs: number[]): number {", "  const n = 1 - xs;", "  return n;", "}"],
    line: 3, col: 13, at: "1 - xs",
    message: "unsupported - on arrays",
  },
  {
    what: "an ordering of union values in a spec",
    src: ['export type K = "a" | "b";', "//@ verify", "//@ ensures \\result < k", "export function f(k: K): K {", "  return k;", "}"],
    line: 3, col: 21, at: "< k",
    message: "unsupported < on values of K (only numbers are ordered)",
  },
  {
    what: "an ordering of booleans",
    src: ["//@ verify", "export function f(a: boolean, b: boolean): boolean {", "  return a <= b;", "}"],
    line: 3, col: 10, at: "a <= b",
    message: "unsupported <= on booleans (only numbers are ordered)",
  },
  {
    what: "spec !== on records",
    src: ["export interface R {", "  n: number;", "}", "//@ verify", "//@ ensures \\result !== r", "export function f(r: R): R {", "  return r;", "}"],
    line: 5, col: 21, at: "!== r",
    message: "unsupported !== on records (R) in a specification (TypeScript compares references): write !equal(a, b) for value equality",
  },
  {
    what: "spec === on values of a type parameter",
    src: ["//@ verify", "//@ ensures \\result === x", "export function f<T>(x: T): T {", "  return x;", "}"],
    line: 2, col: 21, at: "=== x",
    message: "unsupported === on values of type parameter T in a specification (TypeScript compares references): write equal(a, b) for value equality",
  },
  {
    what: "equal with other than two arguments",
    src: ["//@ verify", "//@ ensures equal(\\result)", "export function f(xs: number[]): number[] {", "  return xs;", "}"],
    line: 2, col: 13, at: "equal(",
    message: "equal takes two arguments",
  },
  {
    what: "a kernel function named equal",
    src: ["//@ verify", "export function equal(a: number, b: number): boolean {", "  return a === b;", "}"],
    line: 2, col: 1, at: "export function equal",
    message: "equal is the specification's value equality: a kernel function cannot take that name",
  },
  {
    what: "equal in code",
    src: ["//@ verify", "export function f(xs: number[], ys: number[]): boolean {", "  return equal(xs, ys);", "}"],
    line: 3, col: 10, at: "equal(xs, ys)",
    message: "call to unknown function equal (not a verified kernel function)",
  },
  {
    what: "an import of a name the module does not declare",
    src: ['import { nothere } from "./n.ts";', "//@ verify", "export function f(a: number): number {", "  return a;", "}"],
    others: { n: ["//@ verify", "export function g(a: number): number {", "  return a;", "}"] },
    line: 1, col: 10, at: "nothere",
    message: "n.ts declares no nothere",
  },
  {
    what: "a namespace import",
    src: ['import * as n from "./n.ts";', "//@ verify", "export function f(a: number): number {", "  return a;", "}"],
    others: { n: ["//@ verify", "export function g(a: number): number {", "  return a;", "}"] },
    line: 1, col: 8, at: "* as n",
    message: "unsupported default or namespace import (the kernel imports names as they are declared)",
  },
  {
    what: "a switch without default that can fall off the end",
    src: ['export type K = "a" | "b";', "//@ verify", "export function f(k: K): number {", "  switch (k) {", '    case "a":', "      return 1;", '    case "b":', "      return 2;", "  }", "}"],
    line: 10, col: 1, at: "}",
    message: "function f can reach its end without returning a value (JavaScript returns undefined)",
  },
  {
    what: "a while (true) left by break",
    src: ["//@ verify", "export function f(a: number): number {", "  while (true) {", "    //@ decreases 0", "    break;", "  }", "}"],
    line: 7, col: 1, at: "}",
    message: "function f can reach its end without returning a value (JavaScript returns undefined)",
  },
  {
    what: "@ensures inside a JSDoc comment",
    src: ["/**", " * Identity.", " * @ensures \\result === a", " */", "//@ verify", "export function f(a: number): number {", "  return a;", "}"],
    line: 3, col: 4, at: "@ensures",
    message: "an annotation inside a block comment is not read: write it as a '//@' line comment outside the block comment",
  },
  {
    what: "a misspelt annotation with three slashes",
    src: ["//@ verify", "/// @requires a > 0", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 1, at: "/// @requires",
    message: "'/// @requires' looks like an annotation but is a plain comment: write '//@ requires'",
  },
  {
    what: "an enum member compared with a number",
    src: ["export enum Color { Red, Green }", "//@ verify", "export function f(c: Color): boolean {", "  return c === 0;", "}"],
    line: 4, col: 10, at: "c === 0",
    message: "unsupported === between values of Color and numbers",
  },
  {
    what: "a keyword right after the slashes",
    src: ["//@ verify", "//ensures \\result === a", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 1, at: "//ensures",
    message: "'//ensures' looks like an annotation but is a plain comment: write '//@ ensures'",
  },
  {
    what: "a space after the @",
    src: ["//@ verify", "// @ requires a > 0", "export function f(a: number): number {", "  return a;", "}"],
    line: 2, col: 1, at: "// @ requires",
    message: "'// @ requires' looks like an annotation but is a plain comment: write '//@ requires'",
  },
];

function lines(src: string[]): string {
  return src.join("\n") + "\n";
}

describe("translator errors name file:line:column", () => {
  for (const c of CASES) {
    it(c.what, () => {
      const sources: Record<string, string> = { m: lines(c.src) };
      for (const [n, src] of Object.entries(c.others ?? {})) sources[n] = lines(src);
      const file = c.file ?? "m";
      const lineText = sources[file].split("\n")[c.line - 1] ?? "";
      expect(lineText.slice(c.col - 1).startsWith(c.at), `line ${c.line} col ${c.col} of ${file}.ts is '${lineText.slice(c.col - 1)}'`).toBe(true);
      expect(translateError(sources, c.companions)).toBe(`src/kernel/${file}.ts:${c.line}:${c.col}: ${c.message}`);
    });
  }
});
