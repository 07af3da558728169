// Proof material for dafny/cutpoint.dfy (included by it; verified together with it).

// p is one of the listed cut points. Stated as sequence membership, which the prover reasons
// about directly (`in` distributes over `+`), rather than as an index that has to be found.
predicate Listed(points: seq<int>, p: int)
{
  p in points
}
