import { describe, expect, it } from "vitest";
import {
  gateAcceptSummary,
  gateAdvanceWatermark,
  gateDecideCommit,
  gateFindCutPoint,
  gateKeepLines,
  gateRangeTokens,
  gateRetentionCutoff,
  gateSelectKeepRecent,
  gateSelectStretch,
  gateSelectStretchFrom,
  gateSplice,
  gateTriggerFired,
  gateUsageAfterSplice,
  gateUsageTokens,
  gateValidateConfig,
} from "../../src/engine/boundary/kernel-gate.ts";
import { GapArray } from "../../src/engine/store/gap-array.ts";
import type { KernelViews } from "../../src/engine/store/views.ts";
import type { ConfigView } from "../../src/kernel/config.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";

// Every guarded kernel call refuses input outside its //@ requires, with an error naming it.
const th = { tokenThreshold: 10, messageThreshold: 0, turnThreshold: 0 };
const okViews: KernelViews = {
  roles: ["assistant", "user"],
  callOf: [-1, -1],
  lastAnswer: [-1, -1],
  ongoing: [false, false],
  userTurns: 1,
};
const validView: ConfigView = {
  maxTokens: 100,
  tokenThresholdSet: true,
  tokenThreshold: 10,
  messageThresholdSet: false,
  messageThreshold: 0,
  turnThresholdSet: false,
  turnThreshold: 0,
  retentionWindow: 1,
  summaryTagLength: 7,
  modelKnown: true,
  contextWindowSet: true,
  contextWindow: 1000,
  reserveTokens: 10,
  keepRecentTokensSet: false,
  keepRecentTokens: 0,
  softTokenThresholdSet: false,
  softTokenThreshold: 0,
};
const orphanViews: KernelViews = {
  roles: ["user", "tool"],
  callOf: [-1, -1],
  lastAnswer: [-1, -1],
  ongoing: [false, false],
  userTurns: 1,
};

describe("kernel boundary guard", () => {
  it.each([
    [
      "triggerFired with no trigger at all",
      () => gateTriggerFired(5, 1, 1, { tokenThreshold: 0, messageThreshold: 0, turnThreshold: 0 }, 0, 0),
      "triggerFired requires hasThreshold(th) || contextWindow > 0",
    ],
    [
      "triggerFired with reserve >= window",
      () => gateTriggerFired(5, 1, 1, th, 100, 100),
      "triggerFired requires contextWindow === 0 || (reserveTokens >= 0 && contextWindow > reserveTokens)",
    ],
    ["retentionCutoff with window 0", () => gateRetentionCutoff(5, 0), "window >= 1"],
    ["selectStretch on an orphan tool result", () => gateSelectStretch(orphanViews, 1), "Pairing"],
    [
      "selectStretchFrom on an orphan tool result",
      () => gateSelectStretchFrom(orphanViews, 1, 0),
      "selectStretchFrom requires Pairing",
    ],
    [
      "selectStretchFrom from a negative position",
      () => gateSelectStretchFrom(okViews, 1, -1),
      "selectStretchFrom requires 0 <= from",
    ],
    [
      "selectKeepRecent on an orphan tool result",
      () => gateSelectKeepRecent(orphanViews, [1, 1], 1, 0, 1),
      "selectKeepRecent requires Pairing",
    ],
    [
      "selectKeepRecent with too few token counts",
      () => gateSelectKeepRecent(okViews, [1], 1, 0, 1),
      "tokens.length === roles.length",
    ],
    [
      "selectKeepRecent with a fractional token count",
      () => gateSelectKeepRecent(okViews, [1, 0.5], 1, 0, 1),
      "token counts >= 0",
    ],
    [
      "selectKeepRecent with window 0",
      () => gateSelectKeepRecent(okViews, [1, 1], 0, 0, 1),
      "selectKeepRecent requires window >= 1",
    ],
    [
      "splice with an empty range",
      () => gateSplice(new GapArray([1, 2, 3]).view(), 2, 2),
      "splice requires 0 <= start && start < end && end <= xs.length",
    ],
    [
      "rangeTokens past the end",
      () => gateRangeTokens([1, 2], 0, 3),
      "rangeTokens requires 0 <= a && a <= b && b <= xs.length",
    ],
    [
      "decideCommit with a negative length",
      () => gateDecideCommit({ version: 0, length: -1, stretchEnd: 0 }, { version: 0, length: 0, onlyAppends: true }),
      "decideCommit requires",
    ],
    [
      "findCutPoint on an orphan tool result",
      () => gateFindCutPoint(orphanViews, [1, 1], 0, 2, 1),
      "findCutPoint requires",
    ],
    ["keepLines with a negative budget", () => gateKeepLines([1], -1, 5, "head"), "keepHeadLines requires"],
    [
      "usageTokens with a prefix past the end",
      () => gateUsageTokens({ reported: 1, end: 3 }, [1, 2]),
      "usageTokens requires",
    ],
    [
      "usageTokens with a negative report",
      () => gateUsageTokens({ reported: -1, end: 0 }, [1]),
      "usageTokens requires",
    ],
    [
      "usageTokens whose sum passes 2^53 - 1",
      () => gateUsageTokens({ reported: Number.MAX_SAFE_INTEGER, end: 0 }, [1]),
      "2^53 - 1",
    ],
    [
      "usageAfterSplice with an empty stretch",
      () => gateUsageAfterSplice({ reported: 5, end: 1 }, [1, 2], 1, 1, 0),
      "usageAfterSplice requires 0 <= start && start < end && end <= tokens.length",
    ],
    [
      "usageAfterSplice with a fractional summary count",
      () => gateUsageAfterSplice({ reported: 5, end: 1 }, [1, 2], 0, 1, 0.5),
      "usageAfterSplice requires",
    ],
  ])("%s", (_name, call, message) => {
    expect(call).toThrow(KernelBoundaryError);
    expect(call).toThrow(message);
  });

  it("passes valid input through to the kernel", () => {
    expect(gateTriggerFired(10, 1, 1, th, 0, 0)).toBe("threshold");
    expect(gateTriggerFired(9, 1, 1, th, 100, 90)).toBe("notDue");
    expect(gateTriggerFired(11, 1, 1, { tokenThreshold: 0, messageThreshold: 0, turnThreshold: 0 }, 100, 90)).toBe(
      "window",
    );
    expect(gateRetentionCutoff(10, 6)).toBe(4);
    expect(gateSelectStretchFrom(okViews, 1, 0)).toEqual({ found: true, start: 0, end: 1 });
    expect(gateSelectStretchFrom(okViews, 1, 1).found).toBe(false);
    expect(gateSelectKeepRecent(okViews, [3, 4], 1, 0, 4)).toEqual({ found: true, start: 0, end: 1 });
    expect(gateSelectKeepRecent(okViews, [3, 4], 1, 0, 5).found).toBe(false);
  });
});

// The proofs read unbounded integers; doubles add exactly only up to 2^53 - 1. Each input below
// is a safe integer but its sum is not: the kernel would round (suffixTokens) and then subtract
// from the rounded value (keptPrefixEnd), answering found=false although [0, 1) keeps the budget.
describe("kernel boundary: sums the kernel computes stay exact", () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  const twoAssistants: KernelViews = {
    roles: ["assistant", "assistant", "user"],
    callOf: [-1, -1, -1],
    lastAnswer: [-1, -1, -1],
    ongoing: [false, false, false],
    userTurns: 1,
  };

  it.each([
    [
      "selectKeepRecent, tokens [2, 2^53 - 1], keep 2^53 - 1",
      () => gateSelectKeepRecent(okViews, [2, MAX], 1, 0, MAX),
      "selectKeepRecent requires",
    ],
    [
      "selectKeepRecent, tokens [2^53 - 1, 1, 1], keep 2",
      () => gateSelectKeepRecent(twoAssistants, [MAX, 1, 1], 1, 0, 2),
      "selectKeepRecent requires",
    ],
    [
      "findCutPoint, tokens [2^53 - 1, 1, 1]",
      () => gateFindCutPoint(twoAssistants, [MAX, 1, 1], 0, 3, 2),
      "findCutPoint requires",
    ],
    ["rangeTokens over [2^53 - 1, 1]", () => gateRangeTokens([MAX, 1], 0, 2), "rangeTokens requires"],
    [
      "keepLines over lines of 2^53 - 1 and 0 bytes (plus a newline)",
      () => gateKeepLines([MAX, 0], 2, MAX, "head"),
      "keepHeadLines requires",
    ],
  ])("%s is refused, naming the sum", (_name, call, fn) => {
    expect(call).toThrow(KernelBoundaryError);
    expect(call).toThrow(fn);
    expect(call).toThrow("2^53 - 1");
  });

  it("sums up to 2^53 - 1 pass and get the exact answer", () => {
    expect(gateSelectKeepRecent(okViews, [2, MAX - 2], 1, 0, MAX - 2)).toEqual({ found: true, start: 0, end: 1 });
    expect(gateSelectKeepRecent(twoAssistants, [MAX - 2, 1, 1], 1, 0, 2)).toEqual({ found: true, start: 0, end: 1 });
    expect(gateRangeTokens([MAX - 1, 1], 0, 2)).toBe(MAX);
  });

  it.each([
    ["rangeTokens with a fractional count in the range", () => gateRangeTokens([1, 0.5], 0, 2), "rangeTokens requires"],
    [
      "findCutPoint with a fractional budget",
      () => gateFindCutPoint(okViews, [1, 1], 0, 2, 0.5),
      "findCutPoint requires",
    ],
    ["acceptSummary with a fractional count", () => gateAcceptSummary(0.5, 2, 10), "acceptSummary requires"],
    ["advanceWatermark with NaN", () => gateAdvanceWatermark(0, Number.NaN, 3), "advanceWatermark requires"],
    [
      "validateConfig with an unsafe integer",
      () => gateValidateConfig({ ...validView, contextWindow: 2 ** 60 }),
      "validateConfig requires",
    ],
  ])("%s is refused (the proofs read integers)", (_name, call, fn) => {
    expect(call).toThrow(KernelBoundaryError);
    expect(call).toThrow(fn);
  });
});
