// Names resolve as TypeScript resolves them (src/toolchain/frontend/names.ts): `X.f` is a
// field of the variable X wherever TypeScript binds X to a parameter or local, and a member of
// the type X everywhere else, in bodies and in `//@` specifications, whatever X's spelling.

import { describe, expect, it } from "vitest";
import { translate, translateError } from "./harness.ts";
import { runTs } from "./run-ts.ts";

const lines = (xs: string[]) => `${xs.join("\n")}\n`;

/** An enum whose name starts in lower case, and a function returning one of its members. */
const LOWER_ENUM = lines([
  "export enum mode {",
  "  Fast,",
  "  Slow,",
  "}",
  "//@ verify",
  "//@ ensures \\result === mode.Slow",
  "export function slowest(): mode {",
  "  return mode.Slow;",
  "}",
]);

describe("names resolve as TypeScript resolves them", () => {
  it("an enum named in lower case is the enum, in the body and in the ensures", async () => {
    const m = await runTs(LOWER_ENUM);
    expect(m.slowest()).toBe(1);
    const out = translate({ m: LOWER_ENUM }).get("m") ?? "";
    expect(out).toContain("ensures slowest() == mode.Slow");
    expect(out).toContain("\n  mode.Slow\n");
  });

  it("an imported lower-case enum is the enum where it is imported; a parameter of the same name is the parameter", () => {
    const user = lines([
      'import { mode } from "./a.ts";',
      "export interface Choice {",
      "  Slow: mode;",
      "}",
      "//@ verify",
      "//@ ensures \\result === mode.Fast",
      "export function fastest(): mode {",
      "  return mode.Fast;",
      "}",
      "//@ verify",
      "//@ ensures \\result === mode.Slow",
      "export function chosen(mode: Choice): mode {",
      "  return mode.Slow;",
      "}",
    ]);
    const out = translate({ a: LOWER_ENUM, b: user }).get("b") ?? "";
    expect(out).toContain("ensures fastest() == mode.Fast");
    expect(out).toContain("ensures chosen(mode') == mode'.Slow");
    expect(out).toContain("\n  mode'.Slow\n");
  });

  it("a quantifier's variable shadows an enum of its name; a local declared after an assert is used before its declaration", () => {
    const shadow = lines([
      "export enum K {",
      "  A,",
      "  B,",
      "}",
      "//@ verify",
      "//@ ensures forall(K: nat, K < 1 ==> \\result === K.A)",
      "export function f(): K {",
      "  return K.A;",
      "}",
    ]);
    // K.A in the quantifier is the field A of the number K, as TypeScript would read it there
    expect(translateError({ m: shadow })).toBe("src/kernel/m.ts:6:52: unknown field A");
    const early = lines([
      "export enum K {",
      "  A,",
      "  B,",
      "}",
      "export interface R {",
      "  A: K;",
      "}",
      "//@ verify",
      "export function g(r: R): K {",
      "  //@ assert K.A === K.A",
      "  const K: R = r;",
      "  return K.A;",
      "}",
    ]);
    expect(translateError({ m: early })).toBe(
      "src/kernel/m.ts:11:9: //@ assert at 10:14 uses K before its declaration here",
    );
  });

  it("a local's name is the local only inside its block: after the block the same name is the type again", () => {
    const src = lines([
      'export type P15Role = "user" | "assistant";',
      "export interface P15Rec {",
      "  User: P15Role;",
      "}",
      "//@ verify",
      "export function inner(rs: P15Rec[], b: boolean): P15Role {",
      '  let out: P15Role = "assistant";',
      "  if (b && rs.length > 0) {",
      "    const P15Role: P15Rec = rs[0];",
      "    out = P15Role.User;",
      "  }",
      '  //@ assert out === P15Role.User || out === "assistant"',
      "  return out;",
      "}",
    ]);
    const out = translate({ m: src }).get("m") ?? "";
    expect(out).toContain("out := P15Role'.User;");
    expect(out).toContain("assert (out == P15Role.User) || (out == P15Role.Assistant);");
  });
});
