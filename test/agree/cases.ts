// Inputs for the agreement check: for every kernel function, a fast-check generator of argument
// lists that satisfy its `//@ requires` (outside them neither program promises anything, and the
// compiled Dafny may not even terminate) and the engine's exactness bound: numbers are safe
// integers and every sum the kernel forms over an array stays <= 2^53 - 1 (src/engine/boundary/exact.ts).
// Numbers are biased to the edges: 0, 1, small, 2^40, 2^52 and 2^53 - 1. Where a requires names an
// earlier selection (keptPrefixEnd, selectAfterSplice), the input is built with the TypeScript
// kernel's own selection, whose ensures give exactly that requires.
import fc from "fast-check";
import { EXACT_LIMIT, natsSumExactly } from "../../src/engine/boundary/exact.ts";
import { retentionCutoff } from "../../src/kernel/retention.ts";
import type { Role } from "../../src/kernel/roles.ts";
import { selectStretch, selectStretchFrom } from "../../src/kernel/stretch.ts";
import { afterSplice, type Conversation, conversation, role } from "../kernel/gen.ts";

/** Naturals up to 2^53 - 1, biased to the edges. */
const wideNat: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1, 2, 2 ** 40, 2 ** 52, EXACT_LIMIT - 1, EXACT_LIMIT),
  fc.integer({ min: 0, max: 20 }),
  fc.bigInt({ min: 0n, max: BigInt(EXACT_LIMIT) }).map(Number),
);
/** Safe integers of either sign, biased to the edges. */
const wideInt: fc.Arbitrary<number> = fc.oneof(
  wideNat,
  wideNat.map((x) => -x),
  fc.integer({ min: -3, max: 3 }),
);
/** Small integers, where the branches of index arithmetic meet. */
const small = fc.integer({ min: -3, max: 30 });
const anyInt = fc.oneof(small, wideInt);
/** -1 and naturals up to 2^51: index arithmetic on two of them stays exact. */
const quarter = fc.oneof(
  fc.constant(-1),
  small.map((x) => Math.max(0, x)),
  wideNat.map((x) => Math.floor(x / 4)),
);

/** Naturals whose sum plus `extra` per entry stays <= 2^53 - 1: large entries are scaled down to fit. */
function exactNats(minLength: number, maxLength: number, extra = 0): fc.Arbitrary<number[]> {
  const entry = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 50 }), weight: 3 }, { arbitrary: wideNat, weight: 1 });
  return fc.array(entry, { minLength, maxLength }).map((xs) => {
    if (natsSumExactly(xs, extra * xs.length)) return xs;
    const share = Math.floor(EXACT_LIMIT / (xs.length * (extra + 1)));
    return xs.map((x) => Math.min(x, share - extra));
  });
}
/** Exactly n naturals with an exact sum. */
const exactNatsOf = (n: number, extra = 0) => exactNats(n, n, extra);
/** Integers of either sign whose absolute values sum to at most 2^53 - 1 (every partial sum is exact). */
const exactInts = (maxLength: number) =>
  fc
    .tuple(exactNats(0, maxLength), fc.array(fc.boolean(), { minLength: maxLength, maxLength }))
    .map(([xs, neg]) => xs.map((x, i) => (neg[i] ? -x : x)));

/** 0 <= a <= b <= n. */
const range = (n: number) => fc.tuple(fc.nat(n), fc.nat(n)).map(([x, y]) => [Math.min(x, y), Math.max(x, y)] as const);

const window = fc.oneof(
  fc.integer({ min: 1, max: 8 }),
  wideNat.map((w) => Math.max(1, w)),
);
/** Token counts whose sum times 100 stays <= 2^53 - 1 (planAging's and planBatch's requires): large entries scaled down. */
const agingTokens = (minLength: number, maxLength: number) =>
  exactNats(minLength, maxLength).map((xs) => xs.map((x) => (x > 50 ? Math.floor(x / 101) : x)));
/** A start position: mostly inside the conversation, sometimes past it or huge. */
const from = (n: number) => fc.oneof({ arbitrary: fc.nat(n + 2), weight: 4 }, { arbitrary: wideNat, weight: 1 });

/** A well-formed conversation with token counts that sum exactly. */
const withTokens = conversation().chain((c) => exactNatsOf(c.roles.length).map((tokens) => ({ c, tokens })));
/** A budget: any integer, or a share of the tokens (where it shapes the choice most often). */
const budget = (tokens: readonly number[]) => {
  const total = tokens.reduce((a, b) => a + b, 0);
  return fc.oneof(
    anyInt,
    fc.integer({ min: 0, max: 100 }).map((pct) => Math.floor((total / 100) * pct)),
    fc.constant(total),
    fc.constant(Math.min(total + 1, EXACT_LIMIT)),
  );
};
const views = (c: Conversation) => [c.roles, c.callOf, c.lastAnswer, c.ongoing] as const;

/** Arbitrary (not necessarily well-formed) pairing views of equal length n >= minLength. */
const rawViews = (minLength: number) =>
  fc
    .integer({ min: minLength, max: 12 })
    .chain((n) =>
      fc.tuple(
        fc.array(role, { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: -2, max: n + 1 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: -2, max: n + 1 }), { minLength: n, maxLength: n }),
        fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      ),
    );

const thresholds = (v: fc.Arbitrary<number>) => fc.record({ tokenThreshold: v, messageThreshold: v, turnThreshold: v });
const hasAny = (t: { tokenThreshold: number; messageThreshold: number; turnThreshold: number }) =>
  t.tokenThreshold > 0 || t.messageThreshold > 0 || t.turnThreshold > 0;
const configView = fc.record({
  maxTokens: fc.oneof(anyInt, fc.constantFrom(100000, 100001)),
  tokenThresholdSet: fc.boolean(),
  tokenThreshold: anyInt,
  messageThresholdSet: fc.boolean(),
  messageThreshold: anyInt,
  turnThresholdSet: fc.boolean(),
  turnThreshold: anyInt,
  retentionWindow: anyInt,
  summaryTagLength: anyInt,
  modelKnown: fc.boolean(),
  contextWindowSet: fc.boolean(),
  contextWindow: anyInt,
  reserveTokens: anyInt,
  keepRecentTokensSet: fc.boolean(),
  keepRecentTokens: anyInt,
  softTokenThresholdSet: fc.boolean(),
  softTokenThreshold: anyInt,
});
const stamp = fc.record({
  version: anyInt,
  length: fc.oneof(fc.nat(5), wideNat),
  stretchEnd: fc.oneof(fc.nat(5), wideNat),
});
const now = fc.record({ version: anyInt, length: fc.oneof(fc.nat(5), wideNat), onlyAppends: fc.boolean() });
const compressible: fc.Arbitrary<Role> = fc.constantFrom("assistant", "tool", "summary");

/** Everything the clearing tier reads: a conversation, masks, exact token counts and placeholder counts around them. */
const clearing = withTokens.chain(({ c, tokens }) => {
  const n = c.roles.length;
  const flags = fc.array(fc.boolean(), { minLength: n, maxLength: n });
  return fc.record({
    c: fc.constant(c),
    tokens: fc.constant(tokens),
    after: fc
      .array(fc.integer({ min: -2, max: 40 }), { minLength: n, maxLength: n })
      .map((d) => tokens.map((t, k) => (d[k] < 0 ? t : Math.max(0, t - d[k])))),
    cleared: flags,
    excluded: flags,
    window,
    keep: fc.oneof(fc.nat(6), wideNat),
    goal: fc.oneof(anyInt, fc.constant(EXACT_LIMIT)),
    clearAtLeast: fc.oneof(fc.constant(0), fc.nat(120), wideNat),
    due: fc.constantFrom("threshold", "window", "notDue"),
  });
});
const clearingArgs = (x: {
  c: Conversation;
  cleared: boolean[];
  excluded: boolean[];
  tokens: number[];
  after: number[];
}) => [x.c.roles, x.c.callOf, x.c.ongoing, x.cleared, x.excluded, x.tokens, x.after];

/** Pins on a conversation's messages, never on a summary. */
const pinsOf = (c: Conversation) =>
  fc
    .array(fc.boolean(), { minLength: c.roles.length, maxLength: c.roles.length })
    .map((p) => p.map((x, k) => x && c.roles[k] !== "summary"));
const pinnedConversation = conversation().chain((c) => pinsOf(c).map((pinned) => ({ c, pinned })));

/** floorAllowsRun's arguments: any trigger, 0 <= low <= high <= 2^53 - 1, freeAtLeast >= 1, callsSince >= 0, every >= 1. */
const floorRunArgs = fc
  .tuple(
    anyInt,
    wideNat,
    wideNat,
    fc.oneof(
      fc.integer({ min: 1, max: 600 }),
      wideNat.map((x) => Math.max(1, x)),
    ),
  )
  .chain(([trigger, x, y, free]) =>
    fc
      .tuple(
        fc.oneof(fc.nat(30), wideNat),
        fc.oneof(
          fc.integer({ min: 1, max: 12 }),
          wideNat.map((n) => Math.max(1, n)),
        ),
      )
      .map(([since, every]) => [trigger, Math.min(x, y), Math.max(x, y), free, since, every]),
  );

/** Argument lists per kernel function name. */
export const cases: Record<string, fc.Arbitrary<unknown[]>> = {
  // clearing.ts
  countTools: fc.array(role, { maxLength: 20 }).chain((r) => range(r.length).map(([a, b]) => [r, a, b])),
  lastAssistant: fc.array(role, { maxLength: 20 }).chain((r) => fc.nat(r.length).map((b) => [r, b])),
  keptCutoff: fc.tuple(fc.array(role, { maxLength: 20 }), fc.oneof(fc.nat(6), wideNat)),
  currentStep: fc.tuple(fc.array(role, { maxLength: 20 })),
  mayClear: clearing
    .filter(({ c }) => c.roles.length > 0)
    .chain((x) => fc.nat(x.c.roles.length - 1).map((k) => [...clearingArgs(x), x.window, x.keep, k])),
  clearableAt: clearing
    .filter(({ c }) => c.roles.length > 0)
    .chain((x) =>
      fc
        .tuple(fc.integer({ min: -1, max: x.c.roles.length + 1 }), fc.integer({ min: -2, max: x.c.roles.length - 1 }))
        .chain(([limit, step]) => fc.nat(x.c.roles.length - 1).map((k) => [...clearingArgs(x), limit, step, k])),
    ),
  freedBy: clearing.chain((x) => fc.nat(x.c.roles.length).map((b) => [x.tokens, x.after, x.cleared, b])),
  greedyFreed: clearing.chain((x) =>
    fc.nat(x.c.roles.length).map((b) => [...clearingArgs(x), x.window, x.keep, x.goal, b]),
  ),
  noClearing: fc.tuple(fc.nat(30)),
  selectClearing: clearing.map((x) => [...clearingArgs(x), x.window, x.keep, x.goal, x.clearAtLeast, x.due]),
  clearedTokens: clearing.map((x) => [x.tokens, x.after, x.excluded]),
  byteWeightsAfter: clearing.chain((x) =>
    fc
      .tuple(
        fc.array(fc.nat(400), { minLength: x.tokens.length, maxLength: x.tokens.length }),
        fc.array(fc.nat(400), { minLength: x.tokens.length, maxLength: x.tokens.length }),
      )
      .map(([bytes, afterBytes]) => [x.tokens, x.after, bytes, afterBytes]),
  ),
  applyClearing: fc
    .array(fc.tuple(anyInt, anyInt, fc.boolean()), { maxLength: 20 })
    .map((xs) => [xs.map((x) => x[0]), xs.map((x) => x[2]), xs.map((x) => x[1])]),
  callsToClear: clearing.map((x) => [
    x.c.callOf,
    x.c.roles.map((r, k) => r === "tool" && !x.excluded[k]),
    x.due !== "notDue",
  ]),
  // commit.ts
  decideCommit: fc.oneof(
    fc.tuple(stamp, now),
    // the same version and length, where commit is possible
    fc.tuple(stamp, fc.boolean()).map(([p, a]) => [p, { version: p.version, length: p.length, onlyAppends: a }]),
  ),
  raceTwoPlans: fc.tuple(stamp, stamp, now, fc.oneof(fc.constant(0), fc.nat(3), wideNat)).map(([a, b, n, d]) => {
    const nowVersion = a.version <= EXACT_LIMIT - d ? a.version + d : a.version;
    return [a, { ...b, version: a.version }, { ...n, version: nowVersion }];
  }),
  // logcommit.ts
  onlyAppendsSince: fc.array(fc.boolean(), { maxLength: 12 }).chain((r) => fc.tuple(fc.constant(r), fc.nat(r.length))),
  decideLogCommit: fc.tuple(
    // the version plus the tail's length stays exact
    stamp.map((p) => ({ ...p, version: Math.min(p.version, EXACT_LIMIT - 8) })),
    fc.oneof(fc.array(fc.constant(false), { maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 8 })),
    fc.oneof(fc.nat(5), wideNat),
  ),
  // compaction.ts
  compactRolesOnce: fc.tuple(conversation(), window).map(([c, w]) => [...views(c), w]),
  // compressible.ts
  isCompressible: fc.tuple(role),
  // config.ts
  maxTokensLimit: fc.constant([]),
  ...Object.fromEntries(
    [
      "maxTokensOk",
      "tokenThresholdOk",
      "messageThresholdOk",
      "turnThresholdOk",
      "thresholdsOk",
      "retentionWindowOk",
      "summaryTagOk",
      "modelOk",
      "contextWindowOk",
      "reserveTokensOk",
      "keepRecentTokensOk",
      "softTokenThresholdOk",
      "configOk",
      "validateConfig",
    ].map((f) => [f, fc.tuple(configView)]),
  ),
  // cutpoint.ts
  findValidCutPoints: conversation().chain((c) =>
    range(c.roles.length).map(([s, e]) => [c.roles, c.callOf, c.lastAnswer, s, e]),
  ),
  findTurnStart: fc
    .array(role, { minLength: 1, maxLength: 20 })
    .chain((roles) => range(roles.length - 1).map(([s, i]) => [roles, i, s])),
  findCutPoint: withTokens.chain(({ c, tokens }) =>
    fc
      .tuple(range(c.roles.length), budget(tokens))
      .map(([[s, e], k]) => [c.roles, tokens, c.callOf, c.lastAnswer, s, e, k]),
  ),
  // keeprecent.ts
  suffixTokens: exactNats(0, 30).chain((t) => fc.nat(t.length).map((f) => [t, f])),
  keptPrefixEnd: withTokens
    .chain(({ c, tokens }) =>
      fc.tuple(window, fc.nat(c.roles.length), budget(tokens)).map(([w, f, k]) => ({ c, tokens, w, f, k })),
    )
    .map(({ c, tokens, w, f, k }) => ({
      c,
      tokens,
      k,
      cutoff: retentionCutoff(c.roles.length, w),
      sel: selectStretchFrom(...views(c), w, f),
    }))
    .filter(({ sel }) => sel.found)
    .map(({ c, tokens, k, cutoff, sel }) => [
      c.roles,
      tokens,
      c.callOf,
      c.lastAnswer,
      c.ongoing,
      cutoff,
      sel.start,
      sel.end,
      k,
      tokens.slice(sel.start).reduce((a, b) => a + b, 0),
    ]),
  keepRecentCutoff: withTokens.chain(({ tokens }) => fc.tuple(window, budget(tokens)).map(([w, k]) => [tokens, w, k])),
  selectKeepRecent: withTokens.chain(({ c, tokens }) =>
    fc
      .tuple(window, from(c.roles.length), budget(tokens))
      .map(([w, f, k]) => [c.roles, tokens, c.callOf, c.lastAnswer, c.ongoing, w, f, k]),
  ),
  // progress.ts
  acceptSummary: fc.tuple(anyInt, anyInt, anyInt),
  // a streak below 2^53 - 1 (one more stays exact); a limit >= 1
  rejectionStreak: fc.tuple(
    fc.oneof(
      fc.nat(10),
      wideNat.map((n) => Math.min(n, EXACT_LIMIT - 1)),
    ),
    fc.boolean(),
  ),
  stopAfterRejections: fc.tuple(
    fc.oneof(fc.nat(10), wideNat),
    fc.oneof(
      fc.integer({ min: 1, max: 10 }),
      wideNat.filter((n) => n >= 1),
    ),
  ),
  sumTokens: exactInts(30).chain((xs) => range(xs.length).map(([a, b]) => [xs, a, b])),
  // token counts >= 0 with an exact sum (their requires)
  totalTokens: fc.tuple(exactNats(0, 30)),
  rangeTokens: exactNats(0, 30).chain((xs) => range(xs.length).map(([a, b]) => [xs, a, b])),
  compactedTokens: fc.array(anyInt, { minLength: 1, maxLength: 20 }).chain((xs) =>
    fc
      .tuple(range(xs.length), anyInt)
      .filter(([[a, b]]) => a < b)
      .map(([[a, b], s]) => [xs, a, b, s]),
  ),
  compactUntilStable: exactNats(0, 12).chain((t) =>
    fc
      .tuple(
        fc.array(
          fc.record({
            start: fc.integer({ min: -1, max: t.length + 1 }),
            end: fc.integer({ min: -1, max: t.length + 1 }),
            summaryTokens: fc.oneof(fc.nat(60), wideNat),
          }),
          { maxLength: 5 },
        ),
        anyInt,
      )
      .map(([ps, m]) => [t, ps, m]),
  ),
  // ledger.ts
  ledgerSlot: fc.array(role, { maxLength: 10 }).chain((rs) => fc.tuple(fc.constant(rs), fc.nat(rs.length))),
  ledgerKept: fc.tuple(fc.oneof(fc.nat(30), wideNat), fc.oneof(fc.nat(30), wideNat)),
  ledgerStepUse: fc.tuple(fc.boolean(), fc.boolean()),
  // pin.ts: pins anywhere but on a summary (the models' requires; pinnedOngoing takes any)
  pinnedOngoing: pinnedConversation.map(({ c, pinned }) => [...views(c), pinned]),
  selectPinned: fc.tuple(pinnedConversation, window).map(([{ c, pinned }, w]) => [...views(c), pinned, w]),
  clearPinned: clearing.chain((x) =>
    pinsOf(x.c).map((pinned) => [
      x.c.roles,
      x.c.callOf,
      x.c.lastAnswer,
      x.c.ongoing,
      pinned,
      x.cleared,
      x.excluded,
      x.tokens,
      x.after,
      x.window,
      x.keep,
      x.goal,
      x.clearAtLeast,
      x.due,
    ]),
  ),
  // retention.ts
  retentionCutoff: fc.tuple(fc.oneof(fc.nat(30), wideNat), window),
  // splice.ts
  splice: fc.array(anyInt, { minLength: 1, maxLength: 20 }).chain((xs) =>
    fc
      .tuple(range(xs.length), anyInt)
      .filter(([[a, b]]) => a < b)
      .map(([[a, b], s]) => [xs, a, b, s]),
  ),
  spliceRoles: fc
    .tuple(
      fc.array(role, { maxLength: 8 }),
      fc.array(compressible, { minLength: 1, maxLength: 8 }),
      fc.array(role, { minLength: 1, maxLength: 8 }),
    )
    .chain(([pre, mid, post]) =>
      fc
        .integer({ min: 1, max: post.length })
        .map((w) => [[...pre, ...mid, ...post], pre.length, pre.length + mid.length, w]),
    ),
  // stretch.ts
  movable: rawViews(1).chain(([r, c, , o]) => fc.tuple(small, fc.nat(r.length - 1)).map(([s, j]) => [r, c, o, s, j])),
  pairingAt: rawViews(1).chain(([r, c, l, o]) => fc.nat(r.length - 1).map((j) => [r, c, l, o, j])),
  pairingOk: fc.oneof(
    conversation().map((c) => [...views(c)]),
    rawViews(0),
    // one entry of a well-formed conversation changed, or one view a different length
    fc.tuple(conversation(), fc.nat(30), small, fc.constantFrom(0, 1, 2, 3)).map(([c, at, v, which]) => {
      const vs: unknown[][] = views(c).map((x) => [...x]);
      if (c.roles.length === 0 || which === 3) vs[at % 4].push(["user", -1, -1, false][at % 4]);
      else if (which === 0) vs[1][at % c.roles.length] = v;
      else if (which === 1) vs[2][at % c.roles.length] = v;
      else vs[3][at % c.roles.length] = !vs[3][at % c.roles.length];
      return vs;
    }),
  ),
  selectStretchFrom: conversation().chain((c) =>
    fc.tuple(window, from(c.roles.length)).map(([w, f]) => [...views(c), w, f]),
  ),
  selectStretch: fc.tuple(conversation(), window).map(([c, w]) => [...views(c), w]),
  selectAfterSplice: fc
    .tuple(conversation(), fc.integer({ min: 1, max: 6 }))
    .map(([c, w]) => ({ c, w, prev: selectStretch(...views(c), w) }))
    .filter(({ prev }) => prev.found)
    .map(({ c, w, prev }) => [...views(c), w, prev, ...views(afterSplice(c, prev.start, prev.end))]),
  // trigger.ts
  hasThreshold: fc.tuple(thresholds(anyInt)),
  isCompactionDue: fc.tuple(
    wideNat,
    fc.oneof(fc.nat(30), wideNat),
    fc.oneof(fc.nat(30), wideNat),
    thresholds(fc.oneof(fc.nat(30), wideNat)).filter(hasAny),
  ),
  isOverContextWindow: fc
    .tuple(wideNat, wideNat, wideNat)
    .filter(([, a, b]) => a !== b)
    .map(([t, a, b]) => [t, Math.max(a, b), Math.min(a, b)]),
  overByteBudget: fc.tuple(fc.oneof(fc.nat(30), wideNat), fc.oneof(fc.constant(0), fc.nat(30), wideNat)),
  byteVerdict: fc
    .tuple(fc.oneof(fc.nat(30), wideNat), fc.oneof(fc.nat(30), wideNat), fc.oneof(fc.constant(0), fc.nat(30), wideNat))
    .map(([a, b, m]) => [Math.max(a, b), Math.min(a, b), m]),
  thresholdFired: fc.tuple(
    fc.oneof(fc.nat(30), wideNat),
    fc.oneof(fc.nat(30), wideNat),
    fc.oneof(fc.nat(30), wideNat),
    thresholds(fc.oneof(fc.nat(30), wideNat)),
  ),
  triggerFired: fc
    .tuple(
      wideNat,
      fc.nat(30),
      fc.nat(30),
      thresholds(fc.oneof(fc.nat(30), wideNat)),
      fc.oneof(fc.constant(0), wideNat),
      wideNat,
    )
    .map(([t, m, u, th, cw, r]) => [t, m, u, th, cw, cw === 0 ? r : Math.min(r, cw - 1)])
    .filter(([, , , th, cw]) => hasAny(th as Parameters<typeof hasAny>[0]) || (cw as number) > 0),
  usageTokens: exactNats(0, 30).chain((t) =>
    fc
      .tuple(fc.nat(t.length), wideNat)
      .map(([end, r]) => [{ reported: Math.min(r, EXACT_LIMIT - t.reduce((a, b) => a + b, 0)), end }, t]),
  ),
  usageAfterSplice: exactNats(1, 30).chain((t) =>
    fc
      .tuple(fc.nat(t.length), fc.oneof(wideNat, fc.nat(60)), range(t.length), fc.oneof(fc.nat(60), wideNat))
      .filter(([, , [a, b]]) => a < b)
      .map(([end, r, [a, b], s]) => [{ reported: r, end }, t, a, b, Math.min(s, EXACT_LIMIT - r)]),
  ),
  // truncate.ts
  joinedBytes: exactNats(0, 20, 1).chain((xs) => range(xs.length).map(([a, b]) => [xs, a, b])),
  keepHeadLines: fc.tuple(exactNats(0, 20, 1), fc.oneof(fc.nat(25), wideNat), fc.oneof(fc.nat(200), wideNat)),
  keepTailLines: fc.tuple(exactNats(0, 20, 1), fc.oneof(fc.nat(25), wideNat), fc.oneof(fc.nat(200), wideNat)),
  // batch.ts
  // disjoint ascending pairs, as a plan has them (overlapping pairs would count tokens twice, past 2^53)
  // token counts whose sum times 100 is exact, as planBatch's requires them (a stretch's share)
  batchFreed: agingTokens(0, 30).chain((t) =>
    fc
      .tuple(
        fc.array(fc.nat(t.length), { maxLength: 12 }),
        // a summary's allowance of tokens, a natural: with a negative one the freed sum (tokens plus
        // allowance) passes 2^53 - 1 (batchFreed is //@ spec: no bound is proven for its sum)
        fc.oneof(
          fc.nat(30),
          wideNat.map((x) => Math.floor(x / 64)),
        ),
        fc.integer({ min: 0, max: 100 }),
      )
      .chain(([cuts, allowance, keep]) => {
        const plan = [...cuts].sort((a, b) => a - b).slice(0, cuts.length - (cuts.length % 2));
        return fc.nat(plan.length / 2).map((k) => [t, plan, allowance, keep, k]);
      }),
  ),
  // entries within the tokens that never decrease (planBatch's pairs), odd lengths too
  planFreed: agingTokens(0, 30).chain((t) =>
    fc
      .tuple(
        fc.array(fc.nat(t.length), { maxLength: 12 }),
        fc.oneof(
          fc.nat(30),
          wideNat.map((x) => Math.floor(x / 64)),
        ),
        fc.integer({ min: 0, max: 100 }),
      )
      .map(([cuts, allowance, keep]) => [t, [...cuts].sort((a, b) => a - b), allowance, keep]),
  ),
  planBatch: conversation()
    .chain((c) => agingTokens(c.roles.length, c.roles.length).map((tokens) => ({ c, tokens })))
    .chain(({ c, tokens }) =>
      fc
        .tuple(
          window,
          anyInt,
          fc.array(fc.tuple(fc.nat(c.roles.length + 1), fc.nat(c.roles.length + 1)), { maxLength: 4 }),
          anyInt,
          // a summary's allowance of tokens, a natural whose product with the message count is at
          // most 2^53 - 1 (planBatch's requires: the allowances the freed sum takes off stay exact)
          fc.oneof(
            fc.nat(30),
            wideNat.map((x) => Math.floor(x / Math.max(1, c.roles.length))),
          ),
          // the share of a stretch its summary is expected to keep, a percent
          fc.integer({ min: 0, max: 100 }),
        )
        .map(([w, floor, recs, need, allowance, keep]) => [
          c.roles,
          c.callOf,
          c.lastAnswer,
          c.ongoing,
          w,
          tokens,
          floor,
          recs.map((r) => r[0]),
          recs.map((r) => r[1]),
          need,
          allowance,
          keep,
        ]),
    ),
  // aging.ts
  // planned work within the total, expected to free between minus and plus its tokens
  agingDue: fc
    .tuple(wideNat, wideNat, fc.integer({ min: 0, max: 100 }), wideNat, wideNat, fc.boolean(), anyInt)
    .map(([a, b, share, p, f, neg, need]) => {
      const total = Math.max(a, b);
      const planned = total === 0 ? 0 : p % (total + 1);
      const freed = planned === 0 ? 0 : (neg ? -1 : 1) * (f % (planned + 1));
      return [Math.min(a, b), total, share, freed, need, planned];
    }),
  agedBudget: fc.tuple(
    fc.oneof(
      fc.nat(200),
      wideNat.map((x) => Math.floor(x / 100)),
    ),
    fc.integer({ min: 0, max: 99 }),
  ),
  agingFreed: agingTokens(0, 30).chain((t) =>
    fc
      .tuple(
        fc.array(fc.nat(Math.max(0, t.length - 1)), { maxLength: t.length === 0 ? 0 : 10 }),
        fc.integer({ min: 0, max: 99 }),
      )
      .chain(([aged, percent]) => fc.nat(aged.length).map((k) => [t, aged, percent, k])),
  ),
  inPlan: fc.tuple(fc.array(anyInt, { maxLength: 10 }), anyInt),
  planAging: conversation()
    .chain((c) => agingTokens(c.roles.length, c.roles.length).map((tokens) => ({ c, tokens })))
    .chain(({ c, tokens }) =>
      fc
        .tuple(
          window,
          anyInt,
          fc.array(fc.tuple(fc.nat(c.roles.length + 1), fc.nat(2)), { maxLength: 4 }),
          fc.array(fc.nat(c.roles.length + 1), { maxLength: 8 }).map((xs) => xs.sort((a, b) => a - b)),
          fc.oneof(anyInt, budget(tokens)),
          fc.integer({ min: 0, max: 99 }),
          fc.array(fc.oneof(fc.constant(0), fc.nat(70), anyInt), {
            minLength: tokens.length,
            maxLength: tokens.length,
          }),
        )
        .map(([w, floor, recs, plan, need, percent, facts]) => [
          c.roles,
          tokens,
          facts,
          w,
          floor,
          recs.map((r) => r[0]),
          recs.map((r) => r[0] + r[1]),
          plan,
          need,
          percent,
        ]),
    ),
  // callplan.ts: parts' input and output counts (one exact sum with the overhead), any window and cap
  planCalls: fc
    .integer({ min: 0, max: 30 })
    .chain((n) => fc.tuple(exactNatsOf(2 * n), wideNat, anyInt, anyInt))
    .map(([counts, overhead, window, cap]) => {
      const n = counts.length / 2;
      const total = counts.reduce((t, x) => t + x, 0);
      return [counts.slice(0, n), counts.slice(n), Math.min(overhead, EXACT_LIMIT - total), window, cap];
    }),
  // a range of parts (callFits is //@ spec: any integers, the sums are exact by the counts above)
  callFits: fc
    .integer({ min: 0, max: 30 })
    .chain((n) => fc.tuple(exactNatsOf(2 * n), wideNat, anyInt, anyInt, range(n)))
    .map(([counts, overhead, window, cap, [a, b]]) => {
      const n = counts.length / 2;
      const total = counts.reduce((t, x) => t + x, 0);
      return [counts.slice(0, n), counts.slice(n), Math.min(overhead, EXACT_LIMIT - total), window, cap, a, b];
    }),
  // budget.ts
  summaryBudget: fc.tuple(
    fc.oneof(
      fc.nat(100_000),
      wideNat.map((x) => Math.floor(x / 100)),
    ),
    fc.oneof(
      fc.nat(500),
      wideNat.map((x) => Math.floor(x / 2)),
    ),
    fc.integer({ min: 0, max: 100 }),
    fc.oneof(
      fc.nat(1000),
      wideNat.map((x) => Math.floor(x / 2)),
    ),
    fc.oneof(
      fc.integer({ min: 1, max: 5000 }),
      wideNat.map((x) => Math.max(1, x)),
    ),
  ),
  // floor.ts
  worthACall: exactNats(0, 30).chain((t) =>
    fc
      .tuple(
        range(t.length),
        anyInt,
        fc.array(fc.tuple(fc.nat(t.length + 1), fc.nat(t.length + 1), fc.boolean()), { maxLength: 5 }),
      )
      .map(([[a, b], floor, recs]) => {
        // about half the records carry the stretch's own bounds
        const bounds = recs.map(([x, y, own]) => (own ? [a, b] : [x, y]));
        return [t, a, b, floor, bounds.map((r) => r[0]), bounds.map((r) => r[1])];
      }),
  ),
  notShrinkable: fc.tuple(anyInt, anyInt),
  markedNotShrinkable: fc.tuple(anyInt, anyInt),
  // 0 <= floor <= total <= 2^53 - 1, freeAtLeast >= 1, callsSince >= 0, every >= 1; any trigger
  floorAllowsRun: floorRunArgs,
  recordAfterSplice: fc
    .tuple(
      quarter,
      quarter,
      fc.nat(40),
      fc.oneof(
        fc.integer({ min: 1, max: 20 }),
        quarter.map((x) => x + 1),
      ),
    )
    .map(([x, y, s, len]) => [Math.min(x, y), Math.max(x, y), s, s + len]),
  // lowwater.ts
  runContinues: fc.tuple(fc.boolean(), anyInt, anyInt),
  summarizesAfterClearing: fc.tuple(fc.boolean(), fc.boolean(), anyInt, anyInt),
  // 0 <= freed <= judged <= 2^53 - 1 (the floor rule's totals, the other way round), freeAtLeast >= 1, callsSince >= 0, every >= 1
  batchWorthRewrite: floorRunArgs.map(([trigger, low, high, ...rest]) => [trigger, high, low, ...rest]),
  clearsNow: fc.tuple(fc.boolean(), anyInt, anyInt),
  lowWaterRun: fc
    // a target >= 0 (the model's requires: the total stays above it, so each step's difference is exact)
    .tuple(wideNat, fc.boolean(), fc.oneof(fc.nat(40), wideNat), exactNats(0, 30, 1))
    .map(([total, due, target, s]) => [total, due, target, s.map((x) => x + 1)]),
  // watermark.ts
  advanceWatermark: fc.tuple(anyInt, anyInt, anyInt),
};
