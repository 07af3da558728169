// Every function `safecut/kernel` exports runs on a million-message history: a proof by
// `decreases` says nothing about Node's call stack, which overflows at some ten thousand
// frames, so a runtime function that recursed once per element would throw RangeError here.
// The inputs are built once (one history of user / assistant call / tool result / assistant
// reply turns, its pairing views, counts and a spliced copy) and shared by every call. The
// recursive definitions (sumTokens, joinedBytes) are `//@ spec`: not exported, never called by code.

import { describe, expect, it } from "vitest";
import * as kernel from "../../src/entries/kernel.ts";
import type { Role } from "../../src/kernel/roles.ts";

const N = 1_000_000;
const WINDOW = 10;

/** Pairing views of a history where each tool result answers the message right before it. */
function views(roles: readonly Role[]) {
  const callOf = roles.map((r, j) => (r === "tool" ? j - 1 : -1));
  const lastAnswer = roles.map((_, j) => (roles[j + 1] === "tool" ? j + 1 : -1));
  return { roles, callOf, lastAnswer, ongoing: roles.map(() => false) };
}

const TURN: Role[] = ["user", "assistant", "tool", "assistant"];
const h = views(Array.from({ length: N }, (_, j) => TURN[j % 4]));
const tokens = h.roles.map(() => 1);
const sel = kernel.selectStretch(h.roles, h.callOf, h.lastAnswer, h.ongoing, WINDOW);
const after = views(kernel.spliceRoles(h.roles, sel.start, sel.end, WINDOW));
const config = {
  maxTokens: 2000,
  tokenThresholdSet: true,
  tokenThreshold: N,
  messageThresholdSet: false,
  messageThreshold: 0,
  turnThresholdSet: false,
  turnThreshold: 0,
  retentionWindow: WINDOW,
  summaryTagLength: 7,
  modelKnown: true,
  contextWindowSet: true,
  contextWindow: 2 * N,
  reserveTokens: 1000,
  keepRecentTokens: 100,
  softTokenThresholdSet: true,
  softTokenThreshold: N - 1,
};
const th = { tokenThreshold: N, messageThreshold: 0, turnThreshold: 0 };
const plan = { version: 3, length: N, stretchEnd: sel.end };
const now = { version: 3, length: N, onlyAppends: true };
const { roles, callOf, lastAnswer, ongoing } = h;
// the clearing tier's facts: nothing cleared or excluded yet, every result clearable to 0 tokens
const none = roles.map(() => false);
const zeros = roles.map(() => 0);
const toolMask = roles.map((r) => r === "tool");
// pins: every tenth message
const pins = roles.map((_, k) => k % 10 === 0);
// summary aging's facts: every assistant reply a summary, and a work plan of N / 8 ascending pairs
// [8m + 1, 8m + 4) that holds half of them (the summaries at 8m + 5 and 8m + 7 lie outside it)
const agingRoles = roles.map((r): Role => (r === "assistant" ? "summary" : r));
// aged summaries of 4 tokens (budget 2 at 50%) whose facts take none (zeros): each fits, each frees 2
const agingTokens = tokens.map(() => 4);
const agingPlan = Array.from({ length: N / 4 }, (_, i) => 8 * Math.floor(i / 2) + (i % 2 === 0 ? 1 : 4));

/** Arguments for each exported function, over the one history (each satisfies the function's requires). */
const ARGS: Record<string, () => unknown[]> = {
  decideCommit: () => [plan, now],
  raceTwoPlans: () => [plan, plan, now],
  compactRolesOnce: () => [roles, callOf, lastAnswer, ongoing, WINDOW],
  isCompressible: () => ["tool"],
  maxTokensLimit: () => [],
  maxTokensOk: () => [config],
  tokenThresholdOk: () => [config],
  messageThresholdOk: () => [config],
  turnThresholdOk: () => [config],
  thresholdsOk: () => [config],
  retentionWindowOk: () => [config],
  summaryTagOk: () => [config],
  modelOk: () => [config],
  contextWindowOk: () => [config],
  reserveTokensOk: () => [config],
  keepRecentTokensOk: () => [config],
  softTokenThresholdOk: () => [config],
  configOk: () => [config],
  validateConfig: () => [config],
  findValidCutPoints: () => [roles, callOf, lastAnswer, 0, N],
  findTurnStart: () => [roles, N - 1, 0],
  findCutPoint: () => [roles, tokens, callOf, lastAnswer, 0, N, N / 2],
  suffixTokens: () => [tokens, 0],
  keptPrefixEnd: () => [
    roles,
    tokens,
    callOf,
    lastAnswer,
    ongoing,
    kernel.retentionCutoff(N, WINDOW),
    sel.start,
    sel.end,
    1,
    kernel.suffixTokens(tokens, sel.start),
  ],
  selectKeepRecent: () => [roles, tokens, callOf, lastAnswer, ongoing, WINDOW, 0, N / 2],
  keepRecentCutoff: () => [tokens, WINDOW, N / 2],
  acceptSummary: () => [10, N, 2000],
  totalTokens: () => [tokens],
  rangeTokens: () => [tokens, 0, N],
  compactedTokens: () => [tokens, 1, N - 1, 5],
  // one accepted step, then the proposal's end lies past the shorter history and it stops
  compactUntilStable: () => [tokens, [{ start: N - 3, end: N, summaryTokens: 2 }], 2000],
  retentionCutoff: () => [N, WINDOW],
  splice: () => [tokens, 1, N - 1, 5],
  spliceRoles: () => [roles, sel.start, sel.end, WINDOW],
  movable: () => [roles, callOf, ongoing, 0, N - 1],
  pairingAt: () => [roles, callOf, lastAnswer, ongoing, N - 1],
  pairingOk: () => [roles, callOf, lastAnswer, ongoing],
  selectStretchFrom: () => [roles, callOf, lastAnswer, ongoing, WINDOW, N / 2],
  selectStretch: () => [roles, callOf, lastAnswer, ongoing, WINDOW],
  selectAfterSplice: () => [
    roles,
    callOf,
    lastAnswer,
    ongoing,
    WINDOW,
    sel,
    after.roles,
    after.callOf,
    after.lastAnswer,
    after.ongoing,
  ],
  hasThreshold: () => [th],
  isCompactionDue: () => [N, N, N / 4, th],
  isOverContextWindow: () => [N, 2 * N, 1000],
  overByteBudget: () => [32 * N, 32 * 1024 * 1024],
  byteVerdict: () => [64 * N, 16 * N, 32 * N],
  triggerFired: () => [N, N, N / 4, th, 2 * N, 1000],
  usageTokens: () => [{ reported: 5000, end: 10 }, tokens],
  usageAfterSplice: () => [{ reported: 5000, end: N / 2 }, tokens, 1, N - 1, 5],
  keepHeadLines: () => [tokens, N, N],
  keepTailLines: () => [tokens, N, N],
  advanceWatermark: () => [0, N / 2, N - 4],
  // every tenth message pinned (none is a summary): the calls of pinned results held in one pass
  pinnedOngoing: () => [roles, callOf, lastAnswer, ongoing, pins],
  selectPinned: () => [roles, callOf, lastAnswer, ongoing, pins, WINDOW],
  clearPinned: () => [
    roles,
    callOf,
    lastAnswer,
    ongoing,
    pins,
    none,
    none,
    tokens,
    zeros,
    WINDOW,
    3,
    N / 2,
    0,
    "threshold",
  ],
  ledgerSlot: () => [roles, N / 2],
  ledgerKept: () => [N, 64],
  ledgerStepUse: () => [true, false],
  thresholdFired: () => [N, N, N / 4, th],
  rejectionStreak: () => [N, false],
  stopAfterRejections: () => [N, 4],
  keptCutoff: () => [roles, 3],
  currentStep: () => [roles],
  clearableAt: () => [roles, callOf, ongoing, none, none, tokens, zeros, N - WINDOW, N - 1, 2],
  noClearing: () => [N],
  selectClearing: () => [roles, callOf, ongoing, none, none, tokens, zeros, WINDOW, 3, N / 2, 0, "threshold"],
  clearedTokens: () => [tokens, zeros, toolMask],
  byteWeightsAfter: () => [tokens, zeros, tokens, zeros],
  applyClearing: () => [tokens, toolMask, zeros],
  callsToClear: () => [callOf, toolMask, true],
  onlyAppendsSince: () => [none, 0],
  decideLogCommit: () => [plan, none, N],
  worthACall: () => [tokens, 0, N, 10, [], []],
  notShrinkable: () => [10, N],
  markedNotShrinkable: () => [10, N],
  // the trigger at the floor: the rule's second branch reads the totals
  floorAllowsRun: () => [N, N, 2 * N, 1, N, 10],
  recordAfterSplice: () => [N - 10, N - 5, 1, N / 2],
  runContinues: () => [true, N, N / 2],
  summarizesAfterClearing: () => [true, false, N, N / 2],
  // a batch that leaves the count over the trigger: the rule's second branch reads the spacing
  batchWorthRewrite: () => [N, 2 * N, N / 2, 1, N, 10],
  clearsNow: () => [false, N, 2 * N],
  // one token saved per step: the run goes down to the target in N / 2 steps
  lowWaterRun: () => [N, true, N / 2, tokens],
  // a need of N / 2 tokens: hundreds of thousands of stretches planned in one linear scan (the
  // plan is never copied)
  planBatch: () => [roles, callOf, lastAnswer, ongoing, WINDOW, tokens, 0, [], [], N / 2, 0, 10],
  // what a plan of N / 8 pairs is expected to free, in one pass over its pairs
  planFreed: () => [tokens, agingPlan, 64, 10],
  agingDue: () => [N / 2, N, 50, 0, N, N / 4],
  agedBudget: () => [N, 50],
  summaryBudget: () => [N, 60, 5, 40, 2000],
  // a million parts of 1 input and 1 output token, 100 to a call (overhead 10 + 200 = 210 tokens)
  planCalls: () => [tokens, tokens, 10, 210, 2000],
  // a flat plan of N / 2 pairs (every count is 1: each pair [1, 1) is empty)
  inPlan: () => [tokens, 5],
  // a need of N / 2 tokens (as planBatch's): every summary outside the work plan is aged, in one
  // scan of the messages and the plan together (the aged list is never copied)
  planAging: () => [agingRoles, agingTokens, zeros, WINDOW, 0, [], [], agingPlan, N / 2, 50],
};

type Fn = (...args: unknown[]) => unknown;
const exported = Object.entries(kernel as Record<string, unknown>)
  .filter(([, v]) => typeof v === "function")
  .map(([n, v]) => [n, v as Fn] as const);

describe(`every function safecut/kernel exports, on a ${N.toLocaleString("en")}-message history`, () => {
  it("the history is well-formed (pairingOk) and a stretch is selected", () => {
    expect(kernel.pairingOk(roles, callOf, lastAnswer, ongoing)).toBe(true);
    expect(kernel.pairingOk(after.roles, after.callOf, after.lastAnswer, after.ongoing)).toBe(true);
    expect(sel).toEqual({ found: true, start: 1, end: 4 });
  });

  it("each exported function has arguments here, and none is listed that is not exported", () => {
    expect(exported.map(([n]) => n).sort()).toEqual(Object.keys(ARGS).sort());
  });

  it.each(exported)("%s runs (no RangeError from the call stack)", (name, fn) => {
    const args = ARGS[name];
    expect(args, `no arguments for ${name}`).toBeDefined();
    expect(() => fn(...(args?.() ?? []))).not.toThrow();
  });

  it("planAging ages every summary outside the work plan and before the retention window", () => {
    const aged = kernel.planAging(agingRoles, agingTokens, zeros, WINDOW, 0, [], [], agingPlan, N / 2, 50);
    // 8m + 5 and 8m + 7 for each of the N / 8 pairs, less the three in the last WINDOW messages
    expect(aged.length).toBe(N / 4 - 3);
    expect(aged.slice(0, 4)).toEqual([5, 7, 13, 15]);
    expect(aged[aged.length - 1]).toBe(N - 11);
  });

  it("sums over the whole history are exact", () => {
    expect(kernel.totalTokens(tokens)).toBe(N);
    expect(kernel.rangeTokens(tokens, 0, N)).toBe(N);
    expect(kernel.suffixTokens(tokens, 0)).toBe(N);
  });
});
