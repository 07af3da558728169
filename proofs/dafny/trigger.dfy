// Proof companion of src/kernel/trigger.ts: what the count the trigger judges becomes when a
// compaction step splices the token counts (usageAfterSplice).

// The token counts after replacing xs[start..end) by one entry s (as compactedTokens builds them).
function splicedTokens(xs: seq<int>, start: int, end: int, s: int): seq<int>
  requires 0 <= start < end <= |xs|
{
  xs[..start] + [s] + xs[end..]
}

// sumRange (front-recursive) and sumTokens (back-recursive) are the same sum.
lemma SumRangeIsSumTokens(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs|
  ensures sumRange(xs, a, b) == sumTokens(xs, a, b)
  decreases b - a
{
  if a < b {
    SumRangeIsSumTokens(xs, a + 1, b);
    SumTokensSplit(xs, a, a + 1, b);
  }
}

// A range sum is the same over a range shifted by d where the entries agree.
lemma SumTokensShift(xs: seq<int>, ys: seq<int>, a: int, b: int, d: int)
  requires 0 <= a <= b <= |xs| && 0 <= a + d && b + d <= |ys|
  requires forall k :: a <= k < b ==> xs[k] == ys[k + d]
  ensures sumTokens(xs, a, b) == sumTokens(ys, a + d, b + d)
  decreases b - a
{
  if a < b { SumTokensShift(xs, ys, a, b - 1, d); }
}

// The counts after the splice from where the judged count starts counting them: from e when the
// stretch lies after it, from e shifted when the stretch lies before it, from start when the
// stretch reaches past e (usageAfterSplice's three cases).
lemma SuffixAfterSplice(xs: seq<int>, start: int, end: int, s: int, e: int)
  requires 0 <= start < end <= |xs| && 0 <= e <= |xs|
  ensures e <= start ==> sumRange(splicedTokens(xs, start, end, s), e, |xs| - (end - start) + 1) == sumRange(xs, e, |xs|) - sumTokens(xs, start, end) + s
  ensures end <= e ==> sumRange(splicedTokens(xs, start, end, s), e - (end - start) + 1, |xs| - (end - start) + 1) == sumRange(xs, e, |xs|)
  ensures start < e < end ==> sumRange(splicedTokens(xs, start, end, s), start, |xs| - (end - start) + 1) == sumRange(xs, e, |xs|) - sumTokens(xs, start, end) + sumTokens(xs, start, e) + s
{
  var ys := splicedTokens(xs, start, end, s);
  var n := |xs|;
  var m := |ys|;
  assert m == n - (end - start) + 1;
  var d := start + 1 - end;
  // the tail after the summary is xs[end..] shifted by d
  SumTokensShift(xs, ys, end, n, d);
  SumTokensSplit(ys, start, start + 1, m);
  SumTokensSplit(xs, start, end, n);
  if e <= start {
    SumRangeIsSumTokens(ys, e, m);
    SumRangeIsSumTokens(xs, e, n);
    SumTokensSplit(ys, e, start, m);
    SumTokensSplit(xs, e, start, n);
    SumTokensAgree(xs, ys, e, start);
  } else if end <= e {
    SumRangeIsSumTokens(ys, e + d, m);
    SumRangeIsSumTokens(xs, e, n);
    SumTokensShift(xs, ys, e, n, d);
  } else {
    SumRangeIsSumTokens(ys, start, m);
    SumRangeIsSumTokens(xs, e, n);
    SumTokensSplit(xs, start, e, end);
    SumTokensSplit(xs, e, end, n);
  }
}
