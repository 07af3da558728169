// Proof companion of src/kernel/stretch.ts: the law L5 (coherence) and L4 (earliest) as predicates,
// and the lemma that restates coherence in the plain words of L5.

// The tool-pairing view the engine builds (src/engine/views.ts), as the kernel assumes it:
// a message is a tool result iff it names a call; the call is an earlier assistant message whose
// last answer is at or after this result; an answered call's last answer is a later message; only
// assistant messages are ongoing.
ghost predicate Pairing(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>)
{
  |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| &&
  (forall j :: 0 <= j < |roles| ==> (roles[j] == Tool <==> callOf[j] >= 0)) &&
  (forall j :: 0 <= j < |roles| && callOf[j] >= 0 ==>
     callOf[j] < j && roles[callOf[j]] == Assistant && lastAnswer[callOf[j]] >= j) &&
  (forall i :: 0 <= i < |roles| && lastAnswer[i] >= 0 ==>
     roles[i] == Assistant && i < lastAnswer[i] < |roles|) &&
  (forall i :: 0 <= i < |roles| && ongoing[i] ==> roles[i] == Assistant)
}

// [s, e) may be summarized: before the cutoff, every message movable from s (compressible, not
// ongoing, its call not before s), and every call's last answer inside.
ghost predicate Coherent(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int, s: int, e: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
{
  0 <= s < e <= cutoff <= |roles| &&
  (forall j :: s <= j < e ==> movable(roles, callOf, ongoing, s, j)) &&
  (forall j :: s <= j < e ==> lastAnswer[j] < e)
}

// Some message in [s, e) is not an earlier summary: re-summarizing summaries alone gains nothing.
ghost predicate HasWork(roles: seq<Role>, s: int, e: int)
  requires 0 <= s <= e <= |roles|
{
  exists j :: s <= j < e && roles[j] != Summary
}

// A stretch the kernel may choose.
ghost predicate Eligible(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int, s: int, e: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
{
  Coherent(roles, callOf, lastAnswer, ongoing, cutoff, s, e) && HasWork(roles, s, e)
}

// Coherence in the plain words of L5, given a well-formed pairing view: everything inside is
// compressible and not ongoing, every tool result inside has its call inside, and every result
// of a call inside is inside.
lemma CoherentIsLawful(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int, s: int, e: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires Coherent(roles, callOf, lastAnswer, ongoing, cutoff, s, e)
  ensures forall k: int :: s <= k && k < e ==> isCompressible(roles[k]) && !ongoing[k]
  ensures forall k: int :: s <= k && k < e && roles[k] == Tool ==> s <= callOf[k]
  ensures forall k: int :: 0 <= k && k < |roles| && s <= callOf[k] && callOf[k] < e ==> k < e
{
  forall k: int | s <= k && k < e
    ensures isCompressible(roles[k]) && !ongoing[k]
  {
    assert movable(roles, callOf, ongoing, s, k);
  }
  forall k: int | s <= k && k < e && roles[k] == Tool
    ensures s <= callOf[k]
  {
    assert movable(roles, callOf, ongoing, s, k);
  }
  forall k: int | 0 <= k && k < |roles| && s <= callOf[k] && callOf[k] < e
    ensures k < e
  {
    var i := callOf[k];
    assert lastAnswer[i] >= k;
    assert lastAnswer[i] < e;
  }
}
