// Proof companion of src/kernel/stretch.ts: the law L5 (coherence) and L4 (earliest) as predicates,
// and the lemma that restates coherence in the plain words of L5.

// The tool-pairing view the engine builds (src/engine/store/views.ts), as the kernel assumes it:
// a message is a tool result iff it names a call; the call is an earlier assistant message whose
// last answer is at or after this result; an answered call's last answer is a later message that
// answers it; only assistant messages are ongoing. The views are of a JavaScript array, so they
// hold at most 2^53 - 1 messages (every index a code computes is a safe integer).
ghost predicate Pairing(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>)
{
  |roles| <= 9007199254740991 &&
  |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| &&
  (forall j :: 0 <= j < |roles| ==> (roles[j] == Tool <==> callOf[j] >= 0)) &&
  (forall j :: 0 <= j < |roles| && callOf[j] >= 0 ==>
     callOf[j] < j && roles[callOf[j]] == Assistant && lastAnswer[callOf[j]] >= j) &&
  (forall i :: 0 <= i < |roles| && lastAnswer[i] >= 0 ==>
     roles[i] == Assistant && i < lastAnswer[i] < |roles| && callOf[lastAnswer[i]] == i) &&
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

// After the scan from s found nothing eligible and stopped at k (the first message not movable
// from s, or the cutoff), a later start p < k fails too when [s, p) keeps every answer of its
// calls (bound < p: an eligible [p, e) would make [s, e) eligible) or p's last answer is at or
// past k (every stretch from p ends by k, so it would cut p from its answer).
lemma SkipAfterFailure(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                       s: int, k: int, p: int, bound: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
  requires 0 <= s < p < k <= cutoff <= |roles|
  requires forall j :: s <= j < k ==> movable(roles, callOf, ongoing, s, j)
  requires k < cutoff ==> !movable(roles, callOf, ongoing, s, k)
  requires forall e2 :: s < e2 <= k ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2)
  requires forall j :: s <= j < p ==> lastAnswer[j] <= bound
  requires bound < p || lastAnswer[p] >= k
  ensures forall e2 :: !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, p, e2)
{
  forall e2 | Eligible(roles, callOf, lastAnswer, ongoing, cutoff, p, e2)
    ensures false
  {
    if e2 > k {
      assert movable(roles, callOf, ongoing, p, k);
    } else if lastAnswer[p] >= k {
      assert lastAnswer[p] < e2;
    } else {
      forall j | s <= j < e2
        ensures movable(roles, callOf, ongoing, s, j) && lastAnswer[j] < e2
      {
        if j >= p {
          assert movable(roles, callOf, ongoing, p, j);
        }
      }
      var w :| p <= w < e2 && roles[w] != Summary;
      assert HasWork(roles, s, e2);
      assert Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// After a splice (L4 forward progress, and well-formedness is kept).

// Where an index of the old conversation lands after [s, e) became one message at s (indices in
// [s, e) never occur below: coherence keeps them out of every kept message's pairing).
ghost function Shift(x: int, s: int, e: int): int
{
  if x >= e then x - (e - s - 1) else x
}

// The views of the conversation after replacing [s, e) by one summary, related to the old views
// (what the engine gets by rebuilding the views of the spliced conversation).
ghost predicate SplicedView(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                            roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>)
{
  |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| &&
  0 <= s < e <= |roles| &&
  |roles2| == |roles| - (e - s) + 1 && |callOf2| == |roles2| && |lastAnswer2| == |roles2| && |ongoing2| == |roles2| &&
  roles2[s] == Summary && callOf2[s] == -1 && lastAnswer2[s] == -1 && !ongoing2[s] &&
  (forall k :: 0 <= k < s ==> roles2[k] == roles[k] && callOf2[k] == Shift(callOf[k], s, e) &&
     lastAnswer2[k] == Shift(lastAnswer[k], s, e) && ongoing2[k] == ongoing[k]) &&
  (forall k :: e <= k < |roles| ==> roles2[k - (e - s) + 1] == roles[k] && callOf2[k - (e - s) + 1] == Shift(callOf[k], s, e) &&
     lastAnswer2[k - (e - s) + 1] == Shift(lastAnswer[k], s, e) && ongoing2[k - (e - s) + 1] == ongoing[k])
}

// No kept message's pairing points into a coherent stretch from outside.
lemma KeptPairingAvoidsStretch(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int, s: int, e: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires Coherent(roles, callOf, lastAnswer, ongoing, cutoff, s, e)
  ensures forall k :: 0 <= k < |roles| && !(s <= k < e) ==> !(s <= callOf[k] < e)
  ensures forall k :: 0 <= k < |roles| && !(s <= k < e) ==> !(s <= lastAnswer[k] < e)
{
  forall k | 0 <= k < |roles| && !(s <= k < e)
    ensures !(s <= callOf[k] < e)
  {
    if s <= callOf[k] < e {
      var i := callOf[k];
      assert lastAnswer[i] >= k;
      assert lastAnswer[i] < e;
    }
  }
  forall k | 0 <= k < |roles| && !(s <= k < e)
    ensures !(s <= lastAnswer[k] < e)
  {
    if s <= lastAnswer[k] < e {
      var j := lastAnswer[k];
      assert callOf[j] == k;
      assert movable(roles, callOf, ongoing, s, j);
    }
  }
}

// The old index of message j != s of the conversation after the splice of [s, e).
ghost function OldIndex(j: int, s: int, e: int): int
{
  if j < s then j else j + (e - s - 1)
}

// Message j != s after the splice is the old message OldIndex(j), with its pairing shifted.
lemma SplicedEntry(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                   roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>, j: int)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires 0 <= j < |roles2| && j != s
  ensures 0 <= OldIndex(j, s, e) < |roles| && !(s <= OldIndex(j, s, e) < e) && Shift(OldIndex(j, s, e), s, e) == j
  ensures roles2[j] == roles[OldIndex(j, s, e)] && ongoing2[j] == ongoing[OldIndex(j, s, e)]
  ensures callOf2[j] == Shift(callOf[OldIndex(j, s, e)], s, e) && lastAnswer2[j] == Shift(lastAnswer[OldIndex(j, s, e)], s, e)
{
  if j > s {
    var o := j + (e - s - 1);
    assert o - (e - s) + 1 == j;
  }
}

// Old message o outside [s, e) lands at Shift(o), with its pairing shifted.
lemma SplicedLanding(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                     roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>, o: int)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires 0 <= o < |roles| && !(s <= o < e)
  ensures 0 <= Shift(o, s, e) < |roles2| && Shift(o, s, e) != s
  ensures roles2[Shift(o, s, e)] == roles[o]
  ensures callOf2[Shift(o, s, e)] == Shift(callOf[o], s, e) && lastAnswer2[Shift(o, s, e)] == Shift(lastAnswer[o], s, e)
{
}

// Pairing's call clause at a kept message j after the splice (no orphan result).
lemma SplicedCallClause(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                        roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>, j: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires forall k :: 0 <= k < |roles| && !(s <= k < e) ==> !(s <= callOf[k] < e)
  requires forall k :: 0 <= k < |roles| && !(s <= k < e) ==> !(s <= lastAnswer[k] < e)
  requires 0 <= j < |roles2| && j != s
  ensures (roles2[j] == Tool <==> callOf2[j] >= 0)
  ensures callOf2[j] >= 0 ==> callOf2[j] < j && roles2[callOf2[j]] == Assistant && lastAnswer2[callOf2[j]] >= j
{
  SplicedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, j);
  var o := OldIndex(j, s, e);
  if callOf[o] >= 0 {
    var c := callOf[o];
    assert !(s <= c < e);
    SplicedLanding(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, c);
    assert lastAnswer[c] >= o;
    assert !(s <= lastAnswer[c] < e);
  }
}

// Pairing's last-answer clause at a kept message j after the splice (no call loses its result).
lemma SplicedAnswerClause(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                          roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>, j: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires forall k :: 0 <= k < |roles| && !(s <= k < e) ==> !(s <= callOf[k] < e)
  requires forall k :: 0 <= k < |roles| && !(s <= k < e) ==> !(s <= lastAnswer[k] < e)
  requires 0 <= j < |roles2| && j != s
  ensures lastAnswer2[j] >= 0 ==> roles2[j] == Assistant && j < lastAnswer2[j] < |roles2| && callOf2[lastAnswer2[j]] == j
  ensures ongoing2[j] ==> roles2[j] == Assistant
{
  SplicedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, j);
  var o := OldIndex(j, s, e);
  if lastAnswer[o] >= 0 {
    var a := lastAnswer[o];
    assert !(s <= a < e);
    assert callOf[a] == o;
    SplicedLanding(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, a);
  }
}

// Splicing a coherent stretch keeps the pairing view well-formed: no orphan is created (L5).
lemma SplicePreservesPairing(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int, s: int, e: int,
                             roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires Coherent(roles, callOf, lastAnswer, ongoing, cutoff, s, e)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  ensures Pairing(roles2, callOf2, lastAnswer2, ongoing2)
{
  KeptPairingAvoidsStretch(roles, callOf, lastAnswer, ongoing, cutoff, s, e);
  // Each clause at each kept index is its own small lemma: one big forall over all four was
  // the slowest proof obligation of the project (about a minute on a loaded machine).
  forall j | 0 <= j < |roles2| && j != s
    ensures (roles2[j] == Tool <==> callOf2[j] >= 0)
    ensures callOf2[j] >= 0 ==> callOf2[j] < j && roles2[callOf2[j]] == Assistant && lastAnswer2[callOf2[j]] >= j
    ensures lastAnswer2[j] >= 0 ==> roles2[j] == Assistant && j < lastAnswer2[j] < |roles2| && callOf2[lastAnswer2[j]] == j
    ensures ongoing2[j] ==> roles2[j] == Assistant
  {
    SplicedCallClause(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, j);
    SplicedAnswerClause(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, j);
  }
}

// An eligible stretch of the new conversation that ends before the summary was eligible before.
lemma EligibleBeforeSummary(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                            roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                            cutoff: int, cutoff2: int, s2: int, e2: int)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires cutoff2 <= cutoff <= |roles|
  requires 0 <= s2 < e2 <= s
  requires Eligible(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s2, e2)
  ensures Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2)
{
  forall k | s2 <= k < e2
    ensures movable(roles, callOf, ongoing, s2, k) && lastAnswer[k] < e2
  {
    assert movable(roles2, callOf2, ongoing2, s2, k);
    assert lastAnswer2[k] < e2;
    assert roles2[k] == roles[k] && callOf2[k] == Shift(callOf[k], s, e) && lastAnswer2[k] == Shift(lastAnswer[k], s, e) && ongoing2[k] == ongoing[k];
  }
  var w2 :| s2 <= w2 < e2 && roles2[w2] != Summary;
  assert roles[w2] == roles2[w2];
}

// An eligible stretch of the new conversation that covers the summary maps back to an eligible
// stretch of the old one that contains the replaced stretch.
lemma EligibleAcrossSummary(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                            roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                            cutoff: int, cutoff2: int, s2: int, e2: int)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e)
  requires 0 <= s2 < s < e2
  requires e2 + (e - s - 1) <= cutoff
  requires Eligible(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s2, e2)
  ensures Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2 + (e - s - 1))
{
  var E := e2 + (e - s - 1);
  forall k | s2 <= k < s
    ensures movable(roles, callOf, ongoing, s2, k) && lastAnswer[k] < E
  {
    assert movable(roles2, callOf2, ongoing2, s2, k);
    assert lastAnswer2[k] < e2;
    assert roles2[k] == roles[k] && callOf2[k] == Shift(callOf[k], s, e) && lastAnswer2[k] == Shift(lastAnswer[k], s, e) && ongoing2[k] == ongoing[k];
  }
  forall k | s <= k < e
    ensures movable(roles, callOf, ongoing, s2, k) && lastAnswer[k] < E
  {
    assert movable(roles, callOf, ongoing, s, k);
    assert lastAnswer[k] < e;
  }
  forall k | e <= k < E
    ensures movable(roles, callOf, ongoing, s2, k) && lastAnswer[k] < E
  {
    var k2 := k - (e - s) + 1;
    assert s < k2 < e2;
    assert movable(roles2, callOf2, ongoing2, s2, k2);
    assert lastAnswer2[k2] < e2;
    assert roles2[k2] == roles[k] && callOf2[k2] == Shift(callOf[k], s, e) && lastAnswer2[k2] == Shift(lastAnswer[k], s, e) && ongoing2[k2] == ongoing[k];
  }
  var w :| s <= w < e && roles[w] != Summary;
  assert s2 <= w < E;
}

// L4 forward progress: if [s, e) was the earliest eligible stretch and it is spliced, no eligible
// stretch of the new conversation (same retention window) starts before s.
lemma ForwardProgress(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, window: int, s: int, e: int,
                      roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>)
  requires window >= 1
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(|roles|, window), s, e)
  requires forall s2: int, e2: int :: s2 < s ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(|roles|, window), s2, e2)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  ensures forall s2: int, e2: int :: s2 < s ==> !Eligible(roles2, callOf2, lastAnswer2, ongoing2, retentionCutoff(|roles2|, window), s2, e2)
{
  var cutoff := retentionCutoff(|roles|, window);
  var cutoff2 := retentionCutoff(|roles2|, window);
  forall s2: int, e2: int | s2 < s
    ensures !Eligible(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s2, e2)
  {
    if Eligible(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s2, e2) {
      assert 0 <= s2 < e2 <= cutoff2;
      if e2 <= s {
        EligibleBeforeSummary(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, cutoff2, s2, e2);
      } else {
        assert cutoff == cutoff2 + (e - s - 1);
        EligibleAcrossSummary(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, cutoff2, s2, e2);
      }
    }
  }
}

// The runtime check pairingOk (index by index) establishes Pairing.
lemma PairingFromEveryIndex(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>)
  requires |roles| <= 9007199254740991
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
  requires forall k: int :: 0 <= k < |roles| ==> pairingAt(roles, callOf, lastAnswer, ongoing, k)
  ensures Pairing(roles, callOf, lastAnswer, ongoing)
{
  forall j | 0 <= j < |roles|
    ensures (roles[j] == Tool <==> callOf[j] >= 0)
    ensures callOf[j] >= 0 ==> callOf[j] < j && roles[callOf[j]] == Assistant && lastAnswer[callOf[j]] >= j
    ensures lastAnswer[j] >= 0 ==> roles[j] == Assistant && j < lastAnswer[j] < |roles| && callOf[lastAnswer[j]] == j
    ensures ongoing[j] ==> roles[j] == Assistant
  {
    assert pairingAt(roles, callOf, lastAnswer, ongoing, j);
  }
}

// SplicedView under a name whose body the prover sees only where it is revealed. The model
// selectAfterSplice (src/kernel/stretch.ts) hands the relation to AfterSplice and so keeps
// SplicedView's index-shift quantifiers out of its own proof: with them in view, Dafny 2.3 spends
// its whole time limit on a wrong selection (a teeth mutant) instead of reporting it.
ghost predicate {:opaque} SplicedViewSealed(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                                            roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>)
{
  SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
}

// The two facts selectAfterSplice needs after splicing the earliest eligible stretch [s, e): the
// new views are well-formed (SplicePreservesPairing) and nothing eligible starts before s
// (ForwardProgress).
lemma AfterSplice(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, window: int, s: int, e: int,
                  roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>)
  requires window >= 1
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(|roles|, window), s, e)
  requires forall s2: int, e2: int :: s2 < s ==> !Eligible(roles, callOf, lastAnswer, ongoing, retentionCutoff(|roles|, window), s2, e2)
  requires SplicedViewSealed(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  ensures Pairing(roles2, callOf2, lastAnswer2, ongoing2)
  ensures forall s2: int, e2: int :: s2 < s ==> !Eligible(roles2, callOf2, lastAnswer2, ongoing2, retentionCutoff(|roles2|, window), s2, e2)
{
  reveal SplicedViewSealed();
  SplicePreservesPairing(roles, callOf, lastAnswer, ongoing, retentionCutoff(|roles|, window), s, e, roles2, callOf2, lastAnswer2, ongoing2);
  ForwardProgress(roles, callOf, lastAnswer, ongoing, window, s, e, roles2, callOf2, lastAnswer2, ongoing2);
}
