import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactedTokens } from "../../src/kernel/progress.ts";
import {
  byteVerdict,
  hasThreshold,
  isCompactionDue,
  isOverContextWindow,
  overByteBudget,
  type ReportedPrefix,
  type Thresholds,
  thresholdFired,
  triggerFired,
  usageAfterSplice,
  usageTokens,
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
  it("overByteBudget agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(nat, fc.oneof(fc.constant(0), nat), (b, m) => {
        const got = overByteBudget(b, m);
        return got === ref.overByteBudget(b, m) && got === (m > 0 && b > m);
      }),
      { numRuns: RUNS },
    );
  });
  it("byteVerdict agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(nat, nat, fc.oneof(fc.constant(0), nat), (a, b, m) => {
        const bytes = Math.max(a, b);
        const floor = Math.min(a, b);
        const got = byteVerdict(bytes, floor, m);
        const over = m > 0 && bytes > m;
        const want = !over ? "fits" : floor > m ? "floorOver" : "due";
        return got === ref.byteVerdict(bytes, floor, m) && got === want;
      }),
      { numRuns: RUNS },
    );
  });
  it("byteVerdict at the edges: a floor at the budget is due, one byte over it is not", () => {
    expect(byteVerdict(2000, 1000, 1000)).toBe("due");
    expect(byteVerdict(2000, 1001, 1000)).toBe("floorOver");
    expect(byteVerdict(1000, 1000, 1000)).toBe("fits");
    expect(byteVerdict(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 0)).toBe("fits");
  });
  it("byte budget boundary, and an unset budget never fires", () => {
    expect(overByteBudget(1000, 1000)).toBe(false);
    expect(overByteBudget(1001, 1000)).toBe(true);
    expect(overByteBudget(Number.MAX_SAFE_INTEGER, 0)).toBe(false);
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

describe("thresholdFired (L1, which threshold, for the report)", () => {
  // small counts and thresholds, so that each threshold is reached, alone or with others, often
  const small = fc.nat(6);
  const th = fc.record({ tokenThreshold: small, messageThreshold: small, turnThreshold: small });
  it("agrees with the reference and its ensures; none exactly when the threshold form is not due", () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(small, small, small, th, (t, m, u, th) => {
        const got = thresholdFired(t, m, u, th);
        kinds.add(got);
        expect(got).toBe(ref.thresholdFired(t, m, u, th));
        const tok = th.tokenThreshold > 0 && t >= th.tokenThreshold;
        const msg = th.messageThreshold > 0 && m >= th.messageThreshold;
        const trn = th.turnThreshold > 0 && u >= th.turnThreshold;
        expect(got === "tokens").toBe(tok);
        expect(got === "messages").toBe(!tok && msg);
        expect(got === "turns").toBe(!tok && !msg && trn);
        expect(got === "none").toBe(!(hasThreshold(th) && isCompactionDue(t, m, u, th)));
      }),
      { numRuns: RUNS },
    );
    expect([...kinds].sort()).toEqual(["messages", "none", "tokens", "turns"]);
  });
});

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const counts = fc.array(fc.nat(1000), { maxLength: 30 });
/** Counts with a report for a prefix of them: near the counted prefix total most of the time, anywhere sometimes. */
const reportedOn = counts.chain((tokens) =>
  fc.nat(tokens.length).chain((end) =>
    fc
      .oneof(
        fc.integer({ min: -50, max: 50 }).map((d) => Math.max(0, sum(tokens.slice(0, end)) + d)),
        fc.nat(20_000),
      )
      .map((reported): { tokens: number[]; u: ReportedPrefix } => ({ tokens, u: { reported, end } })),
  ),
);
/** A report and a splice [start, end) of its counts by a summary of `s` tokens. */
const splicedReport = reportedOn
  .filter(({ tokens }) => tokens.length > 0)
  .chain(({ tokens, u }) =>
    fc
      .tuple(fc.nat(tokens.length - 1), fc.nat(tokens.length - 1), fc.nat(1000))
      .map(([a, b, s]) => ({ tokens, u, start: Math.min(a, b), end: Math.max(a, b) + 1, s })),
  );

describe("trigger with reported usage (L1)", () => {
  it("usageTokens agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(reportedOn, ({ tokens, u }) => {
        const got = usageTokens(u, tokens);
        return got === ref.usageTokens(u, tokens) && got === u.reported + sum(tokens.slice(u.end));
      }),
      { numRuns: RUNS },
    );
  });
  it("usageTokens with nothing reported is the counted total", () => {
    expect(usageTokens({ reported: 0, end: 0 }, [3, 4, 5])).toBe(12);
    // the report replaces the counts of the prefix it covers, whatever they are
    expect(usageTokens({ reported: 100, end: 2 }, [3, 4, 5])).toBe(105);
  });
  it("usageAfterSplice agrees with the reference", () => {
    fc.assert(
      fc.property(splicedReport, ({ tokens, u, start, end, s }) =>
        samePrefix(usageAfterSplice(u, tokens, start, end, s), ref.usageAfterSplice(u, tokens, start, end, s)),
      ),
      { numRuns: RUNS },
    );
  });
  it("after a splice the judged total moves by exactly what the step changed, or every message is counted", () => {
    fc.assert(
      fc.property(splicedReport, ({ tokens, u, start, end, s }) => {
        const next = usageAfterSplice(u, tokens, start, end, s);
        const after = compactedTokens(tokens, start, end, s);
        if (next.end > after.length || next.reported < 0) return false;
        if (start < u.end && sum(tokens.slice(start, Math.min(end, u.end))) > u.reported) {
          // the report holds less than the counted part taken out of it: dropped
          return next.reported === 0 && next.end === 0;
        }
        const moved = usageTokens(u, tokens) - sum(tokens.slice(start, end)) + s;
        return usageTokens(next, after) === moved;
      }),
      { numRuns: RUNS },
    );
  });
  it("a stretch inside the report takes its counts out and the summary's in", () => {
    // messages 1..2 (7 counted tokens) of a 4-message report of 30 become a 2-token summary
    expect(usageAfterSplice({ reported: 30, end: 4 }, [1, 3, 4, 5, 6], 1, 3, 2)).toEqual({ reported: 25, end: 3 });
    // a stretch past the report leaves it alone; one across its end ends it at the stretch
    expect(usageAfterSplice({ reported: 30, end: 2 }, [1, 3, 4, 5, 6], 2, 4, 2)).toEqual({ reported: 30, end: 2 });
    expect(usageAfterSplice({ reported: 30, end: 2 }, [1, 3, 4, 5, 6], 1, 4, 2)).toEqual({ reported: 27, end: 1 });
    // a report smaller than the counts taken out of it is dropped
    expect(usageAfterSplice({ reported: 5, end: 4 }, [1, 3, 4, 5, 6], 1, 3, 2)).toEqual({ reported: 0, end: 0 });
  });
});

function samePrefix(a: ReportedPrefix, b: ReportedPrefix): boolean {
  return a.reported === b.reported && a.end === b.end;
}
