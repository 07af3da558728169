// The checker's readers: Dafny declarations (bodies, ensures, attributes, assume), Dafny 2.3's
// /trace lines and Dafny 4's CSV log, and the accounting that matches them.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accountItems, parseCsv4, parseTrace23 } from "../../src/toolchain/check/accounting.ts";
import { allowListRows, compareAllowList } from "../../src/toolchain/check/attributes.ts";
import { scanDafny } from "../../src/toolchain/check/dafny-scan.ts";
import { collectTrusted, compareFileCounts, compareTrusted } from "../../src/toolchain/check/trusted.ts";

const SRC = `include "../proofs/dafny/x.dfy"
// lemma Commented(a: int) ensures false
datatype D = A | B
function f(s: seq<int>): set<int>
  requires |s| > 0
  ensures f(s) == {s[0]}
{
  {s[0]}
}
function Bodiless(a: int): int
  ensures Bodiless(a) > a
function {:axiom} Ax(a: int): int
lemma {:verify false} Vf(a: int) ensures a > 0 { }
lemma L(a: int)
  requires a in {1, 2}
  ensures a > 0
{
  assume a > 0; /* assume in a comment */ assume "assume" != "";
}
method Loop() decreases * { while true decreases * { } }
predicate method P(x: int) { x > 0 }
`;

describe("scanning Dafny declarations", () => {
  const scan = scanDafny(SRC);
  const by = (n: string) => scan.decls.find((d) => d.name === n);

  it("finds includes and every declaration, ignoring comments and strings", () => {
    expect(scan.includes).toEqual(["../proofs/dafny/x.dfy"]);
    expect(scan.decls.map((d) => `${d.kind} ${d.name}`)).toEqual([
      "type D",
      "function f",
      "function Bodiless",
      "function Ax",
      "lemma Vf",
      "lemma L",
      "method Loop",
      "function P",
    ]);
  });

  it("a set display in a specification is not a body; a body after it is", () => {
    expect([by("f")?.hasBody, by("f")?.hasEnsures, by("L")?.hasBody]).toEqual([true, true, true]);
    expect([by("Bodiless")?.hasBody, by("Ax")?.hasBody]).toEqual([false, false]);
  });

  it("attributes, assume and decreases *", () => {
    expect(by("Ax")?.attrs).toEqual(["axiom"]);
    expect(by("Vf")?.attrs).toEqual(["verify false"]);
    expect(by("L")?.assumes).toBe(2);
    expect(by("Loop")?.decreasesStar).toBe(true);
  });

  it("trusted elements: bodiless and {:axiom} in a proof file are axioms, {:axiom} in dafny/ an extern", () => {
    const t = collectTrusted(
      new Map([
        ["proofs/dafny/x.dfy", scan],
        ["dafny/g.dfy", scanDafny("function {:axiom} Ext(a: int): int\n  ensures Ext(a) > a\n")],
      ]),
      [],
    );
    expect(t.map((x) => `${x.kind} ${x.name} ${x.count}`)).toEqual([
      "extern Ext 1",
      "axiom Bodiless 1",
      "axiom Ax 1",
      "verify-false Vf 1",
      "assume L 2",
      "nontermination Loop 1",
    ]);
    const md =
      "## Assumptions\n\n### Trusted elements\n\n| kind | name | file | count | why |\n|--|--|--|--|--|\n| extern | Ext | dafny/g.dfy | 1 | reason |\n| assume | L | proofs/dafny/x.dfy | 1 | reason |\n| axiom | Gone | proofs/dafny/x.dfy | 1 | reason |\n";
    const problems = compareTrusted(t, md);
    expect(problems.filter((p) => /is not listed/.test(p))).toHaveLength(4);
    expect(
      problems.some((p) => /assume L \(proofs\/dafny\/x\.dfy\) is listed with count 1, the files hold 2/.test(p)),
    ).toBe(true);
    expect(problems.some((p) => /lists trusted axiom Gone .* no longer hold/.test(p))).toBe(true);
  });

  it("every spelling that skips a proof is trusted: {:verify (false)}, the last {:verify}, {:only}, @VerifyOnly", () => {
    const skips = scanDafny(
      [
        "lemma {:verify (false)} A() ensures false {}",
        "lemma {:verify ((false))} B() ensures false {}",
        "lemma {:verify true} {:verify false} C() ensures false {}",
        "lemma E() ensures false { assert {:only} true; }",
        "@VerifyOnly lemma F() ensures true {}",
        "lemma {:only} G() ensures true {}",
        "lemma {:verify true} H() ensures true {}",
        "lemma I() ensures true { assert {:split_here} true; }",
        "",
      ].join("\n"),
    );
    const t = collectTrusted(new Map([["proofs/dafny/s.dfy", skips]]), []);
    expect(t.map((x) => `${x.kind} ${x.name} ${x.count}`)).toEqual([
      "attribute I {:split_here} 1",
      "verify-false A 1",
      "verify-false B 1",
      "verify-false C 1",
      "verify-false E 1",
      "verify-false F 1",
      "verify-false G 1",
    ]);
  });

  it("every attribute outside the allow-list is trusted, wherever it stands; comments and strings hide and fake none", () => {
    const src = [
      "// lemma {:fuel P, 0} Commented() ensures false {}",
      "/* assert {:start_checking_here} true; */",
      "ghost predicate {:opaque} Sealed(x: int) { x > 0 }",
      "lemma {:selective_checking} Sel(a: int) ensures a > a + 1 {",
      "  assert a > a + 1;",
      '  assert {:start_checking_here} "{:focus}" != "";',
      "}",
      "lemma {:fuel Sealed, 2} {:vcs_max_cost 0} Fu(x: int) requires {:focus} x > 0 ensures forall y {:trigger Sealed(y)} :: Sealed(y) ==> y > 0 {",
      "  reveal Sealed();",
      "}",
      '@IsolateAssertions @ResourceLimit("1e6") lemma At() ensures true {}',
      "method {:extern} Ext() ensures false",
      'datatype {:nativeType "int"} D = A',
      "method Ex(a: int) returns (r: int) ensures r > 5 { r := a; expect r > 5; }",
      "lemma Old() ensures true { label L: assert old@L(1) == 1; }",
      "",
    ].join("\n");
    const s = scanDafny(src);
    expect(s.attributes.map((a) => `${a.decl ?? "-"} ${a.name} ${a.head}`)).toEqual([
      "Sealed opaque true",
      "Sel selective_checking true",
      "Sel start_checking_here false",
      "Fu fuel true",
      "Fu vcs_max_cost true",
      "Fu focus false",
      "Fu trigger false",
      "At @IsolateAssertions true",
      "At @ResourceLimit true",
      "Ext extern true",
      "D nativeType true",
    ]);
    const t = collectTrusted(new Map([["proofs/dafny/a.dfy", s]]), []);
    expect(t.map((x) => `${x.kind} ${x.name} ${x.count}`)).toEqual([
      "attribute Sel {:selective_checking} 1",
      "attribute Sel {:start_checking_here} 1",
      "attribute Fu {:fuel} 1",
      "attribute Fu {:vcs_max_cost} 1",
      "attribute Fu {:focus} 1",
      "attribute At @IsolateAssertions 1",
      "attribute At @ResourceLimit 1",
      "attribute D {:nativeType} 1",
      "axiom Ext 1",
      "assume Ex 1",
    ]);
  });

  it("PROPERTIES.md's allow-list is the checker's: a row missing or added fails", () => {
    const md = readFileSync(join(import.meta.dirname, "..", "..", "proofs", "PROPERTIES.md"), "utf8");
    expect(compareAllowList(md, "P.md")).toEqual([]);
    const [first] = allowListRows();
    expect(compareAllowList(md.replace(`${first}\n`, ""), "P.md")).toEqual([
      `P.md: the allow-list lacks the row ${first}`,
    ]);
    const extra = "| selective_checking | harmless |";
    expect(compareAllowList(md.replace(`${first}\n`, `${first}\n${extra}\n`), "P.md")).toEqual([
      `P.md: the allow-list row ${extra} is not src/toolchain/check/attributes.ts's; remove or correct it`,
    ]);
  });

  it("an import of a module no scanned file declares is trusted; one the project declares is not", () => {
    const lib = scanDafny("module Mine {\n  lemma Z() ensures true {}\n}\n");
    const user = scanDafny("import opened Mine\nimport opened Std.Arithmetic\nimport W = Wrappers\n");
    expect(user.imports.map((i) => i.name)).toEqual(["Mine", "Std.Arithmetic", "Wrappers"]);
    const t = collectTrusted(
      new Map([
        ["proofs/dafny/lib.dfy", lib],
        ["proofs/dafny/user.dfy", user],
      ]),
      [],
    );
    expect(t.map((x) => `${x.kind} ${x.name} ${x.file}`)).toEqual([
      "import Std.Arithmetic proofs/dafny/user.dfy",
      "import Wrappers proofs/dafny/user.dfy",
    ]);
  });

  it("per-file counts: a differing count names the file, the count and what to write", () => {
    const md = "| L1 | f | ... | a.dfy: 4 (file) |\n| L2 | g | ... | b.dfy: 2 |\n## Assumptions\nc.dfy: 9\n";
    expect(
      compareFileCounts(
        new Map([
          ["a.dfy", 4],
          ["b.dfy", 3],
          ["c.dfy", 1],
          ["d.dfy", 0],
        ]),
        md,
        "Dafny 2.3",
      ),
    ).toEqual([
      'proofs/PROPERTIES.md: says b.dfy: 2; Dafny 2.3 verified 3 items: change it to "b.dfy: 3"',
      'proofs/PROPERTIES.md: no count for c.dfy; write "c.dfy: 1" in the "VCs proven" column of its law (Dafny 2.3 verified 1 items)',
    ]);
  });
});

describe("reading per-item outcomes", () => {
  // Dafny 2.3 with `ensures false` added to SplicePreservesPairing: Z3 answers unknown, the
  // summary says 0 errors, the trace says "errors" for that one item.
  const TRACE = [
    "Verifying CheckWellformed$$_module.__default.SplicePreservesPairing ...",
    "  [2.170 s, 3 proof obligations]  verified",
    "",
    "Verifying Impl$$_module.__default.SplicePreservesPairing ...",
    "  [3.507 s, 89 proof obligations]  errors",
    "",
    "Verifying Impl$$_module.__default.my__lemma ...",
    "  [3.767 s, 1 proof obligation]  verified",
    "",
    "Dafny program verifier finished with 2 verified, 0 errors",
  ].join("\n");

  it("Dafny 2.3 /trace: each implementation with its outcome; underscores un-doubled", () => {
    expect(parseTrace23(TRACE)).toEqual([
      { name: "SplicePreservesPairing", phase: "well-formedness", outcome: "verified" },
      { name: "SplicePreservesPairing", phase: "correctness", outcome: "errors" },
      { name: "my_lemma", phase: "correctness", outcome: "verified" },
    ]);
  });

  it("Dafny 4 CSV", () => {
    const csv =
      "TestResult.DisplayName,TestResult.Outcome,TestResult.Duration,TestResult.ResourceCount,RandomSeed\nSumRangeAntitone (well-formedness),Failed,00:00:00.89,10372,0\nfindCutPoint (correctness),Passed,00:00:00.12,144198,0\n";
    expect(parseCsv4(csv)).toEqual([
      { name: "SumRangeAntitone", phase: "well-formedness", outcome: "Failed" },
      { name: "findCutPoint", phase: "correctness", outcome: "Passed" },
    ]);
  });

  it("an item that is not verified, or never reported, or reported but not declared, is a problem", () => {
    const decls = scanDafny(
      "lemma SplicePreservesPairing(a: int)\n  ensures a == a\n{\n}\nlemma Never(a: int)\n  ensures a == a\n{\n}\nfunction Quiet(a: int): int { a }\n",
    ).decls.map((d) => ({ ...d, file: "x.dfy" }));
    const problems = accountItems(decls, [
      ...parseTrace23(TRACE),
      { name: "Quiet", phase: "well-formedness", outcome: "verified" },
    ]);
    expect(problems).toEqual([
      "SplicePreservesPairing (correctness): errors, not verified",
      "my_lemma (correctness): reported by the prover but declared in none of the files verified",
      "Never (x.dfy:5): its correctness was never reported, so it is not proven",
    ]);
  });
});
