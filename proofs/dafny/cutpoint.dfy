// Proof material for dafny/cutpoint.dfy (included by it; verified together with it).

// p is one of the listed cut points. Stated as sequence membership, which the prover reasons
// about directly (`in` distributes over `+`), rather than as an index that has to be found.
predicate Listed(points: seq<int>, p: int)
{
  p in points
}

// Strictly ascending points in [lo, hi) are at most hi - lo (findCutPoint's scan over the cut
// points counts within the history's length, so its index stays a safe integer).
lemma AscendingWithin(points: seq<int>, lo: int, hi: int)
  requires lo <= hi
  requires forall k :: 0 <= k < |points| ==> lo <= points[k] < hi
  requires forall k1, k2 :: 0 <= k1 < k2 < |points| ==> points[k1] < points[k2]
  ensures |points| <= hi - lo
  decreases |points|
{
  if |points| > 0 {
    var m := |points| - 1;
    AscendingWithin(points[..m], lo, points[m]);
  }
}
