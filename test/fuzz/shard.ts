// One shard of the program fuzzer for vitest: a batch of random programs (its own seed, printed,
// SAFECUT_FUZZ_SEED to replay), translated, compiled from Dafny to JavaScript in one go and run
// against Node on random inputs. Each finding is written to test/fuzz/regressions/ (commit it:
// every batch runs those again) and fails the test. Two shard files share the budget so that
// vitest runs them on both cores.

import { expect, it } from "vitest";
import { findDafny4 } from "../agree/compile.ts";
import { fuzz, keepAsRegression } from "./run.ts";

/** Programs per shard (two shards: about 2,000 in all per `npm test`). */
const PROGRAMS = Number(process.env.SAFECUT_FUZZ_PROGRAMS ?? 1000);
const INPUTS = Number(process.env.SAFECUT_FUZZ_INPUTS ?? 5);
/** Programs per shard whose contracts Dafny 4 verifies (one Dafny 4 run: the prover is the slow part). */
const VERIFIED = Number(process.env.SAFECUT_FUZZ_VERIFIED ?? 40);

export const hasDafny4 = findDafny4() !== null;
if (!hasDafny4) console.warn("fuzz: skipped, no Dafny 4 (dotnet tool install --global dafny)");

/** Registers the shard's test; `shard` picks its seed and whether it runs the regression cases. */
export function fuzzShard(shard: number): void {
  const seed = Number(process.env.SAFECUT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31)) + shard;
  it.skipIf(!hasDafny4)(
    `${PROGRAMS} random programs agree in Node and compiled from Dafny (seed ${seed})`,
    async () => {
      const r = await fuzz({
        seed,
        programs: PROGRAMS,
        inputsPerProgram: INPUTS,
        regressions: shard === 1,
        verified: VERIFIED,
      });
      console.log(`fuzz shard ${shard}: seed ${seed}, ${JSON.stringify(r.counts)}, ms ${JSON.stringify(r.ms)}`);
      const report = r.findings.map((f) => {
        const file = f.program.id >= 0 ? keepAsRegression(f.program, f.problem) : "(a regression case)";
        return `${f.program.main} ${JSON.stringify(f.input)}: ${f.problem}\n  kept as ${file}`;
      });
      expect(report, `seed ${seed}`).toEqual([]);
      // main and the linear function, each on INPUTS inputs: a run outside the safe integers is only counted
      expect(r.counts.ran + r.counts.outside).toBeGreaterThanOrEqual(2 * PROGRAMS * INPUTS);
      expect(r.counts.ran).toBeGreaterThan(PROGRAMS * INPUTS);
      if (VERIFIED > 0) {
        // every sampled clamp helper verifies; each verified function was held to Node
        expect(r.counts.verifiedFunctions).toBeGreaterThanOrEqual(VERIFIED);
        expect(r.counts.contractChecks).toBeGreaterThan(0);
      }
    },
    600_000,
  );
}
