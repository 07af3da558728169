// Program fuzzer, shard 2 of 2 (test/fuzz/shard.ts), and the fuzzer's own teeth: a translation
// rule broken on purpose (a - (b - c) printed without its parentheses) must be caught.
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
});
