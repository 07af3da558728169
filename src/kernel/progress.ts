// API: acceptSummary(summaryTokens, replacedTokens, maxTokens): boolean; sumTokens(xs, a, b): number (spec);
//      totalTokens(xs): number; rangeTokens(xs, a, b): number; compactedTokens(tokens, start, end, summaryTokens): number[];
//      compactUntilStable(tokens, proposals, maxTokens): CompactionRun -- L8;
//      rejectionStreak(rejectedInARow, accepted): number; stopAfterRejections(rejectedInARow, limit): boolean.

/** One summarization attempt in the termination model: replace tokens[start..end) by a summary of summaryTokens. */
export interface Proposal {
  start: number;
  end: number;
  summaryTokens: number;
}

/** Outcome of the termination model: the final token array and how many compactions were accepted. */
export interface CompactionRun {
  tokens: readonly number[];
  accepted: number;
}

//@ verify
//@ ensures \result <==> (summaryTokens < replacedTokens && summaryTokens <= maxTokens)
/** A summary is accepted only if strictly shorter than what it replaces and within max_tokens (L8). */
export function acceptSummary(summaryTokens: number, replacedTokens: number, maxTokens: number): boolean {
  if (summaryTokens >= replacedTokens) return false;
  return summaryTokens <= maxTokens;
}

//@ spec
//@ requires 0 <= a && a <= b && b <= xs.length
//@ decreases b - a
/** Sum of xs[a..b) (recursive, for specifications; use totalTokens at runtime). */
export function sumTokens(xs: readonly number[], a: number, b: number): number {
  if (a === b) return 0;
  return sumTokens(xs, a, b - 1) + xs[b - 1];
}

//@ verify
//@ requires xs.length <= 9007199254740991
//@ requires forall(k: nat, k < xs.length ==> xs[k] >= 0) && sumTokens(xs, 0, xs.length) <= 9007199254740991
//@ ensures \result === sumTokens(xs, 0, xs.length)
/** Sum of all entries, by a loop (no recursion depth limit). */
export function totalTokens(xs: readonly number[]): number {
  let acc = 0;
  let i = 0;
  while (i < xs.length) {
    //@ invariant 0 <= i && i <= xs.length
    //@ invariant acc === sumTokens(xs, 0, i)
    //@ use SumTokensSplit(xs, 0, i + 1, xs.length)
    //@ use SumTokensNonNeg(xs, 0, i + 1)
    //@ use SumTokensNonNeg(xs, i + 1, xs.length)
    acc = acc + xs[i];
    i = i + 1;
  }
  return acc;
}

//@ verify
//@ requires 0 <= a && a <= b && b <= xs.length && xs.length <= 9007199254740991
//@ requires forall(k: nat, a <= k && k < b ==> xs[k] >= 0) && sumTokens(xs, a, b) <= 9007199254740991
//@ ensures \result === sumTokens(xs, a, b)
/** Sum of xs[a..b), by a loop (no recursion depth limit). */
export function rangeTokens(xs: readonly number[], a: number, b: number): number {
  let acc = 0;
  let i = a;
  while (i < b) {
    //@ invariant a <= i && i <= b
    //@ invariant acc === sumTokens(xs, a, i)
    //@ use SumTokensSplit(xs, a, i + 1, b)
    //@ use SumTokensNonNeg(xs, a, i + 1)
    //@ use SumTokensNonNeg(xs, i + 1, b)
    acc = acc + xs[i];
    i = i + 1;
  }
  return acc;
}

//@ verify
//@ requires 0 <= start && start < end && end <= tokens.length && tokens.length <= 9007199254740991
//@ ensures \result.length === tokens.length - (end - start) + 1
//@ ensures forall(k: nat, k < start ==> \result[k] === tokens[k])
//@ ensures \result[start] === summaryTokens
//@ ensures forall(k: nat, end <= k && k < tokens.length ==> \result[k - (end - start) + 1] === tokens[k])
//@ ensures sumTokens(\result, 0, \result.length) === sumTokens(tokens, 0, tokens.length) - sumTokens(tokens, start, end) + summaryTokens
//@ ensures summaryTokens < sumTokens(tokens, start, end) ==> sumTokens(\result, 0, \result.length) < sumTokens(tokens, 0, tokens.length)
//@ ensures (summaryTokens >= 0 && forall(k: nat, k < tokens.length ==> tokens[k] >= 0)) ==> forall(k: nat, k < \result.length ==> \result[k] >= 0)
/** Token counts after replacing tokens[start..end) by one summary: a shorter summary strictly lowers the total (L8). */
export function compactedTokens(
  tokens: readonly number[],
  start: number,
  end: number,
  summaryTokens: number,
): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < start) {
    //@ invariant 0 <= i && i <= start
    //@ invariant out.length === i
    //@ invariant forall(k: nat, k < i ==> out[k] === tokens[k])
    //@ invariant sumTokens(out, 0, i) === sumTokens(tokens, 0, i)
    //@ invariant forall(k: nat, k < tokens.length ==> tokens[k] >= 0) ==> forall(k: nat, k < out.length ==> out[k] >= 0)
    //@ use SumTokensSnoc(out, tokens[i])
    out.push(tokens[i]);
    i = i + 1;
  }
  //@ use SumTokensSnoc(out, summaryTokens)
  out.push(summaryTokens);
  let j = end;
  while (j < tokens.length) {
    //@ invariant end <= j && j <= tokens.length
    //@ invariant out.length === start + 1 + (j - end)
    //@ invariant forall(k: nat, k < start ==> out[k] === tokens[k])
    //@ invariant out[start] === summaryTokens
    //@ invariant forall(k: nat, end <= k && k < j ==> out[k - (end - start) + 1] === tokens[k])
    //@ invariant sumTokens(out, 0, out.length) === sumTokens(tokens, 0, start) + summaryTokens + sumTokens(tokens, end, j)
    //@ invariant (summaryTokens >= 0 && forall(k: nat, k < tokens.length ==> tokens[k] >= 0)) ==> forall(k: nat, k < out.length ==> out[k] >= 0)
    //@ use SumTokensSnoc(out, tokens[j])
    out.push(tokens[j]);
    j = j + 1;
  }
  //@ use SumTokensSplit(tokens, 0, start, end)
  //@ use SumTokensSplit(tokens, 0, end, tokens.length)
  return out;
}

//@ verify
//@ requires forall(k: nat, k < tokens.length ==> tokens[k] >= 0)
//@ requires tokens.length <= 9007199254740991 && sumTokens(tokens, 0, tokens.length) <= 9007199254740991
//@ requires forall(k: nat, k < proposals.length ==> proposals[k].summaryTokens >= 0) && proposals.length <= 9007199254740991
//@ ensures \result.accepted <= sumTokens(tokens, 0, tokens.length)
//@ ensures sumTokens(\result.tokens, 0, \result.tokens.length) + \result.accepted <= sumTokens(tokens, 0, tokens.length)
//@ ensures (proposals.length > 0 && 0 <= proposals[0].start && proposals[0].start < proposals[0].end && proposals[0].end <= tokens.length && acceptSummary(proposals[0].summaryTokens, sumTokens(tokens, proposals[0].start, proposals[0].end), maxTokens)) ==> \result.accepted >= 1
//@ ensures \result.accepted === 0 <==> forall(k: nat, k < proposals.length ==> !Takes(tokens, proposals[k], maxTokens))
//@ ensures proposals.length > 0 ==> !Takes(\result.tokens, proposals[proposals.length - 1], maxTokens)
/**
 * Termination model (L8): retry each proposal until the summary is rejected; whatever the summarizer does, at most sum(tokens) compactions are accepted and the loop ends. Which proposals it takes is pinned, not only how many: a proposal is taken exactly when it lies in the current tokens and its summary is acceptable (`Takes`, proofs/dafny/progress.dfy), so nothing is accepted exactly when no proposal is taken on the input, a first proposal taken on the input is accepted at least once, and the run ends only when the last proposal is no longer taken.
 * @model
 */
export function compactUntilStable(
  tokens: readonly number[],
  proposals: readonly Proposal[],
  maxTokens: number,
): CompactionRun {
  // Sequences are values in the proof and `cur` is only ever reassigned, so no copy is needed.
  let cur: readonly number[] = tokens;
  let accepted = 0;
  let p = 0;
  while (p < proposals.length) {
    //@ invariant 0 <= p && p <= proposals.length
    //@ invariant accepted >= 0
    //@ invariant forall(k: nat, k < cur.length ==> cur[k] >= 0) && cur.length <= tokens.length
    //@ invariant sumTokens(cur, 0, cur.length) + accepted <= sumTokens(tokens, 0, tokens.length)
    //@ invariant accepted === 0 ==> equal(cur, tokens)
    //@ invariant (p > 0 && proposals.length > 0 && 0 <= proposals[0].start && proposals[0].start < proposals[0].end && proposals[0].end <= tokens.length && acceptSummary(proposals[0].summaryTokens, sumTokens(tokens, proposals[0].start, proposals[0].end), maxTokens)) ==> accepted >= 1
    //@ invariant accepted === 0 ==> forall(k: nat, k < p ==> !Takes(tokens, proposals[k], maxTokens))
    //@ invariant accepted > 0 ==> exists(k: nat, k < proposals.length && Takes(tokens, proposals[k], maxTokens))
    //@ invariant p > 0 ==> !Takes(cur, proposals[p - 1], maxTokens)
    //@ decreases proposals.length - p
    const pr = proposals[p];
    while (true) {
      //@ invariant accepted >= 0
      //@ invariant forall(k: nat, k < cur.length ==> cur[k] >= 0) && cur.length <= tokens.length
      //@ invariant sumTokens(cur, 0, cur.length) + accepted <= sumTokens(tokens, 0, tokens.length)
      //@ invariant accepted === 0 ==> equal(cur, tokens)
      //@ invariant (p > 0 && proposals.length > 0 && 0 <= proposals[0].start && proposals[0].start < proposals[0].end && proposals[0].end <= tokens.length && acceptSummary(proposals[0].summaryTokens, sumTokens(tokens, proposals[0].start, proposals[0].end), maxTokens)) ==> accepted >= 1
      //@ invariant accepted === 0 ==> forall(k: nat, k < p ==> !Takes(tokens, proposals[k], maxTokens))
      //@ invariant accepted > 0 ==> exists(k: nat, k < proposals.length && Takes(tokens, proposals[k], maxTokens))
      //@ decreases sumTokens(cur, 0, cur.length)
      //@ use SumTokensNonNeg(cur, 0, cur.length)
      // The measure is the token total itself: an accepted summary lowers it by at least one, and it
      // never goes below zero, so no summarizer can keep this loop running forever.
      if (pr.start < 0 || pr.start >= pr.end || pr.end > cur.length) break;
      //@ use SumTokensSplit(cur, 0, pr.start, cur.length)
      //@ use SumTokensSplit(cur, pr.start, pr.end, cur.length)
      //@ use SumTokensNonNeg(cur, 0, pr.start)
      //@ use SumTokensNonNeg(cur, pr.end, cur.length)
      const replaced = rangeTokens(cur, pr.start, pr.end);
      if (!acceptSummary(pr.summaryTokens, replaced, maxTokens)) break;
      //@ assert Takes(cur, pr, maxTokens)
      //@ assert accepted === 0 ==> Takes(tokens, proposals[p], maxTokens)
      cur = compactedTokens(cur, pr.start, pr.end, pr.summaryTokens);
      //@ use SumTokensNonNeg(cur, 0, cur.length)
      accepted = accepted + 1;
    }
    p = p + 1;
  }
  //@ use SumTokensNonNeg(cur, 0, cur.length)
  return { tokens: cur, accepted: accepted };
}

//@ verify
//@ requires rejectedInARow >= 0 && rejectedInARow < 9007199254740991
//@ ensures accepted ==> \result == 0
//@ ensures !accepted ==> \result == rejectedInARow + 1
//@ ensures \result >= 0
/** The summaries in a row that failed validation after one more answer: none after an accepted one, one more after a rejected one. */
export function rejectionStreak(rejectedInARow: number, accepted: boolean): number {
  if (accepted) return 0;
  return rejectedInARow + 1;
}

//@ verify
//@ requires rejectedInARow >= 0 && limit >= 1
//@ ensures \result <==> rejectedInARow >= limit
//@ ensures rejectedInARow == 0 ==> !\result
/**
 * Whether a run stops asking the summarizer: `limit` (max_rejected_summaries) summaries in a row
 * failed validation. So a summarizer whose answers are never usable costs at most `limit` answers
 * past the last accepted one, however many stretches are eligible.
 */
export function stopAfterRejections(rejectedInARow: number, limit: number): boolean {
  return rejectedInARow >= limit;
}
