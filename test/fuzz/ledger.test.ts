// Fuzz of the ledger's kernel decisions (src/kernel/ledger.ts) against their plain references and
// their guarantees, on random role sequences: the slot is never a tool result, never before the
// wanted index, and skips only tool results; the kept count is within the cap and the count; a
// step cleared before the run is never entered again nor allowed to close an error.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ledgerKept, ledgerSlot, ledgerStepUse } from "../../src/kernel/ledger.ts";
import * as reference from "../../src/reference/ledger.ts";
import { role } from "../kernel/gen.ts";

describe("ledger kernel decisions, fuzzed", () => {
  it("ledgerSlot: agrees with the reference and keeps every call beside its result", () => {
    fc.assert(
      fc.property(
        fc.array(role, { maxLength: 40 }).chain((rs) => fc.tuple(fc.constant(rs), fc.nat(rs.length))),
        ([roles, want]) => {
          const slot = ledgerSlot(roles, want);
          expect(slot).toBe(reference.ledgerSlot(roles, want));
          expect(slot).toBeGreaterThanOrEqual(want);
          expect(slot).toBeLessThanOrEqual(roles.length);
          if (slot < roles.length) expect(roles[slot]).not.toBe("tool");
          for (let i = want; i < slot; i++) expect(roles[i]).toBe("tool");
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("ledgerKept: agrees with the reference and never passes the cap", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (count, cap) => {
        const kept = ledgerKept(count, cap);
        expect(kept).toBe(reference.ledgerKept(count, cap));
        expect(kept).toBeLessThanOrEqual(cap);
        expect(kept).toBeLessThanOrEqual(count);
      }),
      { numRuns: 2_000 },
    );
  });

  it("ledgerStepUse: agrees with the reference; a result cleared before the run is skipped", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (clearedBefore, unchanged) => {
        const use = ledgerStepUse(clearedBefore, unchanged);
        expect(use).toBe(reference.ledgerStepUse(clearedBefore, unchanged));
        if (clearedBefore) expect(use).toBe("skip");
        else expect(use).toBe(unchanged ? "close" : "enter");
      }),
      { numRuns: 200 },
    );
  });
});
