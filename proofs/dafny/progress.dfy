// Proof companion of src/kernel/progress.ts: induction lemmas about sumTokens (a back-recursive sum).

// sumTokens unfolds from the front too: the first entry plus the rest (loops that run
// downwards, such as suffixTokens and findCutPoint's, add the entry before the sum).
lemma SumTokensFront(xs: seq<int>, a: int, b: int)
  requires 0 <= a < b <= |xs|
  ensures sumTokens(xs, a, b) == xs[a] + sumTokens(xs, a + 1, b)
{
  SumTokensSplit(xs, a, a + 1, b);
}

// Sums agree on ranges where the two sequences agree.
lemma SumTokensAgree(xs: seq<int>, ys: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs| && b <= |ys|
  requires forall k :: a <= k < b ==> xs[k] == ys[k]
  ensures sumTokens(xs, a, b) == sumTokens(ys, a, b)
  decreases b - a
{
  if a < b { SumTokensAgree(xs, ys, a, b - 1); }
}

// Appending one entry adds it to the total (what a loop that pushes needs).
lemma SumTokensSnoc(xs: seq<int>, x: int)
  ensures sumTokens(xs + [x], 0, |xs| + 1) == sumTokens(xs, 0, |xs|) + x
{
  SumTokensAgree(xs + [x], xs, 0, |xs|);
}

// A range sum splits at any midpoint.
lemma SumTokensSplit(xs: seq<int>, a: int, m: int, b: int)
  requires 0 <= a <= m <= b <= |xs|
  ensures sumTokens(xs, a, b) == sumTokens(xs, a, m) + sumTokens(xs, m, b)
  decreases b - m
{
  if m < b { SumTokensSplit(xs, a, m, b - 1); }
}

// Token counts are never negative, so neither is a sum of them (the termination measure is bounded).
lemma SumTokensNonNeg(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs|
  requires forall k :: a <= k < b ==> xs[k] >= 0
  ensures sumTokens(xs, a, b) >= 0
  decreases b - a
{
  if a < b { SumTokensNonNeg(xs, a, b - 1); }
}

// Starting the sum earlier can only add tokens: token counts are never negative.
lemma SumTokensAntitone(tokens: seq<int>, a: int, b: int, upTo: int)
  requires 0 <= a <= b <= upTo <= |tokens|
  requires forall j :: 0 <= j < |tokens| ==> tokens[j] >= 0
  ensures sumTokens(tokens, a, upTo) >= sumTokens(tokens, b, upTo)
{
  SumTokensSplit(tokens, a, b, upTo);
  SumTokensNonNeg(tokens, a, b);
}

// The termination model takes proposal pr on cur: it lies in cur and its summary is acceptable
// for the tokens it replaces (compactUntilStable applies a proposal exactly while this holds).
ghost predicate Takes(cur: seq<int>, pr: Proposal, maxTokens: int)
{
  0 <= pr.start < pr.end <= |cur| && acceptSummary(pr.summaryTokens, sumTokens(cur, pr.start, pr.end), maxTokens)
}
