// Proof companion of src/kernel/truncate.ts: joinedBytes (sumTokens plus one newline between two
// lines) grows when lines are added on either side (line lengths are >= 0), and unfolds from the left.

// Unfolding joinedBytes from the left.
lemma JoinedPrepend(xs: seq<int>, a: int, b: int)
  requires 0 <= a < b <= |xs|
  ensures joinedBytes(xs, a, b) == xs[a] + (if a + 1 < b then 1 + joinedBytes(xs, a + 1, b) else 0)
{
  SumTokensFront(xs, a, b);
}

// Unfolding joinedBytes from the right: one more line adds a newline and its length.
lemma JoinedAppend(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b < |xs|
  ensures joinedBytes(xs, a, b + 1) == (if a == b then xs[b] else joinedBytes(xs, a, b) + 1 + xs[b])
{
  assert sumTokens(xs, a, b + 1) == sumTokens(xs, a, b) + xs[b];
}

// Adding lines at the end never shrinks the joined size.
lemma JoinedGrowsRight(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs|
  requires forall k :: 0 <= k < |xs| ==> xs[k] >= 0
  ensures forall m :: b <= m <= |xs| ==> joinedBytes(xs, a, m) >= joinedBytes(xs, a, b)
{
  forall m | b <= m <= |xs|
    ensures joinedBytes(xs, a, m) >= joinedBytes(xs, a, b)
  {
    SumTokensSplit(xs, a, b, m);
    SumTokensNonNeg(xs, a, m);
    SumTokensNonNeg(xs, b, m);
  }
}

// Adding lines at the start never shrinks the joined size.
lemma JoinedGrowsLeft(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs|
  requires forall k :: 0 <= k < |xs| ==> xs[k] >= 0
  ensures forall m :: 0 <= m <= a ==> joinedBytes(xs, m, b) >= joinedBytes(xs, a, b)
{
  forall m | 0 <= m <= a
    ensures joinedBytes(xs, m, b) >= joinedBytes(xs, a, b)
  {
    SumTokensSplit(xs, m, a, b);
    SumTokensNonNeg(xs, m, b);
    SumTokensNonNeg(xs, m, a);
  }
}
