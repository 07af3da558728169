import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCompressible } from "../../src/kernel/compressible.ts";
import { isCompressible as ref } from "../../src/reference/compressible.ts";
import { RUNS, role } from "./gen.ts";

describe("compressible (L2)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(role, (r) => isCompressible(r) === ref(r)),
      { numRuns: RUNS },
    );
  });
  it("ensures: compressible iff neither user nor system nor a server-side compaction item", () => {
    fc.assert(
      fc.property(role, (r) => isCompressible(r) === !(r === "user" || r === "system" || r === "compaction")),
      { numRuns: RUNS },
    );
  });
  it("protects exactly user, system and compaction", () => {
    expect(
      ["system", "user", "assistant", "tool", "summary", "compaction"].map((r) => isCompressible(r as never)),
    ).toEqual([false, false, true, true, true, false]);
  });
});
