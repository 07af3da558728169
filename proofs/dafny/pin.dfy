// Proof companion of src/kernel/pin.ts: a stretch chosen on the pinned view holds no pinned message (L15).

// Given what pinnedOngoing guarantees (every pinned assistant message held, the call of every pinned
// tool result held) and what selectStretch guarantees of its stretch (nothing held inside, every tool
// result inside has its call inside), no pinned message lies inside: a pinned user or system message
// is not compressible, a pinned assistant message is held, and a pinned tool result would bring its
// held call inside (its call comes before it and not before the stretch's start).
lemma PinnedOutsideStretch(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>,
                           pinned: seq<bool>, held: seq<bool>, found: bool, s: int, e: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires |pinned| == |roles| && |held| == |roles|
  requires forall k :: 0 <= k < |roles| && pinned[k] ==> roles[k] != Summary
  requires forall j :: 0 <= j < |roles| && pinned[j] && roles[j] == Assistant ==> held[j]
  requires forall k :: 0 <= k < |roles| && pinned[k] && roles[k] == Tool ==> held[callOf[k]]
  requires found ==> 0 <= s < e <= |roles|
  requires found ==> forall k: int :: s <= k && k < e ==> isCompressible(roles[k]) && !held[k]
  requires found ==> forall k: int :: s <= k && k < e && roles[k] == Tool ==> s <= callOf[k]
  ensures found ==> 0 <= s < e <= |roles|
  ensures found ==> forall k: int :: s <= k && k < e ==> !pinned[k]
{
  if found {
    forall k: int | s <= k && k < e && pinned[k]
      ensures false
    {
      if roles[k] == Tool {
        assert 0 <= callOf[k] < k;
        assert s <= callOf[k] < e;
        assert !held[callOf[k]];
      }
    }
  }
}
