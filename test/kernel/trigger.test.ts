import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  hasThreshold,
  isCompactionDue,
  isOverContextWindow,
  type Thresholds,
  triggerFired,
} from "../../src/kernel/trigger.ts";
import * as ref from "../../src/reference/trigger.ts";
import { nat, RUNS } from "./gen.ts";

const thresholds: fc.Arbitrary<Thresholds> = fc.record({
  tokenThreshold: nat,
  messageThreshold: nat,
  turnThreshold: nat,
});
const setThresholds = thresholds.filter((th) => ref.hasThreshold(th));

describe("trigger (L1)", () => {
  it("hasThreshold agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(thresholds, (th) => {
        const got = hasThreshold(th);
        return (
          got === ref.hasThreshold(th) &&
          got === (th.tokenThreshold > 0 || th.messageThreshold > 0 || th.turnThreshold > 0)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("isCompactionDue agrees with the reference", () => {
    fc.assert(
      fc.property(
        nat,
        nat,
        nat,
        setThresholds,
        (t, m, u, th) => isCompactionDue(t, m, u, th) === ref.isCompactionDue(t, m, u, th),
      ),
      { numRuns: RUNS },
    );
  });
  it("isCompactionDue ensures: due iff some set threshold is reached", () => {
    fc.assert(
      fc.property(nat, nat, nat, setThresholds, (t, m, u, th) => {
        const want =
          (th.tokenThreshold > 0 && t >= th.tokenThreshold) ||
          (th.messageThreshold > 0 && m >= th.messageThreshold) ||
          (th.turnThreshold > 0 && u >= th.turnThreshold);
        return isCompactionDue(t, m, u, th) === want;
      }),
      { numRuns: RUNS },
    );
  });
  it("fires exactly at the threshold and never on an unset one", () => {
    const th = { tokenThreshold: 100, messageThreshold: 0, turnThreshold: 0 };
    expect(isCompactionDue(99, 10 ** 9, 10 ** 9, th)).toBe(false);
    expect(isCompactionDue(100, 0, 0, th)).toBe(true);
  });
  const window = fc
    .tuple(nat, nat)
    .filter(([w, r]) => w > r)
    .map(([w, r]) => ({ w, r }));
  it("isOverContextWindow agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(nat, window, (t, { w, r }) => {
        const got = isOverContextWindow(t, w, r);
        return got === ref.isOverContextWindow(t, w, r) && got === t > w - r;
      }),
      { numRuns: RUNS },
    );
  });
  it("context-window boundary", () => {
    expect(isOverContextWindow(900, 1000, 100)).toBe(false);
    expect(isOverContextWindow(901, 1000, 100)).toBe(true);
  });
});

// triggerFired's inputs: counts, thresholds, and an optional window (0 = none) with its reserve,
// at least one trigger configured (its requires).
const triggerCase = fc
  .tuple(
    nat,
    nat,
    nat,
    thresholds,
    fc.oneof(
      fc.constant(0),
      nat.map((w) => w + 1),
    ),
    nat,
  )
  .map(([t, m, u, th, w, r]) => ({ t, m, u, th, w, r: w === 0 ? r : r % w }))
  .filter((c) => ref.hasThreshold(c.th) || c.w > 0);

describe("triggerFired (L1, both forms)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(triggerCase, (c) => {
        expect(triggerFired(c.t, c.m, c.u, c.th, c.w, c.r)).toBe(ref.triggerFired(c.t, c.m, c.u, c.th, c.w, c.r));
      }),
      { numRuns: RUNS },
    );
  });
  it("ensures hold: threshold iff one is reached, window iff only the window form holds, notDue iff neither", () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(triggerCase, (c) => {
        const got = triggerFired(c.t, c.m, c.u, c.th, c.w, c.r);
        kinds.add(got);
        const byThreshold = hasThreshold(c.th) && isCompactionDue(c.t, c.m, c.u, c.th);
        const byWindow = c.w > 0 && c.t > c.w - c.r;
        expect(got === "threshold").toBe(byThreshold);
        expect(got === "window").toBe(!byThreshold && byWindow);
        expect(got === "notDue").toBe(!byThreshold && !byWindow);
      }),
      { numRuns: RUNS },
    );
    // every outcome occurs, so each clause above was exercised
    expect([...kinds].sort()).toEqual(["notDue", "threshold", "window"]);
  });
});
