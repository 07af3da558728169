import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCompressible } from "../../src/kernel/compressible.ts";
import { retentionCutoff } from "../../src/kernel/retention.ts";
import {
  pairingOk,
  type Stretch,
  selectAfterSplice,
  selectStretch,
  selectStretchFrom,
} from "../../src/kernel/stretch.ts";
import {
  selectStretch as ref,
  selectStretchFrom as refFrom,
  pairingOk as refPairingOk,
} from "../../src/reference/stretch.ts";
import {
  afterSplice,
  buildConversation,
  type Conversation,
  conversation,
  eligibleStretch,
  nat,
  RUNS,
  role,
} from "./gen.ts";

const window = fc.oneof(
  fc.integer({ min: 1, max: 8 }),
  nat.map((w) => Math.max(1, w)),
);

// The companion's Eligible (proofs/dafny/stretch.dfy), as executable TypeScript (gen.ts).
const eligible = eligibleStretch;

function checkEnsures(c: Conversation, w: number, r: Stretch): boolean {
  const n = c.roles.length;
  const cutoff = retentionCutoff(n, w);
  if (!r.found) {
    for (let s = 0; s <= n; s++) for (let e = 0; e <= n; e++) if (eligible(c, cutoff, s, e)) return false;
    return r.start === 0 && r.end === 0;
  }
  if (!eligible(c, cutoff, r.start, r.end)) return false;
  for (let e = r.end + 1; e <= n + 1; e++) if (eligible(c, cutoff, r.start, e)) return false; // maximal
  for (let s = 0; s < r.start; s++) for (let e = 0; e <= n; e++) if (eligible(c, cutoff, s, e)) return false; // earliest
  if (!(0 <= r.start && r.start < r.end && r.end <= cutoff)) return false;
  for (let k = r.start; k < r.end; k++) {
    if (!isCompressible(c.roles[k]) || c.ongoing[k]) return false;
    if (c.roles[k] === "tool" && c.callOf[k] < r.start) return false;
  }
  for (let k = 0; k < n; k++) {
    if (c.callOf[k] >= r.start && c.callOf[k] < r.end && k >= r.end) return false;
  }
  return true;
}

/** selectStretchFrom's ensures: eligible, from <= start, maximal, earliest at or after from, none at or after from when not found. */
function checkFromEnsures(c: Conversation, w: number, from: number, r: Stretch): boolean {
  const n = c.roles.length;
  const cutoff = retentionCutoff(n, w);
  if (!r.found) {
    for (let s = from; s <= n; s++) for (let e = 0; e <= n; e++) if (eligible(c, cutoff, s, e)) return false;
    return r.start === 0 && r.end === 0;
  }
  if (!eligible(c, cutoff, r.start, r.end) || r.start < from) return false;
  for (let e = r.end + 1; e <= n + 1; e++) if (eligible(c, cutoff, r.start, e)) return false; // maximal
  for (let s = from; s < r.start; s++) for (let e = 0; e <= n; e++) if (eligible(c, cutoff, s, e)) return false; // earliest
  return true;
}

/** The companion's Pairing predicate: the well-formedness selectStretch requires. */
function pairing(c: Conversation): boolean {
  const n = c.roles.length;
  if (c.callOf.length !== n || c.lastAnswer.length !== n || c.ongoing.length !== n) return false;
  for (let j = 0; j < n; j++) {
    if ((c.roles[j] === "tool") !== c.callOf[j] >= 0) return false;
    const a = c.callOf[j];
    if (a >= 0 && !(a < j && c.roles[a] === "assistant" && c.lastAnswer[a] >= j)) return false;
    const la = c.lastAnswer[j];
    if (la >= 0 && !(c.roles[j] === "assistant" && j < la && la < n && c.callOf[la] === j)) return false;
    if (c.ongoing[j] && c.roles[j] !== "assistant") return false;
  }
  return true;
}

describe("stretch (L4, L5)", () => {
  it("agrees with the reference", () => {
    fc.assert(
      fc.property(conversation(), window, (c, w) => {
        expect(selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w)).toEqual(
          ref(c.roles, c.callOf, c.lastAnswer, c.ongoing, w),
        );
      }),
      { numRuns: RUNS },
    );
  });
  it("ensures hold (eligible, maximal, earliest, none when not found, plain L5 form)", () => {
    fc.assert(
      fc.property(conversation(), window, (c, w) =>
        checkEnsures(c, w, selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w)),
      ),
      { numRuns: RUNS },
    );
  });
  it("selectStretchFrom agrees with the reference, and from = 0 is selectStretch", () => {
    fc.assert(
      fc.property(conversation(), window, fc.nat(30), (c, w, from) => {
        const got = selectStretchFrom(c.roles, c.callOf, c.lastAnswer, c.ongoing, w, from);
        expect(got).toEqual(refFrom(c.roles, c.callOf, c.lastAnswer, c.ongoing, w, from));
        if (from === 0) expect(got).toEqual(selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w));
      }),
      { numRuns: RUNS },
    );
  });
  it("selectStretchFrom ensures hold (eligible, from <= start, maximal, earliest at or after from, none when not found)", () => {
    let later = 0;
    fc.assert(
      fc.property(conversation(), fc.integer({ min: 1, max: 4 }), fc.nat(24), (c, w, from) => {
        const r = selectStretchFrom(c.roles, c.callOf, c.lastAnswer, c.ongoing, w, from);
        if (r.found && from > 0) later++;
        return checkFromEnsures(c, w, from, r);
      }),
      { numRuns: RUNS },
    );
    expect(later).toBeGreaterThan(RUNS / 25); // from > 0 and still found: the `from` clauses are exercised
  });
  it("finds stretches often enough for the properties above to mean something", () => {
    let found = 0;
    fc.assert(
      fc.property(conversation(), fc.integer({ min: 1, max: 4 }), (c, w) => {
        if (selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w).found) found++;
      }),
      { numRuns: 2000 },
    );
    expect(found).toBeGreaterThan(400);
  });
  it("forward progress (L4): repeated compaction never moves back", () => {
    fc.assert(
      fc.property(conversation(30), fc.integer({ min: 1, max: 6 }), (c0, w) => {
        let c = c0;
        let last = 0;
        for (let round = 0; round < 40; round++) {
          const r = selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w);
          if (!r.found) return true;
          if (r.start < last) return false;
          last = r.start;
          c = afterSplice(c, r.start, r.end);
        }
        return true;
      }),
      { numRuns: RUNS },
    );
  });
  it("generated views satisfy Pairing, and splicing a selected stretch keeps them well-formed (SplicePreservesPairing)", () => {
    fc.assert(
      fc.property(conversation(), window, (c, w) => {
        if (!pairing(c)) return false;
        const r = selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w);
        return !r.found || pairing(afterSplice(c, r.start, r.end));
      }),
      { numRuns: RUNS },
    );
  });
  it("selectAfterSplice ensures: the next stretch starts at or after the previous one and is eligible", () => {
    fc.assert(
      fc.property(conversation(), fc.integer({ min: 1, max: 6 }), (c, w) => {
        const prev = selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, w);
        if (!prev.found) return true;
        const c2 = afterSplice(c, prev.start, prev.end);
        const next = selectAfterSplice(
          c.roles,
          c.callOf,
          c.lastAnswer,
          c.ongoing,
          w,
          prev,
          c2.roles,
          c2.callOf,
          c2.lastAnswer,
          c2.ongoing,
        );
        expect(next).toEqual(ref(c2.roles, c2.callOf, c2.lastAnswer, c2.ongoing, w));
        return (
          !next.found ||
          (next.start >= prev.start && eligible(c2, retentionCutoff(c2.roles.length, w), next.start, next.end))
        );
      }),
      { numRuns: RUNS },
    );
  });
  // Views with one entry corrupted: most are no longer well-formed.
  const corrupted = fc
    .tuple(
      conversation(),
      fc.nat(100),
      fc.constantFrom("roles", "callOf", "lastAnswer", "ongoing", "length"),
      fc.integer({ min: -2, max: 25 }),
      role,
    )
    .map(([c, at, field, v, r]) => {
      const out: Conversation = {
        roles: [...c.roles],
        callOf: [...c.callOf],
        lastAnswer: [...c.lastAnswer],
        ongoing: [...c.ongoing],
      };
      const n = c.roles.length;
      if (n === 0) return out;
      const i = at % n;
      if (field === "roles") out.roles[i] = r;
      else if (field === "callOf") out.callOf[i] = v;
      else if (field === "lastAnswer") out.lastAnswer[i] = v;
      else if (field === "ongoing") out.ongoing[i] = !out.ongoing[i];
      else out.callOf.pop();
      return out;
    });
  it("pairingOk agrees with the reference and with Pairing, on well-formed and corrupted views", () => {
    let rejected = 0;
    fc.assert(
      fc.property(fc.oneof(conversation(), corrupted), (c) => {
        const got = pairingOk(c.roles, c.callOf, c.lastAnswer, c.ongoing);
        if (!got) rejected++;
        return got === refPairingOk(c.roles, c.callOf, c.lastAnswer, c.ongoing) && got === pairing(c);
      }),
      { numRuns: RUNS },
    );
    expect(rejected).toBeGreaterThan(RUNS / 10);
  });
  it("a failed start does not cost a rescan per later start on runs of summaries or of calls answered after a user message", () => {
    const n = 100_000;
    const none = new Array<number>(n).fill(-1);
    const never = new Array<boolean>(n).fill(false);
    // n - 1 earlier summaries, then a user message: nothing has work (one rescan per start was ~n²/2 steps)
    const summaries = Array.from({ length: n }, (_, i) => (i === n - 1 ? "user" : "summary") as "user" | "summary");
    let t0 = performance.now();
    expect(selectStretch(summaries, none, none, never, 1).found).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
    // k calls, a user message, their k answers: no stretch before the user message keeps its answers
    const k = (n - 2) / 2;
    const roles = [
      ...Array<"assistant">(k).fill("assistant"),
      "user" as const,
      ...Array<"tool">(k).fill("tool"),
      "user" as const,
    ];
    const callOf = roles.map((_, i) => (i > k && i <= 2 * k ? i - k - 1 : -1));
    const lastAnswer = roles.map((_, i) => (i < k ? i + k + 1 : -1));
    t0 = performance.now();
    expect(selectStretch(roles, callOf, lastAnswer, never, 1).found).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
  });
  it("adversarial shapes", () => {
    const empty = buildConversation([]);
    expect(selectStretch(empty.roles, empty.callOf, empty.lastAnswer, empty.ongoing, 1).found).toBe(false);
    // assistant(call a) tool(a) user assistant(call b, unanswered) x x x  with window 1
    const c = buildConversation([
      { kind: "assistant", calls: 1, pick: 0 },
      { kind: "tool", calls: 0, pick: 0 },
      { kind: "user", calls: 0, pick: 0 },
      { kind: "assistant", calls: 1, pick: 0 },
      { kind: "assistant", calls: 0, pick: 0 },
      { kind: "user", calls: 0, pick: 0 },
    ]);
    expect(selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, 1)).toEqual({ found: true, start: 0, end: 2 });
    // the ongoing call at 3 stays; 4 alone is eligible once 0..2 is gone
    expect(
      selectStretch(
        ["user", ...c.roles.slice(2)],
        [-1, -1, -1, -1, -1],
        [-1, -1, -1, -1, -1],
        [false, false, true, false, false],
        1,
      ),
    ).toEqual({ found: true, start: 3, end: 4 });
    // a lone earlier summary is not re-summarized
    expect(selectStretch(["summary", "user", "user"], [-1, -1, -1], [-1, -1, -1], [false, false, false], 1).found).toBe(
      false,
    );
    // huge window: nothing is outside the retention window
    expect(selectStretch(c.roles, c.callOf, c.lastAnswer, c.ongoing, 2 ** 40).found).toBe(false);
  });
});
