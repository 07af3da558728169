import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  floorAllowsRun,
  markedNotShrinkable,
  notShrinkable,
  recordAfterSplice,
  worthACall,
} from "../../src/kernel/floor.ts";
import { sumTokens } from "../../src/kernel/progress.ts";
import * as ref from "../../src/reference/floor.ts";
import { int, RUNS } from "./gen.ts";

/** Token counts, a stretch in them, and records of which some have the stretch's own bounds. */
const input = fc
  .array(fc.nat(60), { maxLength: 25 })
  .chain((tokens) =>
    fc
      .tuple(fc.nat(tokens.length), fc.nat(tokens.length))
      .map(([a, b]) => [tokens, Math.min(a, b), Math.max(a, b)] as const),
  )
  .chain(([tokens, start, end]) =>
    fc.tuple(
      fc.constant(tokens),
      fc.constant(start),
      fc.constant(end),
      fc.oneof(fc.nat(200), int),
      fc.array(
        fc.oneof(
          fc.constant([start, end] as const),
          fc.tuple(fc.nat(30), fc.nat(30)),
          fc.constant([start, end + 1] as const),
        ),
        { maxLength: 6 },
      ),
    ),
  );

describe("floor and unshrinkable records", () => {
  it("worthACall agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(input, ([tokens, start, end, floor, records]) => {
        const starts = records.map((r) => r[0]);
        const ends = records.map((r) => r[1]);
        const got = worthACall(tokens, start, end, floor, starts, ends);
        const spec = sumTokens(tokens, start, end) > floor && records.every(([s, e]) => !(s === start && e === end));
        return got === ref.worthACall(tokens, start, end, floor, starts, ends) && got === spec;
      }),
      { numRuns: RUNS },
    );
  });
  it("notShrinkable agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(int, int, (s, r) => {
        const got = notShrinkable(s, r);
        return got === ref.notShrinkable(s, r) && got === s >= r;
      }),
      { numRuns: RUNS },
    );
  });
  it("markedNotShrinkable agrees with the reference and its ensures", () => {
    fc.assert(
      fc.property(int, fc.integer({ min: -3, max: 1_000 }), (size, at) => {
        const got = markedNotShrinkable(size, at);
        return got === ref.markedNotShrinkable(size, at) && got === (at >= 0 && size <= at);
      }),
      { numRuns: RUNS },
    );
    // a summary at the size its marker records is not asked again; one that grew past it is
    expect(markedNotShrinkable(400, 400)).toBe(true);
    expect(markedNotShrinkable(401, 400)).toBe(false);
    expect(markedNotShrinkable(400, -1)).toBe(false);
  });
  it("floorAllowsRun agrees with the reference and its ensures", () => {
    const args = fc
      .tuple(
        fc.nat(500),
        fc.nat(500),
        fc.nat(500),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 20 }),
      )
      .map(
        ([trigger, a, b, free, since, every]) => [trigger, Math.min(a, b), Math.max(a, b), free, since, every] as const,
      );
    fc.assert(
      fc.property(args, ([trigger, floor, total, free, since, every]) => {
        const got = floorAllowsRun(trigger, floor, total, free, since, every);
        const want = trigger > floor || (total - floor >= free && since >= every);
        const progress = !(got && trigger <= floor) || (total - floor >= 1 && since >= every);
        return got === ref.floorAllowsRun(trigger, floor, total, free, since, every) && got === want && progress;
      }),
      { numRuns: RUNS },
    );
    // 15k trigger under a 16k floor: refused until 10 calls have passed, and then only with 1,000 to free
    expect(floorAllowsRun(15_000, 16_000, 16_500, 1_000, 20, 10)).toBe(false);
    expect(floorAllowsRun(15_000, 16_000, 17_500, 1_000, 9, 10)).toBe(false);
    expect(floorAllowsRun(15_000, 16_000, 17_500, 1_000, 10, 10)).toBe(true);
    expect(floorAllowsRun(20_000, 16_000, 20_000, 1_000, 0, 10)).toBe(true);
  });
  it("recordAfterSplice agrees with the reference and its ensures", () => {
    const args = fc
      .tuple(fc.integer({ min: -1, max: 40 }), fc.nat(40), fc.nat(40), fc.integer({ min: 1, max: 20 }))
      .map(([a, b, s, len]) => [Math.min(a, b), Math.max(a, b), s, s + len] as const);
    fc.assert(
      fc.property(args, ([a, b, s, e]) => {
        const got = recordAfterSplice(a, b, s, e);
        const want = ref.recordAfterSplice(a, b, s, e);
        return (
          got.start === want.start &&
          got.end === want.end &&
          (!(b <= s) || (got.start === a && got.end === b)) &&
          (!(e <= a) || (got.start === a - (e - s) + 1 && got.end === b - (e - s) + 1)) &&
          (!(s < b && a < e) || (got.start === -1 && got.end === -1))
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("a lone short reply is not worth a call at a floor above it, nor a stretch already rejected", () => {
    // the 7-token "Hello! 👋" between two user messages
    expect(worthACall([30, 7, 25], 1, 2, 0, [], [])).toBe(true);
    expect(worthACall([30, 7, 25], 1, 2, 64, [], [])).toBe(false);
    expect(worthACall([30, 700, 25], 1, 2, 64, [1], [2])).toBe(false);
    // a splice before the record moves it; one over it drops it, so the changed stretch is worth a call again
    expect(recordAfterSplice(5, 6, 1, 4)).toEqual({ start: 3, end: 4 });
    expect(recordAfterSplice(3, 6, 1, 4)).toEqual({ start: -1, end: -1 });
  });
});
