// Probe programs for what `check dafny` proves against what Node runs: each is a small kernel
// module whose stated ensures is false when its TypeScript runs in Node. The module is run in
// Node (to show the ensures is false there) and checked by every installed prover through
// check.ts checkDafny (exactly as scripts/check.sh runs it), which must reject it.

import { afterAll, describe, expect, it } from "vitest";
import { checkDafny } from "../../src/toolchain/check/check.ts";
import { findProvers } from "../../src/toolchain/check/prover.ts";
import { emitModuleMapped } from "../../src/toolchain/emit/dafny-emit.ts";
import { dafnyName } from "../../src/toolchain/emit/dafny-names.ts";
import { translateFiles } from "../../src/toolchain/frontend/frontend.ts";
import { layout } from "../../src/toolchain/frontend/load.ts";
import { programInfo } from "../../src/toolchain/resolve/program-info.ts";
import { resolveModule } from "../../src/toolchain/resolve/resolve.ts";
import { translate, translateError } from "./harness.ts";
import { project, properties, REPO, removeProjects } from "./project.ts";
import { runTs } from "./run-ts.ts";

const provers = findProvers(REPO);
if (provers.length === 0)
  console.warn("probes.test.ts: prover cases skipped, no Dafny (run: bash scripts/setup-provers.sh)");

afterAll(removeProjects);

/** Checks one module `m` with every installed prover; the log and each prover's verdict on m.dfy. */
function prove(src: string, counts: Record<string, number> = {}) {
  const lines: string[] = [];
  const root = project({ m: src }, {}, { "proofs/PROPERTIES.md": properties(counts) });
  const r = checkDafny(layout(root), { only: [], staleIsError: false, log: (x) => lines.push(x), provers });
  const statuses = r.runs.map((run) => run.verdicts.find((v) => v.file === "m.dfy")?.status);
  return { ...r, statuses, log: lines.join("\n") };
}

const lines = (xs: string[]) => `${xs.join("\n")}\n`;

/** A parameter named like a union type, whose record type has a field named like a member. */
const FIELD_OR_MEMBER = (ensures: string) =>
  lines([
    'export type P15Role = "user" | "assistant";',
    "export interface P15Rec {",
    "  User: P15Role;",
    "}",
    "//@ verify",
    `//@ ensures ${ensures}`,
    "export function fieldOrMember(P15Role: P15Rec): P15Role {",
    "  return P15Role.User;",
    "}",
  ]);

describe("a parameter named like a type is the parameter, in bodies and specifications", () => {
  it("Node reads the field", async () => {
    const m = await runTs(FIELD_OR_MEMBER('\\result === "user"'));
    expect(m.fieldOrMember({ User: "assistant" })).toBe("assistant");
  });

  it("the Dafny reads the field where TypeScript does, and the literal is the union's member", () => {
    const out = translate({ m: FIELD_OR_MEMBER('\\result === "user" || \\result === P15Role.User') }).get("m") ?? "";
    expect(out).toContain("function fieldOrMember(P15Role': P15Rec): P15Role\n");
    expect(out).toContain("(fieldOrMember(P15Role') == P15Role.User) || (fieldOrMember(P15Role') == P15Role'.User)");
    expect(out).toContain("\n  P15Role'.User\n");
  });

  it.skipIf(provers.length === 0)(
    'the false ensures (always the member "user") is rejected, the true one (the field) is proven',
    () => {
      const wrong = prove(FIELD_OR_MEMBER('\\result === "user"'));
      expect(wrong.statuses, wrong.log).toEqual(provers.map(() => "rejected"));
      const right = prove(FIELD_OR_MEMBER("\\result === P15Role.User"), { "m.dfy": 1 });
      expect(right.statuses, right.log).toEqual(provers.map(() => "verified"));
      expect(right.exitCode, right.log).toBe(0);
    },
    120_000,
  );
});

/** A recursive function proven (by decreases) to return n. */
const COUNT_DOWN = (annotation: string) =>
  lines([
    annotation,
    "//@ requires n >= 0",
    "//@ ensures \\result === n",
    "//@ decreases n",
    "export function countDown(n: number): number {",
    "  if (n === 0) return 0;",
    "  return countDown(n - 1) + 1;",
    "}",
  ]);

describe("the call stack: recursion stays in specifications", () => {
  it("Node overflows its stack on countDown(1000000)", async () => {
    const m = await runTs(COUNT_DOWN("//@ verify"));
    expect(m.countDown(100)).toBe(100);
    expect(() => m.countDown(1_000_000)).toThrow(RangeError);
  });

  it("a recursive //@ verify function is rejected where it calls itself, directly or through another", () => {
    expect(translateError({ m: COUNT_DOWN("//@ verify") })).toMatch(
      /^src\/kernel\/m\.ts:7:10: recursion in code \(countDown -> countDown\)/,
    );
    const mutual = lines([
      "//@ verify",
      "//@ requires n >= 0",
      "//@ decreases n",
      "export function even(n: number): boolean {",
      "  if (n === 0) return true;",
      "  return odd(n - 1);",
      "}",
      "//@ verify",
      "//@ requires n >= 0",
      "//@ decreases n",
      "export function odd(n: number): boolean {",
      "  if (n === 0) return false;",
      "  return even(n - 1);",
      "}",
    ]);
    expect(translateError({ m: mutual })).toMatch(/recursion in code \((even -> odd -> even|odd -> even -> odd)\)/);
  });

  it("as //@ spec it is a Dafny function for specifications, which code may not call", () => {
    expect(translate({ m: COUNT_DOWN("//@ spec") }).get("m")).toContain("function countDown(n: int): int");
    const caller = lines([
      "//@ verify",
      "//@ requires n >= 0",
      "//@ ensures \\result === countDown(n)",
      "export function twice(n: number): number {",
      "  return countDown(n);",
      "}",
    ]);
    expect(translateError({ m: COUNT_DOWN("//@ spec") + caller })).toMatch(
      /^src\/kernel\/m\.ts:13:10: countDown is \/\/@ spec \(for specifications only\)/,
    );
  });
});

/** Three functions whose ensures hold over the integers and fail on JavaScript's doubles. */
const NUMBERS = lines([
  "//@ verify",
  "//@ ensures \\result",
  "export function squarePlusOne(x: number): boolean {",
  "  return x * x + 1 > x * x;",
  "}",
  "//@ verify",
  "//@ ensures \\result === a",
  "export function addSub(a: number, b: number): number {",
  "  return a + b - b;",
  "}",
  "//@ verify",
  "//@ ensures \\result === 0",
  "export function productMinusItself(x: number): number {",
  `  const p: number = ${Array.from({ length: 35 }, () => "x").join(" * ")};`,
  "  return p - p;",
  "}",
]);

/** The character of NUMBERS at a 1-based line and column. */
const operatorAt = (line: number, col: number): string => NUMBERS.split("\n")[line - 1]?.[col - 1] ?? "";

/** The generated Dafny of one module `m` and the TypeScript origin of each safe-integer obligation in it. */
function emitted(src: string) {
  const mods = translateFiles([{ relPath: "src/kernel/m.ts", text: src, hasCompanion: false }]);
  const info = programInfo(mods, new Map());
  return emitModuleMapped(resolveModule(mods[0], info, dafnyName));
}

describe("the number model: code's arithmetic stays within +-(2^53 - 1)", () => {
  it("Node breaks each ensures", async () => {
    const m = await runTs(NUMBERS);
    expect(m.squarePlusOne(134217728)).toBe(false);
    expect(m.addSub(2 ** 53 - 1, 2)).not.toBe(2 ** 53 - 1);
    expect(m.productMinusItself(1e10)).toBeNaN();
  });

  it("each safe-integer obligation of the generated Dafny knows the TypeScript operator it comes from", () => {
    const { origins } = emitted(NUMBERS);
    expect(origins.length).toBeGreaterThan(3);
    for (const o of origins) expect(operatorAt(o.at.line, o.at.col), JSON.stringify(o)).toMatch(/^[-+*]$/);
    // every + - * of the code has one
    const all = NUMBERS.split("\n").flatMap((l, i) =>
      l.startsWith("//") ? [] : [...l.matchAll(/ ([-+*]) /g)].map((m) => `${i + 1}:${(m.index ?? 0) + 2}`),
    );
    expect(new Set(origins.map((o) => `${o.at.line}:${o.at.col}`))).toEqual(new Set(all));
  });

  it.skipIf(provers.length === 0)(
    "each is rejected at the TypeScript file:line:col of arithmetic that may leave the safe integers, and a + b - b proven once the requires bound a and b",
    () => {
      const r = prove(NUMBERS);
      expect(r.statuses, r.log).toEqual(provers.map(() => "rejected"));
      for (const run of r.runs) {
        const at = run.located.map((x) => /^src\/kernel\/m\.ts:(\d+):(\d+): /.exec(x));
        expect(at.length, r.log).toBeGreaterThan(0);
        // every position is an operator of the code, and each function's arithmetic is named
        for (const m of at)
          expect(m && operatorAt(Number(m[1]), Number(m[2])), run.located.join("\n")).toMatch(/^[-+*]$/);
        const named = new Set(at.map((m) => Number(m?.[1])));
        expect(named.has(4), run.located.join("\n")).toBe(true);
        expect(named.has(9), run.located.join("\n")).toBe(true);
        expect(named.has(14) || named.has(15), run.located.join("\n")).toBe(true);
        expect(r.log).toContain(run.located[0]);
      }
      // a linear bound is proven (Z3's nonlinear reasoning is too weak for x * x from bounds on x)
      const bounded = lines([
        "//@ verify",
        "//@ requires -1000000 <= a && a <= 1000000 && -1000000 <= b && b <= 1000000",
        "//@ ensures \\result === a",
        "export function addSub(a: number, b: number): number {",
        "  return a + b - b;",
        "}",
      ]);
      const ok = prove(bounded, { "m.dfy": 1 });
      expect(ok.statuses, ok.log).toEqual(provers.map(() => "verified"));
    },
    600_000,
  );
});

/** A function whose ensures (a + 1 > a + 5) is false, "proven" through a companion lemma. */
const SHIFTED = lines([
  "//@ verify",
  "//@ requires 0 <= a && a <= 1000",
  "//@ ensures \\result > a + 5",
  "export function up(a: number): number {",
  "  //@ use Shifted(a)",
  "  return a + 1;",
  "}",
]);

/** The companion: Boogie's selective checking assumes every assertion before {:start_checking_here}. */
const SELECTIVE = lines([
  "lemma {:selective_checking} Shifted(a: int)",
  "  ensures a + 1 > a + 5",
  "{",
  "  assert a + 1 > a + 5;",
  "  assert {:start_checking_here} true;",
  "}",
]);

describe("a companion's attributes: only the allow-list is free, any other is trusted and must be listed", () => {
  it("Node breaks the ensures", async () => {
    const m = await runTs(SHIFTED);
    expect(m.up(3)).toBe(4);
  });

  it.skipIf(provers.length === 0)(
    "{:selective_checking} with {:start_checking_here}, which every prover accepts, is trusted: the check fails while PROPERTIES.md does not list each",
    () => {
      const lines: string[] = [];
      const root = project({ m: SHIFTED }, { m: SELECTIVE }, { "proofs/PROPERTIES.md": properties({ "m.dfy": 2 }) });
      const r = checkDafny(layout(root), { only: [], staleIsError: false, log: (x) => lines.push(x), provers });
      const log = lines.join("\n");
      // the provers themselves are fooled: this is what the check must not call proven
      expect(
        r.runs.map((run) => run.verdicts.find((v) => v.file === "m.dfy")?.status),
        log,
      ).toEqual(provers.map(() => "verified"));
      expect(log).toMatch(/trusted: 2 elements/);
      for (const a of ["{:selective_checking}", "{:start_checking_here}"])
        expect(r.problems, log).toContain(
          `proofs/PROPERTIES.md: trusted attribute Shifted ${a} (proofs/dafny/m.dfy, 1) is not listed; add the row | attribute | Shifted ${a} | proofs/dafny/m.dfy | 1 | <why> | under "### Trusted elements"`,
        );
      expect(r.exitCode, log).toBe(1);
    },
    240_000,
  );
});
