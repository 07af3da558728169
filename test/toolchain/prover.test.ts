// The real prover on golden cases: a temporary project (src/kernel/<case>.ts copies of the
// golden inputs, their proof companions under proofs/dafny/, scripts/z3-wrapper.sh) goes
// through check.ts checkDafny, exactly as `scripts/check.sh dafny` runs the kernel. The
// cases verify, so the golden outputs are valid Dafny, not just text. A wrong-on-purpose
// variant shows the check can fail.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDafny } from "../../src/toolchain/check/check.ts";
import { findProvers, parseVerdict, settleTimeouts } from "../../src/toolchain/check/prover.ts";
import { layout } from "../../src/toolchain/frontend/load.ts";
import { project, properties, REPO, removeProjects } from "./project.ts";

const GOLDEN = join(import.meta.dirname, "golden");
/**
 * By default the cases that matter most for meaning: floor division of either sign, switch
 * lowering, a companion lemma and an extern. SAFECUT_PROVE_ALL_GOLDENS=1 proves every case
 * (about 25 s more).
 */
const CASES =
  process.env.SAFECUT_PROVE_ALL_GOLDENS === "1" ? readdirSync(GOLDEN).sort() : ["scalars", "control", "specs"];

const dafnyCommand = process.env.SAFECUT_DAFNY ?? "dafny";
const hasDafny = !spawnSync(dafnyCommand, ["--version"], { encoding: "utf8" }).error;
if (!hasDafny)
  console.warn(`prover.test.ts: skipped, '${dafnyCommand}' is not on PATH (run: bash scripts/setup-provers.sh)`);

afterAll(removeProjects);

/** Dafny 2.3 when installed (see the golden case below), else whatever Dafny is. */
const GOLDEN_PROVERS = ((all) =>
  all.some((p) => p.generation === "dafny23") ? all.filter((p) => p.generation === "dafny23") : all)(findProvers(REPO));

function goldenProject(cases: string[]): string {
  const sources: Record<string, string> = {};
  const companions: Record<string, string> = {};
  for (const c of cases) {
    sources[c] = readFileSync(join(GOLDEN, c, "input.ts"), "utf8");
    const comp = join(GOLDEN, c, "companion.dfy");
    if (existsSync(comp)) companions[c] = readFileSync(comp, "utf8");
  }
  // the specs case holds an extern, which PROPERTIES.md must list; per-file counts are left out (see below)
  const trusted = [
    ...(cases.includes("specs") ? ["| extern | roundUpToPage | dafny/specs.dfy | 1 | golden extern |"] : []),
    ...(cases.includes("scalars")
      ? ["| nat-parameter | half.n | src/kernel/scalars.ts | 1 | golden nat parameter |"]
      : []),
    // these cases' arithmetic is trusted exact (//@ unbounded-numbers); probes.test.ts tests the number model
    ...cases
      .filter((c) => ["scalars", "control", "specs"].includes(c))
      .map((c) => `| unbounded-numbers | ${c} | src/kernel/${c}.ts | 1 | golden case |`),
  ];
  return project(sources, companions, { "proofs/PROPERTIES.md": properties({}, trusted) });
}

describe.skipIf(!hasDafny)("Dafny on golden cases", () => {
  it(`${CASES.join(", ")} verify, and the files checked are the expected goldens`, () => {
    const root = goldenProject(CASES);
    const log: string[] = [];
    // Dafny 2.3, as the kernel's counts; under Dafny 4 with Z3 4.8.12 the floorDiv helper of the
    // scalars case times out (its nonlinear postconditions), which the kernel does not use
    const r = checkDafny(layout(root), {
      only: [],
      staleIsError: false,
      log: (x) => log.push(x),
      provers: GOLDEN_PROVERS,
    });
    const summary = log.join("\n");
    expect(
      r.verdicts.map((v) => [v.file, v.status]),
      summary,
    ).toEqual(
      CASES.slice()
        .sort()
        .map((c) => [`${c}.dfy`, "verified"]),
    );
    for (const v of r.verdicts) expect(v.verified, v.file).toBeGreaterThan(0);
    // every item of every installed Dafny proven; the only complaints are the counts this fixture leaves out
    expect(
      r.runs.flatMap((x) => x.problems),
      summary,
    ).toEqual([]);
    expect(
      r.problems.filter((p) => !/no count for/.test(p)),
      summary,
    ).toEqual([]);
    for (const c of CASES) {
      expect(readFileSync(join(root, "dafny", `${c}.dfy`), "utf8")).toBe(
        readFileSync(join(GOLDEN, c, "expected.dfy"), "utf8"),
      );
    }
  }, 120_000);

  it("a false contract is rejected (the check has teeth)", () => {
    const src = [
      "//@ verify",
      "//@ ensures \\result >= 0",
      "export function floorOf(a: number, b: number): number {",
      "  return Math.floor(a / b);",
      "}",
      "",
    ].join("\n");
    const root = project({ wrong: src }, {});
    const r = checkDafny(layout(root), { only: [], staleIsError: false, log: () => {}, provers: GOLDEN_PROVERS });
    expect(r.exitCode).toBe(1);
    expect(r.verdicts).toHaveLength(1);
    expect(r.verdicts[0].status).toBe("rejected");
    expect(r.verdicts[0].errors).toBeGreaterThan(0);
  }, 60_000);
});

describe("reading Dafny's verdict", () => {
  it("all proven", () => {
    const v = parseVerdict("a.dfy", 0, "\nDafny program verifier finished with 9 verified, 0 errors\n");
    expect([v.status, v.verified, v.errors, v.timeouts]).toEqual(["verified", 9, 0, 0]);
  });

  it("a failed condition", () => {
    const v = parseVerdict(
      "a.dfy",
      4,
      "a.dfy(3,2): Error: ...\nDafny program verifier finished with 8 verified, 1 error\n",
    );
    expect([v.status, v.verified, v.errors, v.timeouts]).toEqual(["rejected", 8, 1, 0]);
  });

  it("a time out is not a proof (and not a resolution error)", () => {
    const v = parseVerdict("a.dfy", 4, "Dafny program verifier finished with 17 verified, 0 errors, 1 time out\n");
    expect([v.status, v.verified, v.errors, v.timeouts]).toEqual(["rejected", 17, 0, 1]);
    expect(parseVerdict("a.dfy", 4, "finished with 1 verified, 2 errors, 3 time outs").timeouts).toBe(3);
  });

  it("a parallel run that only timed out is run once more, one item at a time; that run's verdict stands", () => {
    const timedOut = parseVerdict(
      "a.dfy",
      4,
      "Dafny program verifier finished with 1 verified, 0 errors, 1 time out\n",
    );
    const proven = parseVerdict("a.dfy", 0, "Dafny program verifier finished with 2 verified, 0 errors\n");
    const again = parseVerdict("a.dfy", 4, "Dafny program verifier finished with 1 verified, 0 errors, 1 time out\n");
    const failed = parseVerdict(
      "a.dfy",
      4,
      "a.dfy(3,2): Error: ...\nDafny program verifier finished with 1 verified, 1 error\n",
    );
    let reruns = 0;
    const rerun = (v: typeof proven) => () => {
      reruns++;
      return v;
    };
    // proven on the re-run: it stands, and says it followed time outs
    const settled = settleTimeouts(timedOut, rerun(proven));
    expect([settled.status, settled.verified, settled.retriedAfterTimeouts]).toEqual(["verified", 2, 1]);
    // a re-run that times out or fails again is still a failure: a time out proves nothing
    expect(settleTimeouts(timedOut, rerun(again)).status).toBe("rejected");
    expect(settleTimeouts(timedOut, rerun(failed)).status).toBe("rejected");
    expect(reruns).toBe(3);
    // an error, a proof or a resolution failure is never run again
    for (const first of [failed, proven, parseVerdict("a.dfy", 2, "1 resolution/type errors detected in a.dfy\n")])
      expect(settleTimeouts(first, rerun(proven))).toBe(first);
    expect(reruns).toBe(3);
  });

  it("no summary line: did not resolve", () => {
    const v = parseVerdict(
      "a.dfy",
      2,
      "a.dfy(1,0): Error: unresolved identifier: x\n1 resolution/type errors detected in a.dfy\n",
    );
    expect(v.status).toBe("invalid");
  });
});
