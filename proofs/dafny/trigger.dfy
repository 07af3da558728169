// Proof companion of src/kernel/trigger.ts: what the count the trigger judges becomes when a
// compaction step splices the token counts (usageAfterSplice).

// The token counts after replacing xs[start..end) by one entry s (as compactedTokens builds them).
function splicedTokens(xs: seq<int>, start: int, end: int, s: int): seq<int>
  requires 0 <= start < end <= |xs|
{
  xs[..start] + [s] + xs[end..]
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
  ensures e <= start ==> sumTokens(splicedTokens(xs, start, end, s), e, |xs| - (end - start) + 1) == sumTokens(xs, e, |xs|) - sumTokens(xs, start, end) + s
  ensures end <= e ==> sumTokens(splicedTokens(xs, start, end, s), e - (end - start) + 1, |xs| - (end - start) + 1) == sumTokens(xs, e, |xs|)
  ensures start < e < end ==> sumTokens(splicedTokens(xs, start, end, s), start, |xs| - (end - start) + 1) == sumTokens(xs, e, |xs|) - sumTokens(xs, start, end) + sumTokens(xs, start, e) + s
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
    SumTokensSplit(ys, e, start, m);
    SumTokensSplit(xs, e, start, n);
    SumTokensAgree(xs, ys, e, start);
  } else if end <= e {
    SumTokensShift(xs, ys, e, n, d);
  } else {
    SumTokensSplit(xs, start, e, end);
    SumTokensSplit(xs, e, end, n);
  }
}
