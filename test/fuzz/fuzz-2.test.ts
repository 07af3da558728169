// Program fuzzer, shard 2 of 2 (test/fuzz/shard.ts), and the fuzzer's own teeth: a translation
// rule broken on purpose (a - (b - c) printed without its parentheses) must be caught, and so
// must contracts verified without the number model (an ensures the prover accepts, false in Node).
import { describe, expect, it } from "vitest";
import { fuzz } from "./run.ts";
import { fuzzShard, hasDafny4 } from "./shard.ts";

describe("program fuzzer (shard 2)", () => {
  fuzzShard(2);

  it.skipIf(!hasDafny4)(
    "catches a - (b - c) printed as a - b - c",
    async () => {
      // code's arithmetic prints as SafeInteger_<module>(a - SafeInteger_<module>(b - c)): the broken
      // rule prints the inner difference unparenthesised, a - S(b) - c
      const dropParens = (dafny: string) =>
        dafny.replace(/ - (SafeInteger_\w+)\(([^()\s]+) - ([^()\s]+)\)/g, " - $1($2) - $3");
      const r = await fuzz({ seed: 11, programs: 60, inputsPerProgram: 10, regressions: false, mutate: dropParens });
      expect(r.findings.length).toBeGreaterThan(0);
      expect(r.findings[0].problem).toMatch(/TypeScript .*, Dafny /);
      // only programs that subtract a difference differ (the shards run clean translations)
      for (const f of r.findings) expect(f.program.source).toMatch(/ - \(/);
    },
    600_000,
  );

  it.skipIf(!hasDafny4)(
    "catches an ensures verified without the number model (the safe-integer bound's requires dropped)",
    async () => {
      const dropBound = (dafny: string) =>
        dafny.replace(/\n {2}requires -9007199254740991 <= x <= 9007199254740991\n/g, "\n");
      const r = await fuzz({
        seed: 5,
        programs: 20,
        inputsPerProgram: 10,
        regressions: false,
        verified: 20,
        mutateVerified: dropBound,
      });
      expect(r.findings.length).toBeGreaterThan(0);
      // the compiled programs are the translator's own: only the contracts verified without the bound fail
      for (const f of r.findings)
        expect(f.problem).toMatch(/^f\d+l verified, but Node's result .* breaks its ensures f\d+lpost$/);
    },
    600_000,
  );
});
