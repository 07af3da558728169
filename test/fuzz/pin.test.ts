// Fuzz of the pin decisions (src/kernel/pin.ts) against their plain references and their
// guarantees, on random well-formed conversations with random pins (never on a summary): the
// pinned view stays well-formed, holds exactly what it must, and neither the stretch chosen on it
// nor the clearing chosen on it touches a pinned message.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectClearing } from "../../src/kernel/clearing.ts";
import { clearPinned, pinnedOngoing, selectPinned } from "../../src/kernel/pin.ts";
import { pairingOk, selectStretch } from "../../src/kernel/stretch.ts";
import * as reference from "../../src/reference/pin.ts";
import { type Conversation, conversation } from "../kernel/gen.ts";

const pinned = conversation(30).chain((c) =>
  fc
    .array(fc.boolean(), { minLength: c.roles.length, maxLength: c.roles.length })
    .map((p) => ({ c, pins: p.map((x, k) => x && c.roles[k] !== "summary") })),
);
const views = (c: Conversation) => [c.roles, c.callOf, c.lastAnswer, c.ongoing] as const;

describe("pin kernel decisions, fuzzed", () => {
  it("pinnedOngoing: agrees with the reference, stays well-formed, holds pinned calls and nothing else", () => {
    fc.assert(
      fc.property(pinned, ({ c, pins }) => {
        const held = pinnedOngoing(...views(c), pins);
        expect(held).toEqual(reference.pinnedOngoing(...views(c), pins));
        expect(pairingOk(c.roles, c.callOf, c.lastAnswer, held)).toBe(true);
        c.roles.forEach((r, k) => {
          if (c.ongoing[k]) expect(held[k]).toBe(true);
          if (pins[k] && r === "assistant") expect(held[k]).toBe(true);
          if (pins[k] && r === "tool") expect(held[c.callOf[k]]).toBe(true);
          if (held[k] && !c.ongoing[k] && !(pins[k] && r === "assistant"))
            expect(c.roles.some((r2, k2) => pins[k2] && r2 === "tool" && c.callOf[k2] === k)).toBe(true);
        });
      }),
      { numRuns: 2_000 },
    );
  });

  it("selectPinned: the stretch holds no pinned message, and is the selection on the pinned view", () => {
    fc.assert(
      fc.property(pinned, fc.integer({ min: 1, max: 6 }), ({ c, pins }, w) => {
        const st = selectPinned(...views(c), pins, w);
        expect(st).toEqual(reference.selectPinned(...views(c), pins, w));
        expect(st).toEqual(selectStretch(c.roles, c.callOf, c.lastAnswer, pinnedOngoing(...views(c), pins), w));
        if (st.found) for (let k = st.start; k < st.end; k++) expect(pins[k]).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it("clearPinned: no pinned tool result is cleared, where the clearing without pins clears it", () => {
    let clearedWithoutPins = 0;
    fc.assert(
      fc.property(pinned, fc.nat(3), ({ c, pins }, keep) => {
        const n = c.roles.length;
        const none = c.roles.map(() => false);
        const tokens = c.roles.map(() => 10);
        const after = c.roles.map(() => 1);
        const args = [none, none, tokens, after, 1, keep, 10 * n, 0, "threshold"] as const;
        const mask = clearPinned(...views(c), pins, ...args);
        expect(mask).toEqual(reference.clearPinned(...views(c), pins, ...args));
        expect(mask).toHaveLength(n);
        const plain = selectClearing(c.roles, c.callOf, c.ongoing, ...args);
        c.roles.forEach((_, k) => {
          if (pins[k]) expect(mask[k]).toBe(false);
          if (pins[k] && plain[k]) clearedWithoutPins++;
        });
      }),
      { numRuns: 2_000 },
    );
    // the property is not vacuous: without the pins, pinned results were cleared
    expect(clearedWithoutPins).toBeGreaterThan(0);
  });
});
