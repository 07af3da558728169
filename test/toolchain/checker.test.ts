// The checker cannot be fooled: a proof Z3 gives up on, files no run looks at, kernel sources
// the translator never sees, a module that proves nothing, trusted material not listed in
// PROPERTIES.md, stale per-file counts, and a kernel that does not type-check all fail
// `check dafny` (check.ts checkDafny, exactly as scripts/check.sh runs it).

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDafny } from "../../src/toolchain/check/check.ts";
import { findProvers } from "../../src/toolchain/check/prover.ts";
import { layout } from "../../src/toolchain/frontend/load.ts";
import { copyRepo, project, properties, REPO, removeProjects } from "./project.ts";

const all = findProvers(REPO);
const dafny23 = all.filter((p) => p.generation === "dafny23");
const dafny4 = all.filter((p) => p.generation === "dafny4");
if (dafny23.length === 0)
  console.warn("checker.test.ts: prover cases skipped, no Dafny 2.3 (run: bash scripts/setup-provers.sh)");

afterAll(removeProjects);

/** Runs the check with Dafny 2.3 only (the slow part; Dafny 4 has its own case). */
function check(root: string, only: string[] = [], provers = dafny23) {
  const lines: string[] = [];
  const r = checkDafny(layout(root), { only, staleIsError: false, log: (x) => lines.push(x), provers });
  return { ...r, log: lines.join("\n") };
}

/** A module with one proven function: one item. */
const UP = [
  "//@ verify",
  "//@ requires -1000000 < a && a < 1000000",
  "//@ ensures \\result > a",
  "export function up(a: number): number {",
  "  return a + 1;",
  "}",
  "",
].join("\n");
const UP_PROPS = { "up.dfy": 1 };

describe("kernel sources: type-checked first, every file translated", () => {
  it("a kernel that does not type-check is never translated", () => {
    const bad = UP.replace("  return a + 1;", "  const b: boolean = a;\n  return a + 1;");
    const root = project({ up: bad }, {}, { "proofs/PROPERTIES.md": properties(UP_PROPS) });
    const r = check(root);
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/src\/kernel\/up\.ts:5:9: error TS2322/);
    expect(r.log).toMatch(/does not type-check/);
    expect(readdirSync(join(root, "dafny"))).toEqual([]);
  });

  it.each([["sub/x.ts"], ["x.mts"], ["notes.md"]])("src/kernel/%s is rejected, not ignored", (f) => {
    const root = project({ up: UP }, {}, { [`src/kernel/${f}`]: UP, "proofs/PROPERTIES.md": properties(UP_PROPS) });
    expect(() => check(root)).toThrow(new RegExp(`src/kernel/${f.replace(".", "\\.")}:1:1: not a kernel source`));
  });
});

describe.skipIf(dafny23.length === 0)("every file is verified, every item accounted for", () => {
  it("a plain module passes (the cases below fail for their own reason only)", () => {
    const r = check(project({ up: UP }, {}, { "proofs/PROPERTIES.md": properties(UP_PROPS) }));
    expect(r.problems, r.log).toEqual([]);
    expect(r.exitCode, r.log).toBe(0);
    expect(r.log).toMatch(/up\.dfy: 1 of 1 items verified/);
  }, 120_000);

  it("a .dfy under proofs/dafny that belongs to no module (even one that does not parse)", () => {
    const root = project(
      { up: UP },
      {},
      { "proofs/dafny/junk.dfy": "lemma Oops( ensures false", "proofs/PROPERTIES.md": properties(UP_PROPS) },
    );
    const r = check(root);
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/proofs\/dafny\/junk\.dfy: belongs to no kernel module/);
  }, 120_000);

  it("a helper .dfy that a companion includes is verified with it", () => {
    const companion =
      'include "helper.dfy"\n\nlemma UpIsMore(a: int)\n  requires -1000000 < a < 1000000\n  ensures up(a) > a\n{\n}\n';
    const helper = "lemma Bad(x: int)\n  ensures x > 0\n{\n}\n";
    const root = project(
      { up: UP },
      { up: companion },
      { "proofs/dafny/helper.dfy": helper, "proofs/PROPERTIES.md": properties({ "up.dfy": 3 }) },
    );
    const r = check(root);
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/with proofs\/dafny\/up\.dfy, proofs\/dafny\/helper\.dfy/);
    expect(r.log).toMatch(/Bad \(correctness\): errors?, not verified/);
  }, 120_000);

  it("a helper in a subfolder of proofs/ is staged and verified too", () => {
    const companion =
      'include "lib/deeper.dfy"\n\nlemma UpIsMore(a: int)\n  requires -1000000 < a < 1000000\n  ensures up(a) > a\n{\n}\n';
    const root = project(
      { up: UP },
      { up: companion },
      {
        "proofs/dafny/lib/deeper.dfy": "lemma Fine(x: int)\n  ensures x + 0 == x\n{\n}\n",
        "proofs/PROPERTIES.md": properties({ "up.dfy": 4 }),
      },
    );
    const r = check(root);
    expect(r.problems, r.log).toEqual([]);
    expect(r.exitCode, r.log).toBe(0);
    expect(r.log).toMatch(
      /up\.dfy: 4 of 4 items verified \(with proofs\/dafny\/up\.dfy, proofs\/dafny\/lib\/deeper\.dfy\)/,
    );
  }, 120_000);

  it("a module that verifies 0 items", () => {
    const id = ["//@ verify", "export function id(a: number): number {", "  return a;", "}", ""].join("\n");
    const root = project({ id }, {}, { "proofs/PROPERTIES.md": properties({}) });
    const r = check(root);
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/id\.dfy: verified 0 items although it declares functions/);
  }, 120_000);

  it("an extern is trusted: listed by name, and the check fails until PROPERTIES.md lists it", () => {
    const ext = [
      "//@ extern",
      "//@ ensures \\result > n",
      "export function above(n: number): number {",
      "  return n + 1;",
      "}",
      "",
    ].join("\n");
    const unlisted = check(project({ ext }, {}, { "proofs/PROPERTIES.md": properties({ "ext.dfy": 1 }) }));
    expect(unlisted.log).toMatch(/trusted: 1 elements\n {2}extern above \(dafny\/ext\.dfy\)/);
    expect(unlisted.exitCode, unlisted.log).toBe(1);
    expect(unlisted.log).toMatch(
      /trusted extern above \(dafny\/ext\.dfy, 1\) is not listed; add the row \| extern \| above \| dafny\/ext\.dfy \| 1 \|/,
    );
    const row = "| extern | above | dafny/ext.dfy | 1 | its body is not translated |";
    const listed = check(project({ ext }, {}, { "proofs/PROPERTIES.md": properties({ "ext.dfy": 1 }, [row]) }));
    expect(listed.problems, listed.log).toEqual([]);
    expect(listed.exitCode, listed.log).toBe(0);
  }, 120_000);

  it("assume, {:verify false} and a bodiless lemma in a companion are trusted and must be listed", () => {
    const companion = [
      "lemma {:verify false} Skipped(a: int)",
      "  requires -1000000 < a < 1000000",
      "  ensures up(a) > a + 5",
      "{",
      "}",
      "",
      "lemma NoBody(a: int)",
      "  requires -1000000 < a < 1000000",
      "  ensures up(a) > a + 6",
      "",
      "lemma Assumed(a: int)",
      "  requires -1000000 < a < 1000000",
      "  ensures up(a) > a + 7",
      "{",
      "  assume a > 100;",
      "  assume up(a) > a + 7;",
      "}",
      "",
    ].join("\n");
    const r = check(project({ up: UP }, { up: companion }, { "proofs/PROPERTIES.md": properties(UP_PROPS) }));
    expect(r.exitCode, r.log).toBe(1);
    for (const t of ["verify-false Skipped", "axiom NoBody", "assume Assumed"])
      expect(r.log).toContain(`trusted ${t} (proofs/dafny/up.dfy`);
    expect(r.log).toMatch(/assume Assumed \(proofs\/dafny\/up\.dfy\) x2/);
  }, 120_000);

  it("{:verify (false)}, which both provers skip, is trusted: the check passes only once it is listed", () => {
    const companion = [
      "lemma {:verify (false)} Skipped(a: int)",
      "  requires -1000000 < a < 1000000",
      "  ensures up(a) > a + 5",
      "{",
      "}",
      "",
    ].join("\n");
    const both = [...dafny23, ...dafny4];
    const unlisted = check(
      project({ up: UP }, { up: companion }, { "proofs/PROPERTIES.md": properties(UP_PROPS) }),
      [],
      both,
    );
    expect(unlisted.exitCode, unlisted.log).toBe(1);
    expect(unlisted.log).toContain("trusted verify-false Skipped (proofs/dafny/up.dfy, 1) is not listed");
    const row = "| verify-false | Skipped | proofs/dafny/up.dfy | 1 | probe |";
    const listed = check(
      project({ up: UP }, { up: companion }, { "proofs/PROPERTIES.md": properties(UP_PROPS, [row]) }),
      [],
      both,
    );
    // both provers skip its false ensures: listed, nothing else fails
    expect(listed.problems, listed.log).toEqual([]);
    expect(listed.exitCode, listed.log).toBe(0);
  }, 120_000);

  it("a companion attribute outside the allow-list is trusted: the check passes only once it is listed", () => {
    const companion = [
      "lemma {:vcs_split_on_every_assert} Split(a: int)",
      "  requires -1000000 < a < 1000000",
      "  ensures up(a) > a",
      "{",
      "}",
      "",
    ].join("\n");
    const props = { "up.dfy": 3 };
    const unlisted = check(project({ up: UP }, { up: companion }, { "proofs/PROPERTIES.md": properties(props) }));
    expect(unlisted.exitCode, unlisted.log).toBe(1);
    expect(unlisted.log).toContain(
      "trusted attribute Split {:vcs_split_on_every_assert} (proofs/dafny/up.dfy, 1) is not listed",
    );
    const row = "| attribute | Split {:vcs_split_on_every_assert} | proofs/dafny/up.dfy | 1 | probe |";
    const listed = check(project({ up: UP }, { up: companion }, { "proofs/PROPERTIES.md": properties(props, [row]) }));
    expect(listed.problems, listed.log).toEqual([]);
    expect(listed.exitCode, listed.log).toBe(0);
  }, 120_000);

  it("PROPERTIES.md's per-file count must be the check's", () => {
    const r = check(project({ up: UP }, {}, { "proofs/PROPERTIES.md": properties({ "up.dfy": 2 }) }));
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/says up\.dfy: 2; Dafny 2\.3[\d.]* verified 1 items: change it to "up\.dfy: 1"/);
  }, 120_000);

  it("a mutated thresholdFired: Z3 gives up, Dafny 2.3 reports 0 errors, the check fails", () => {
    // returning "turns" where the message threshold fired breaks thresholdFired's ensures; Dafny 2.3
    // proves neither it nor its negation (its summary says 0 errors) and names the item as not
    // verified. (The earlier probe, ensures false on SplicePreservesPairing, now gets a plain error.)
    const root = copyRepo();
    const path = join(root, "src", "kernel", "trigger.ts");
    const src = readFileSync(path, "utf8");
    const at = 'if (th.messageThreshold > 0 && messages >= th.messageThreshold) return "messages";';
    expect(src.split(at).length - 1).toBe(1);
    writeFileSync(path, src.replace(at, at.replace('return "messages"', 'return "turns"')));
    const r = check(root, ["trigger"]);
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/finished with \d+ verified, 0 errors/);
    expect(r.log).toMatch(/thresholdFired \(well-formedness\): errors, not verified/);
  }, 600_000);
});

describe.skipIf(dafny4.length === 0 || dafny23.length === 0)("Dafny 4 and Dafny 2.3", () => {
  it("both run and each is reported", () => {
    const r = check(
      project({ up: UP }, {}, { "proofs/PROPERTIES.md": properties(UP_PROPS) }),
      [],
      [...dafny23, ...dafny4],
    );
    expect(r.runs.map((x) => x.prover.generation)).toEqual(["dafny23", "dafny4"]);
    expect(r.log).toMatch(/prover: Dafny 2\.3/);
    expect(r.log).toMatch(/prover: Dafny 4\./);
    expect(
      r.runs.map((x) => x.problems),
      r.log,
    ).toEqual([[], []]);
    expect(r.exitCode, r.log).toBe(0);
  }, 120_000);

  it("a parameter named `to` (Dafny 4.11 reads a precondition over it as false) is renamed and verifies", () => {
    const src = [
      "//@ verify",
      "//@ requires 0 <= from && from <= to && to <= 1000000",
      "//@ ensures \\result >= 0",
      "export function width(from: number, to: number): number {",
      "  return to - from;",
      "}",
      "",
      "//@ verify",
      "//@ requires 0 <= a && a <= 1000",
      "//@ ensures \\result >= 0",
      "export function twice(a: number): number {",
      "  return width(a, a + a);",
      "}",
      "",
    ].join("\n");
    const r = check(project({ w: src }, {}, { "proofs/PROPERTIES.md": properties({ "w.dfy": 2 }) }), [], dafny4);
    expect(
      r.runs.flatMap((x) => x.problems),
      r.log,
    ).toEqual([]);
    expect(r.exitCode, r.log).toBe(0);
  }, 120_000);

  it("a false lemma fails under Dafny 4 too", () => {
    const root = project(
      { up: UP },
      { up: "lemma Bad(a: int)\n  requires -1000000 < a < 1000000\n  ensures up(a) < a\n{\n}\n" },
      { "proofs/PROPERTIES.md": properties({ "up.dfy": 1 }) },
    );
    const r = check(root, [], dafny4);
    expect(r.exitCode, r.log).toBe(1);
    expect(r.log).toMatch(/Bad \(correctness\): Failed, not verified/);
  }, 120_000);
});
