// Probe programs for what `check dafny` proves against what Node runs: each is a small kernel
// module whose stated ensures is false when its TypeScript runs in Node. The module is run in
// Node (to show the ensures is false there) and checked by every installed prover through
// check.ts checkDafny (exactly as scripts/check.sh runs it), which must reject it.

import { afterAll, describe, expect, it } from "vitest";
import { checkDafny } from "../../src/toolchain/check.ts";
import { layout } from "../../src/toolchain/program.ts";
import { findProvers } from "../../src/toolchain/prover.ts";
import { translate } from "./harness.ts";
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
