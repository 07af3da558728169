// The one hand-written list the runtime-guard generator (guards-emit.ts) reads: the kernel
// preconditions it cannot turn into a runtime check by itself, each with the check that stands
// for it, and the checks the proofs' integers need beyond the `//@ requires` (exact sums). The
// generator translates every other `//@ requires` itself (a quantifier-free expression over
// the parameters and the kernel's own functions) and derives from the types that each number
// passed is a safe integer. It fails on a clause it cannot translate that is not listed here,
// and on an entry here that names no clause of the kernel (a stale entry).

/** A runtime check standing for one precondition, or added to a function's guard. */
export interface HandCheck {
  /** the kernel function */
  readonly fn: string;
  /**
   * the `//@ requires` clause it stands for, exactly as written (whitespace runs read as one
   * space); absent for a check added beyond the requires (exact sums: PROPERTIES.md's
   * integer assumption)
   */
  readonly clause?: string;
  /** a TypeScript expression over the function's parameters, the kernel's functions and HELPERS */
  readonly check: string;
  /** what the error names as required; `$LIMIT` stands for the exact-integer limit's name (exact.ts) */
  readonly says: string;
  /**
   * a precondition the caller may vouch for instead (guard argument `vouched`): the store keeps
   * Pairing incrementally over its live views, where a full check at every call would cost O(n)
   */
  readonly vouch?: "Pairing";
}

/** A function the generator writes no guard for, with the clause it cannot check and why. */
export interface Unguarded {
  readonly fn: string;
  readonly clause: string;
  readonly why: string;
}

/** Names the checks may use besides the parameters and the kernel's functions: module -> names. */
export const HELPERS: Readonly<Record<string, readonly string[]>> = {
  "./exact.ts": ["EXACT_LIMIT", "EXACT_LIMIT_NAME", "natsSumExactly"],
  "./guard-helpers.ts": ["allBelow"],
};

const PAIRING = "Pairing(roles, callOf, lastAnswer, ongoing)";
const PAIRING_CHECK = "pairingOk(roles, callOf, lastAnswer, ongoing)";
const PAIRING_SAYS = "Pairing(roles, callOf, lastAnswer, ongoing): every tool result answers an earlier call";
const TOKENS_EXACT = "token counts >= 0 with a sum <= $LIMIT";
const CALL_BEFORE =
  'forall(j: nat, j < roles.length && roles[j] === "tool" ==> 0 <= callOf[j] && callOf[j] < j && lastAnswer[callOf[j]] >= j)';
const CALL_BEFORE_CHECK =
  'allBelow(roles.length, (j) => roles[j] !== "tool" || (0 <= callOf[j] && callOf[j] < j && lastAnswer[callOf[j]] >= j))';
const LAST_ANSWER =
  'forall(a: nat, a < roles.length && lastAnswer[a] >= 0 ==> lastAnswer[a] < roles.length && roles[lastAnswer[a]] === "tool" && callOf[lastAnswer[a]] === a)';
const LAST_ANSWER_CHECK =
  'allBelow(roles.length, (a) => lastAnswer[a] < 0 || (lastAnswer[a] < roles.length && roles[lastAnswer[a]] === "tool" && callOf[lastAnswer[a]] === a))';

/** Preconditions checked by hand-written expressions, and checks added beyond the requires. */
export const HAND_CHECKS: readonly HandCheck[] = [
  ...["selectStretchFrom", "selectStretch", "selectKeepRecent", "planBatch", "pinnedOngoing"].map(
    (fn): HandCheck => ({ fn, clause: PAIRING, check: PAIRING_CHECK, says: PAIRING_SAYS, vouch: "Pairing" }),
  ),
  ...["findValidCutPoints", "findCutPoint"].flatMap((fn): HandCheck[] => [
    { fn, clause: CALL_BEFORE, check: CALL_BEFORE_CHECK, says: "every tool result answers an earlier call" },
    { fn, clause: LAST_ANSWER, check: LAST_ANSWER_CHECK, says: "every lastAnswer is a tool result answering it" },
  ]),
  {
    fn: "findCutPoint",
    clause:
      "forall(j: nat, j < tokens.length ==> tokens[j] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991",
    check: "natsSumExactly(tokens)",
    says: TOKENS_EXACT,
  },
  ...["selectKeepRecent", "keepRecentCutoff"].map(
    (fn): HandCheck => ({
      fn,
      clause:
        "forall(j: int, 0 <= j && j < tokens.length ==> tokens[j] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991",
      check: "natsSumExactly(tokens)",
      says: TOKENS_EXACT,
    }),
  ),
  {
    fn: "suffixTokens",
    clause:
      "forall(k: nat, from <= k && k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, from, tokens.length) <= 9007199254740991",
    check: "natsSumExactly(tokens, 0, from)",
    says: "token counts from `from` on >= 0 with a sum <= $LIMIT",
  },
  {
    fn: "usageTokens",
    clause:
      "forall(k: nat, u.end <= k && k < tokens.length ==> tokens[k] >= 0) && u.reported + sumTokens(tokens, u.end, tokens.length) <= 9007199254740991",
    check: "natsSumExactly(tokens, u.reported, u.end)",
    says: "token counts >= 0 whose sum after the prefix plus the report is <= $LIMIT",
  },
  {
    fn: "usageAfterSplice",
    clause:
      "forall(k: nat, start <= k && k < end ==> tokens[k] >= 0) && sumTokens(tokens, start, end) <= 9007199254740991",
    check: "natsSumExactly(tokens, 0, start, end)",
    says: "token counts in [start, end) >= 0 with a sum <= $LIMIT",
  },
  {
    fn: "spliceRoles",
    clause: "forall(k: nat, start <= k && k < end ==> isCompressible(roles[k]))",
    check: "allBelow(end, (k) => k < start || isCompressible(roles[k]))",
    says: "every role in [start, end) compressible",
  },
  ...["keepHeadLines", "keepTailLines"].map(
    (fn): HandCheck => ({
      fn,
      clause:
        "forall(k: nat, k < lineBytes.length ==> lineBytes[k] >= 0) && joinedBytes(lineBytes, 0, lineBytes.length) <= 9007199254740991",
      // the joined size of all lines (one newline byte between two) is the largest sum formed
      check: "natsSumExactly(lineBytes, Math.max(0, lineBytes.length - 1))",
      says: "line byte lengths >= 0, joined size <= $LIMIT",
    }),
  ),
  {
    fn: "rangeTokens",
    clause: "forall(k: nat, a <= k && k < b ==> xs[k] >= 0) && sumTokens(xs, a, b) <= 9007199254740991",
    check: "natsSumExactly(xs, 0, a, b)",
    says: "token counts in [a, b) >= 0 with a sum <= $LIMIT",
  },
  {
    fn: "worthACall",
    clause:
      "forall(k: nat, start <= k && k < end ==> tokens[k] >= 0) && sumTokens(tokens, start, end) <= 9007199254740991",
    check: "natsSumExactly(tokens, 0, start, end)",
    says: "token counts in [start, end) >= 0 with a sum <= $LIMIT",
  },
  {
    fn: "planCalls",
    clause:
      "forall(k: nat, k < input.length ==> input[k] >= 0 && output[k] >= 0) && overhead + sumTokens(input, 0, input.length) + sumTokens(output, 0, output.length) <= 9007199254740991",
    // both arrays' counts summed with the overhead: one exact sum over them
    check: "natsSumExactly(input.concat(output), overhead)",
    says: "token counts >= 0 whose sum with the overhead is <= $LIMIT",
  },
  {
    fn: "planBatch",
    clause:
      "forall(k: nat, k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, 0, tokens.length) * 100 <= 9007199254740991",
    check: "natsSumExactly(tokens, EXACT_LIMIT - Math.floor(EXACT_LIMIT / 100))",
    says: "token counts >= 0 with a sum <= $LIMIT / 100",
  },
  {
    fn: "planAging",
    clause:
      "forall(k: nat, k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, 0, tokens.length) * 100 <= 9007199254740991",
    check: "natsSumExactly(tokens, EXACT_LIMIT - Math.floor(EXACT_LIMIT / 100))",
    says: "token counts >= 0 with a sum <= $LIMIT / 100",
  },
  // planAging walks the work plan once alongside the messages: planBatch's flat pairs, which ascend
  {
    fn: "planAging",
    clause: "forall(i: nat, i + 1 < plan.length ==> plan[i] <= plan[i + 1])",
    check: "allBelow(plan.length - 1, (i) => plan[i] <= plan[i + 1])",
    says: "plan's entries never decrease (ordered, ascending, disjoint pairs)",
  },
  {
    fn: "planFreed",
    clause:
      "forall(k: nat, k < tokens.length ==> tokens[k] >= 0) && sumTokens(tokens, 0, tokens.length) * 100 <= 9007199254740991",
    check: "natsSumExactly(tokens, EXACT_LIMIT - Math.floor(EXACT_LIMIT / 100))",
    says: "token counts >= 0 with a sum <= $LIMIT / 100",
  },
  {
    fn: "planFreed",
    clause: "forall(i: nat, i < plan.length ==> 0 <= plan[i] && plan[i] <= tokens.length)",
    check: "allBelow(plan.length, (i) => 0 <= plan[i] && plan[i] <= tokens.length)",
    says: "plan's entries lie within the tokens",
  },
  {
    fn: "planFreed",
    clause: "forall(i: nat, i + 1 < plan.length ==> plan[i] <= plan[i + 1])",
    check: "allBelow(plan.length - 1, (i) => plan[i] <= plan[i + 1])",
    says: "plan's entries never decrease (ordered, ascending, disjoint pairs)",
  },
  {
    fn: "totalTokens",
    clause: "forall(k: nat, k < xs.length ==> xs[k] >= 0) && sumTokens(xs, 0, xs.length) <= 9007199254740991",
    check: "natsSumExactly(xs)",
    says: TOKENS_EXACT,
  },
  // the freed sum is at most the token total (only shorter placeholders count): exact when both sums are
  {
    fn: "selectClearing",
    clause:
      "forall(k: nat, k < tokens.length ==> tokens[k] >= 0 && after[k] >= 0) && sumTokens(tokens, 0, tokens.length) <= 9007199254740991",
    check: "natsSumExactly(tokens) && natsSumExactly(after)",
    says: "token counts >= 0 (as read and once cleared) with sums <= $LIMIT",
  },
  {
    fn: "clearedTokens",
    check: "natsSumExactly(tokens) && natsSumExactly(after)",
    says: "token counts >= 0 (as read and once cleared) with sums <= $LIMIT",
  },
  {
    fn: "callsToClear",
    clause: "forall(k: nat, k < callOf.length && mask[k] ==> 0 <= callOf[k] && callOf[k] < callOf.length)",
    check: "allBelow(callOf.length, (k) => !mask[k] || (0 <= callOf[k] && callOf[k] < callOf.length))",
    says: "every marked message answers a call of the conversation",
  },
];

/** Functions with a precondition that has no runtime counterpart: no guard is written for them (proof-only models get none anyway: frontend/models.ts). */
export const UNGUARDED: readonly Unguarded[] = [
  {
    fn: "keptPrefixEnd",
    clause: "Eligible(roles, callOf, lastAnswer, ongoing, cutoff, start, end)",
    why: "a step of selectKeepRecent's proof (its stretch is eligible and maximal): the engine never calls it",
  },
];
