import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  acceptSummary,
  compactedTokens,
  compactUntilStable,
  type Proposal,
  rangeTokens,
  rejectionStreak,
  stopAfterRejections,
  sumTokens,
  totalTokens,
} from "../../src/kernel/progress.ts";
import * as ref from "../../src/reference/progress.ts";
import { int, nat, RUNS } from "./gen.ts";

const tokens = fc.array(
  fc.oneof(
    fc.nat(50),
    nat.map((x) => Math.floor(x / 1024)),
  ),
  { maxLength: 30 },
);
const range = tokens.chain((xs) =>
  fc
    .tuple(fc.constant(xs), fc.nat(xs.length))
    .chain(([xs, a]) => fc.tuple(fc.constant(xs), fc.constant(a), fc.integer({ min: a, max: xs.length }))),
);

describe("progress (L8)", () => {
  it("rejectionStreak and stopAfterRejections agree with the reference and their ensures", () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(20), nat), fc.boolean(), fc.integer({ min: 1, max: 20 }), (n, accepted, limit) => {
        const next = rejectionStreak(n, accepted);
        const stop = stopAfterRejections(n, limit);
        return (
          next === ref.rejectionStreak(n, accepted) &&
          next === (accepted ? 0 : n + 1) &&
          stop === ref.stopAfterRejections(n, limit) &&
          stop === n >= limit &&
          (n === 0 ? !stop : true)
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("a summarizer whose answers are never usable is asked exactly `limit` times in a row", () => {
    for (const limit of [1, 2, 4, 7]) {
      let streak = 0;
      let asked = 0;
      while (!stopAfterRejections(streak, limit)) {
        asked++;
        streak = rejectionStreak(streak, false);
      }
      expect(asked).toBe(limit);
    }
  });
  it("acceptSummary agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(int, int, int, (s, r, m) => {
        const got = acceptSummary(s, r, m);
        return got === ref.acceptSummary(s, r, m) && got === (s < r && s <= m);
      }),
      { numRuns: RUNS },
    );
  });
  it("rejects a summary that is not shorter, or over max_tokens", () => {
    expect(acceptSummary(100, 100, 2000)).toBe(false);
    expect(acceptSummary(2001, 5000, 2000)).toBe(false);
    expect(acceptSummary(99, 100, 2000)).toBe(true);
  });
  it("sums agree with the reference (recursive, loop and range forms)", () => {
    fc.assert(
      fc.property(range, ([xs, a, b]) => {
        const want = ref.sumTokens(xs, a, b);
        return (
          sumTokens(xs, a, b) === want && rangeTokens(xs, a, b) === want && totalTokens(xs) === ref.totalTokens(xs)
        );
      }),
      { numRuns: RUNS },
    );
  });
  const step = range
    .filter(([, a, b]) => a < b)
    .chain(([xs, a, b]) => fc.tuple(fc.constant(xs), fc.constant(a), fc.constant(b), fc.oneof(fc.nat(60), nat)));
  it("compactedTokens agrees with the reference", () => {
    fc.assert(
      fc.property(step, ([xs, a, b, s]) => {
        expect(compactedTokens(xs, a, b, s)).toEqual(ref.compactedTokens(xs, a, b, s));
      }),
      { numRuns: RUNS },
    );
  });
  it("compactedTokens ensures: total changes by summary - replaced, strictly down when shorter", () => {
    fc.assert(
      fc.property(step, ([xs, a, b, s]) => {
        const out = compactedTokens(xs, a, b, s);
        const before = ref.totalTokens(xs);
        const after = ref.totalTokens(out);
        const replaced = ref.sumTokens(xs, a, b);
        return (
          out.length === xs.length - (b - a) + 1 &&
          out[a] === s &&
          after === before - replaced + s &&
          (s < replaced ? after < before : true) &&
          out.every((x) => x >= 0) &&
          xs.slice(0, a).every((x, k) => out[k] === x) &&
          xs.slice(b).every((x, k) => out[a + 1 + k] === x)
        );
      }),
      { numRuns: RUNS },
    );
  });
  const proposal: fc.Arbitrary<Proposal> = fc.record({
    start: fc.integer({ min: -1, max: 30 }),
    end: fc.integer({ min: -1, max: 31 }),
    summaryTokens: fc.oneof(fc.nat(40), nat),
  });
  const run = fc.tuple(tokens, fc.array(proposal, { maxLength: 8 }), fc.oneof(fc.nat(60), nat));
  it("compactUntilStable agrees with the reference", () => {
    fc.assert(
      fc.property(run, ([xs, ps, m]) => {
        expect(compactUntilStable(xs, ps, m)).toEqual(ref.compactUntilStable(xs, ps, m));
      }),
      { numRuns: RUNS },
    );
  });
  it("compactUntilStable ensures: accepted <= initial total, and total + accepted <= initial total", () => {
    fc.assert(
      fc.property(run, ([xs, ps, m]) => {
        const r = compactUntilStable(xs, ps, m);
        const before = ref.totalTokens(xs);
        return r.accepted <= before && ref.totalTokens(r.tokens) + r.accepted <= before;
      }),
      { numRuns: RUNS },
    );
  });
  it("compactUntilStable ensures: a first proposal in range and acceptable on the input is accepted", () => {
    // proposals built to satisfy the premise often, a stretch ending at the last entry included
    const premise = tokens
      .filter((xs) => xs.length > 0)
      .chain((xs) =>
        fc.tuple(
          fc.constant(xs),
          fc.nat(xs.length - 1).chain((a) => fc.tuple(fc.constant(a), fc.integer({ min: a + 1, max: xs.length }))),
          fc.nat(20),
          fc.nat(100),
        ),
      );
    fc.assert(
      fc.property(premise, ([xs, [start, end], summaryTokens, m]) => {
        const ps: Proposal[] = [{ start, end, summaryTokens }];
        const first = acceptSummary(summaryTokens, ref.sumTokens(xs, start, end), m);
        return !first || compactUntilStable(xs, ps, m).accepted >= 1;
      }),
      { numRuns: RUNS },
    );
  });
});
