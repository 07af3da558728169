// Proof companion of src/kernel/truncate.ts: joinedBytes grows when lines are added on either
// side (line lengths are >= 0), and can be unfolded from the left.

// Unfolding joinedBytes from the left (it is defined from the right).
lemma JoinedPrepend(xs: seq<int>, a: int, b: int)
  requires 0 <= a < b <= |xs|
  ensures joinedBytes(xs, a, b) == xs[a] + (if a + 1 < b then 1 + joinedBytes(xs, a + 1, b) else 0)
  decreases b - a
{
  if a + 2 < b { JoinedPrepend(xs, a, b - 1); }
}

// Adding lines at the end never shrinks the joined size.
lemma JoinedGrowsRight(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs|
  requires forall k :: 0 <= k < |xs| ==> xs[k] >= 0
  ensures forall m :: b <= m <= |xs| ==> joinedBytes(xs, a, m) >= joinedBytes(xs, a, b)
  decreases |xs| - b
{
  if b < |xs| {
    JoinedGrowsRight(xs, a, b + 1);
  }
}

// Adding lines at the start never shrinks the joined size.
lemma JoinedGrowsLeft(xs: seq<int>, a: int, b: int)
  requires 0 <= a <= b <= |xs|
  requires forall k :: 0 <= k < |xs| ==> xs[k] >= 0
  ensures forall m :: 0 <= m <= a ==> joinedBytes(xs, m, b) >= joinedBytes(xs, a, b)
  decreases a
{
  if 0 < a {
    if a < b { JoinedPrepend(xs, a - 1, b); }
    JoinedGrowsLeft(xs, a - 1, b);
  }
}
