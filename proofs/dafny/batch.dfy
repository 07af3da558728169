// Proof companion of src/kernel/batch.ts: a planned batch committed in order stays eligible, and
// the freed-tokens sum of a plan depends only on the pairs it covers.

// One message k of an eligible stretch [s1, e1) after the spliced [s, e): at k - (e - s) + 1 it is
// still movable from the moved start and its last answer still lies before the moved end.
lemma MovedEntry(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                 roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                 s1: int, e1: int, k: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1 <= k < e1 <= |roles|
  requires movable(roles, callOf, ongoing, s1, k) && lastAnswer[k] < e1
  ensures movable(roles2, callOf2, ongoing2, s1 - (e - s - 1), k - (e - s) + 1)
  ensures lastAnswer2[k - (e - s) + 1] < e1 - (e - s - 1)
  ensures roles2[k - (e - s) + 1] == roles[k]
{
  assert roles2[k - (e - s) + 1] == roles[k] && callOf2[k - (e - s) + 1] == Shift(callOf[k], s, e) && ongoing2[k - (e - s) + 1] == ongoing[k];
  assert lastAnswer2[k - (e - s) + 1] == Shift(lastAnswer[k], s, e);
  assert lastAnswer[k] >= 0 ==> lastAnswer[k] > k;
}

// Committing in order: after [s, e) is spliced into one summary, an eligible stretch [s1, e1) at or
// after e is still eligible, moved back by e - s - 1 (the same messages, the same pairing, shifted),
// under any cutoff that still covers it (the retention cutoff moves back by the same amount).
lemma EligibleAfterEarlierSplice(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                                 roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                                 cutoff: int, cutoff2: int, s1: int, e1: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s1, e1)
  requires e1 - (e - s - 1) <= cutoff2 <= |roles2|
  ensures Eligible(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s1 - (e - s - 1), e1 - (e - s - 1))
{
  var d := e - s - 1;
  forall k2 | s1 - d <= k2 < e1 - d
    ensures movable(roles2, callOf2, ongoing2, s1 - d, k2)
  {
    assert s1 <= k2 + d < e1 && (k2 + d) - (e - s) + 1 == k2;
    MovedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, s1, e1, k2 + d);
  }
  forall k2 | s1 - d <= k2 < e1 - d
    ensures lastAnswer2[k2] < e1 - d
  {
    assert s1 <= k2 + d < e1 && (k2 + d) - (e - s) + 1 == k2;
    MovedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, s1, e1, k2 + d);
  }
  var w :| s1 <= w < e1 && roles[w] != Summary;
  MovedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, s1, e1, w);
  assert s1 - d <= w - d < e1 - d && w - (e - s) + 1 == w - d && roles2[w - d] != Summary;
  assert HasWork(roles2, s1 - d, e1 - d);
  assert Coherent(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s1 - d, e1 - d);
}

// A plan's freed tokens over its first i <= k pairs are the same in any plan with the same first k pairs.
lemma BatchFreedAgree(tokens: seq<int>, plan: seq<int>, plan2: seq<int>, allowance: int, k: int)
  requires 0 <= k && 2 * k <= |plan| && 2 * k <= |plan2|
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires forall j: nat :: 2 * j + 1 < |plan2| ==> 0 <= plan2[2 * j] && plan2[2 * j] <= plan2[2 * j + 1] && plan2[2 * j + 1] <= |tokens|
  requires forall j :: 0 <= j < 2 * k ==> plan[j] == plan2[j]
  ensures forall i :: 0 <= i <= k ==> batchFreed(tokens, plan, allowance, i) == batchFreed(tokens, plan2, allowance, i)
  decreases k
{
  if k > 0 { BatchFreedAgree(tokens, plan, plan2, allowance, k - 1); }
}

// A stretch a batch may plan: eligible (L4, L5), above the floor and not recorded as not
// shrinkable (worthACall's terms). One symbol per planned pair keeps the plan's loop invariant small.
ghost predicate Plannable(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                          tokens: seq<int>, floorTokens: int, shunStarts: seq<int>, shunEnds: seq<int>, s: int, e: int)
{
  |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| && |shunStarts| == |shunEnds| &&
  Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e) &&
  0 <= s < e <= |tokens| && sumTokens(tokens, s, e) > floorTokens &&
  (forall j: nat :: j < |shunStarts| ==> !(shunStarts[j] == s && shunEnds[j] == e))
}

// Multiplying by a natural keeps the order (planBatch's bound on what the allowances take off).
lemma MulMono(a: int, x: int, y: int)
  requires a >= 0 && x <= y
  ensures a * x <= a * y
{
}
