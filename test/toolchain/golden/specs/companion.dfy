// Proof companion of the specs golden case.

function Total(xs: seq<int>): int
{
  if |xs| == 0 then 0 else Total(xs[..|xs| - 1]) + xs[|xs| - 1]
}

lemma TotalSnoc(xs: seq<int>, x: int)
  ensures Total(xs + [x]) == Total(xs) + x
{
  assert (xs + [x])[..|xs|] == xs;
}
