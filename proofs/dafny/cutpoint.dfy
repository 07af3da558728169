// Proof material for dafny/cutpoint.dfy (included by it; verified together with it).

// Starting the sum earlier can only add tokens: token counts are never negative.
lemma SumRangeAntitone(tokens: seq<int>, a: int, b: int, upTo: int)
  requires 0 <= a <= b <= upTo <= |tokens|
  requires forall j :: 0 <= j < |tokens| ==> tokens[j] >= 0
  ensures sumRange(tokens, a, upTo) >= sumRange(tokens, b, upTo)
  decreases b - a
{
  if a < b {
    SumRangeAntitone(tokens, a + 1, b, upTo);
  }
}

// p is one of the listed cut points. Stated as sequence membership, which the prover reasons
// about directly (`in` distributes over `+`), rather than as an index that has to be found.
predicate Listed(points: seq<int>, p: int)
{
  p in points
}
