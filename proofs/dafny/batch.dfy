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

// MovedEntry named by the moved position k2 of a message of an eligible stretch [s1, e1) after the spliced [s, e).
lemma MovedEntryAt(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                   roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                   cutoff: int, s1: int, e1: int, k2: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s1, e1)
  requires s1 - (e - s - 1) <= k2 < e1 - (e - s - 1)
  ensures 0 <= k2 < |roles2|
  ensures movable(roles2, callOf2, ongoing2, s1 - (e - s - 1), k2)
  ensures lastAnswer2[k2] < e1 - (e - s - 1)
{
  var k := k2 + (e - s - 1);
  assert s1 <= k < e1 && k - (e - s) + 1 == k2;
  assert movable(roles, callOf, ongoing, s1, k) && lastAnswer[k] < e1;
  MovedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, s1, e1, k);
}

// Committing in order: after [s, e) is spliced into one summary, an eligible stretch [s1, e1) at or
// after e is still eligible, moved back by e - s - 1 (the same messages, the same pairing, shifted),
// under any cutoff that still covers it (the retention cutoff moves back by the same amount).
// Split in three lemmas (each message movable, each last answer inside, some work left), each
// proven on its own: Dafny 2.3 timed out on the whole in one piece.
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
  MovedStretchMovable(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, s1, e1);
  MovedStretchAnswers(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, s1, e1);
  MovedStretchWork(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, s1, e1);
  assert Coherent(roles2, callOf2, lastAnswer2, ongoing2, cutoff2, s1 - (e - s - 1), e1 - (e - s - 1));
}

// EligibleAfterEarlierSplice's first part: every message of the moved stretch is movable from its moved start.
lemma MovedStretchMovable(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                          roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                          cutoff: int, s1: int, e1: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s1, e1)
  ensures forall k2 :: s1 - (e - s - 1) <= k2 < e1 - (e - s - 1) ==> movable(roles2, callOf2, ongoing2, s1 - (e - s - 1), k2)
{
  forall k2 | s1 - (e - s - 1) <= k2 < e1 - (e - s - 1)
    ensures movable(roles2, callOf2, ongoing2, s1 - (e - s - 1), k2)
  {
    MovedEntryAt(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, s1, e1, k2);
  }
}

// EligibleAfterEarlierSplice's second part: every last answer of the moved stretch lies before its moved end.
lemma MovedStretchAnswers(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                          roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                          cutoff: int, s1: int, e1: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s1, e1)
  ensures forall k2 :: s1 - (e - s - 1) <= k2 < e1 - (e - s - 1) ==> lastAnswer2[k2] < e1 - (e - s - 1)
{
  forall k2 | s1 - (e - s - 1) <= k2 < e1 - (e - s - 1)
    ensures lastAnswer2[k2] < e1 - (e - s - 1)
  {
    MovedEntryAt(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, s1, e1, k2);
  }
}

// EligibleAfterEarlierSplice's third part: the moved stretch still holds a message that is not a summary.
lemma MovedStretchWork(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                       roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                       cutoff: int, s1: int, e1: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s1, e1)
  ensures 0 <= s1 - (e - s - 1) <= e1 - (e - s - 1) <= |roles2|
  ensures HasWork(roles2, s1 - (e - s - 1), e1 - (e - s - 1))
{
  var w :| s1 <= w < e1 && roles[w] != Summary;
  MovedWorkAt(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, cutoff, s1, e1, w);
}

// MovedStretchWork at its witness w (a message of the stretch that is not a summary), proven
// alone: Dafny 2.3 timed out on the witness and its move in one piece.
lemma MovedWorkAt(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, s: int, e: int,
                  roles2: seq<Role>, callOf2: seq<int>, lastAnswer2: seq<int>, ongoing2: seq<bool>,
                  cutoff: int, s1: int, e1: int, w: int)
  requires Pairing(roles, callOf, lastAnswer, ongoing)
  requires SplicedView(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2)
  requires e <= s1
  requires Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s1, e1)
  requires s1 <= w < e1 && roles[w] != Summary
  ensures 0 <= s1 - (e - s - 1) <= e1 - (e - s - 1) <= |roles2|
  ensures HasWork(roles2, s1 - (e - s - 1), e1 - (e - s - 1))
{
  MovedEntry(roles, callOf, lastAnswer, ongoing, s, e, roles2, callOf2, lastAnswer2, ongoing2, s1, e1, w);
  var w2 := w - (e - s) + 1;
  assert roles2[w2] != Summary;
  assert s1 - (e - s - 1) <= w2 < e1 - (e - s - 1);
}

// A plan's freed tokens over its first i <= k pairs are the same in any plan with the same first k pairs.
lemma BatchFreedAgree(tokens: seq<int>, plan: seq<int>, plan2: seq<int>, allowance: int, keepPercent: int, k: int)
  requires 0 <= k && 2 * k <= |plan| && 2 * k <= |plan2|
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires forall j: nat :: 2 * j + 1 < |plan2| ==> 0 <= plan2[2 * j] && plan2[2 * j] <= plan2[2 * j + 1] && plan2[2 * j + 1] <= |tokens|
  requires forall j :: 0 <= j < 2 * k ==> plan[j] == plan2[j]
  ensures forall i :: 0 <= i <= k ==> batchFreed(tokens, plan, allowance, keepPercent, i) == batchFreed(tokens, plan2, allowance, keepPercent, i)
  decreases k
{
  if k > 0 { BatchFreedAgree(tokens, plan, plan2, allowance, keepPercent, k - 1); }
}

// Two entries pushed onto a plan of ordered pairs within the tokens, the second pair ordered too:
// every pair of the longer plan is ordered and within the tokens.
lemma AppendPairInRange(tokens: seq<int>, plan: seq<int>, a: int, b: int)
  requires |plan| == 2 * (|plan| / 2)
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires 0 <= a <= b <= |tokens|
  ensures forall j: nat :: 2 * j + 1 < |plan + [a] + [b]| ==> 0 <= (plan + [a] + [b])[2 * j] && (plan + [a] + [b])[2 * j] <= (plan + [a] + [b])[2 * j + 1] && (plan + [a] + [b])[2 * j + 1] <= |tokens|
{
  var p2 := plan + [a] + [b];
  forall j: nat | 2 * j + 1 < |p2|
    ensures 0 <= p2[2 * j] && p2[2 * j] <= p2[2 * j + 1] && p2[2 * j + 1] <= |tokens|
  {
    if 2 * j + 1 < |plan| {
      assert p2[2 * j] == plan[2 * j] && p2[2 * j + 1] == plan[2 * j + 1];
    } else {
      assert 2 * j == |plan| && p2[2 * j] == a && p2[2 * j + 1] == b;
    }
  }
}

// The first k <= m pairs of a plan of m pairs free the same with two entries pushed onto it.
lemma BatchFreedAppend(tokens: seq<int>, plan: seq<int>, m: int, a: int, b: int, allowance: int, keepPercent: int, k: int)
  requires |plan| == 2 * m
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires 0 <= a <= b <= |tokens|
  requires 0 <= k <= m
  ensures forall j: nat :: 2 * j + 1 < |plan + [a] + [b]| ==> 0 <= (plan + [a] + [b])[2 * j] && (plan + [a] + [b])[2 * j] <= (plan + [a] + [b])[2 * j + 1] && (plan + [a] + [b])[2 * j + 1] <= |tokens|
  ensures batchFreed(tokens, plan + [a] + [b], allowance, keepPercent, k) == batchFreed(tokens, plan, allowance, keepPercent, k)
  decreases k
{
  AppendPairInRange(tokens, plan, a, b);
  if k > 0 {
    BatchFreedAppend(tokens, plan, m, a, b, allowance, keepPercent, k - 1);
    assert (plan + [a] + [b])[2 * k - 2] == plan[2 * k - 2] && (plan + [a] + [b])[2 * k - 1] == plan[2 * k - 1];
  }
}

// Two entries pushed onto a plan of m pairs that frees less than `need` before each of its pairs
// and in all: the longer plan still frees less than `need` before each of its pairs, and its new
// pair adds its tokens less the allowance and the expected share (planBatch's step, without a copy of the plan before it).
lemma AppendPairFrees(tokens: seq<int>, plan: seq<int>, m: int, a: int, b: int, allowance: int, keepPercent: int, need: int)
  requires |plan| == 2 * m
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires 0 <= a <= b <= |tokens|
  requires forall k: nat :: 2 * k + 1 < |plan| ==> batchFreed(tokens, plan, allowance, keepPercent, k) < need
  requires batchFreed(tokens, plan, allowance, keepPercent, m) < need
  ensures forall j: nat :: 2 * j + 1 < |plan + [a] + [b]| ==> 0 <= (plan + [a] + [b])[2 * j] && (plan + [a] + [b])[2 * j] <= (plan + [a] + [b])[2 * j + 1] && (plan + [a] + [b])[2 * j + 1] <= |tokens|
  ensures forall k: nat :: 2 * k + 1 < |plan + [a] + [b]| ==> batchFreed(tokens, plan + [a] + [b], allowance, keepPercent, k) < need
  ensures batchFreed(tokens, plan + [a] + [b], allowance, keepPercent, m + 1) == batchFreed(tokens, plan, allowance, keepPercent, m) + sumTokens(tokens, a, b) - allowance - (sumTokens(tokens, a, b) * keepPercent) / 100
{
  BatchFreedAppend(tokens, plan, m, a, b, allowance, keepPercent, m);
  BatchFreedAppendLast(tokens, plan, m, a, b, allowance, keepPercent);
  assert |plan + [a] + [b]| == 2 * m + 2;
  forall k: nat | 2 * k + 1 < |plan + [a] + [b]|
    ensures batchFreed(tokens, plan + [a] + [b], allowance, keepPercent, k) < need
  {
    HalfBelow(k, m);
    AppendPairFreesAt(tokens, plan, m, a, b, allowance, keepPercent, need, k);
  }
}

// 2k + 1 < 2m + 2 ==> k <= m, proven alone (integer reasoning the solver may miss in a large context).
lemma HalfBelow(k: int, m: int)
  requires 2 * k + 1 < 2 * m + 2
  ensures k <= m
{
}

// The new pair pushed onto a plan of m pairs frees its tokens less the allowance and the share its summary is expected to keep.
lemma BatchFreedAppendLast(tokens: seq<int>, plan: seq<int>, m: int, a: int, b: int, allowance: int, keepPercent: int)
  requires |plan| == 2 * m
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires 0 <= a <= b <= |tokens|
  ensures forall j: nat :: 2 * j + 1 < |plan + [a] + [b]| ==> 0 <= (plan + [a] + [b])[2 * j] && (plan + [a] + [b])[2 * j] <= (plan + [a] + [b])[2 * j + 1] && (plan + [a] + [b])[2 * j + 1] <= |tokens|
  ensures batchFreed(tokens, plan + [a] + [b], allowance, keepPercent, m + 1) == batchFreed(tokens, plan, allowance, keepPercent, m) + sumTokens(tokens, a, b) - allowance - (sumTokens(tokens, a, b) * keepPercent) / 100
{
  BatchFreedAppend(tokens, plan, m, a, b, allowance, keepPercent, m);
  var p2 := plan + [a] + [b];
  var x := sumTokens(tokens, a, b);
  calc {
    batchFreed(tokens, p2, allowance, keepPercent, m + 1);
    == { BatchFreedLast(tokens, p2, allowance, keepPercent, m + 1, m, 2 * m, 2 * m + 1); }
    batchFreed(tokens, p2, allowance, keepPercent, m) + sumTokens(tokens, p2[2 * m], p2[2 * m + 1]) - allowance - (sumTokens(tokens, p2[2 * m], p2[2 * m + 1]) * keepPercent) / 100;
    == { assert p2[2 * m] == a && p2[2 * m + 1] == b; }
    batchFreed(tokens, p2, allowance, keepPercent, m) + x - allowance - (x * keepPercent) / 100;
    == 
    batchFreed(tokens, plan, allowance, keepPercent, m) + x - allowance - (x * keepPercent) / 100;
  }
}

// batchFreed's last step, its indices named (k = k0 + 1, its pair at [i, i1)): the solver then
// matches the terms of a caller's plan without arithmetic on them.
lemma BatchFreedLast(tokens: seq<int>, plan: seq<int>, allowance: int, keepPercent: int, k: int, k0: int, i: int, i1: int)
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires 0 <= k0 && k == k0 + 1 && i == 2 * k0 && i1 == i + 1 && 2 * k <= |plan|
  ensures batchFreed(tokens, plan, allowance, keepPercent, k) == batchFreed(tokens, plan, allowance, keepPercent, k0) + sumTokens(tokens, plan[i], plan[i1]) - allowance - (sumTokens(tokens, plan[i], plan[i1]) * keepPercent) / 100
{
  assert 2 * k - 2 == i && 2 * k - 1 == i1 && k - 1 == k0;
}

// AppendPairFrees at one pair k <= m of the longer plan.
lemma AppendPairFreesAt(tokens: seq<int>, plan: seq<int>, m: int, a: int, b: int, allowance: int, keepPercent: int, need: int, k: int)
  requires |plan| == 2 * m
  requires forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  requires 0 <= a <= b <= |tokens|
  requires forall k: nat :: 2 * k + 1 < |plan| ==> batchFreed(tokens, plan, allowance, keepPercent, k) < need
  requires batchFreed(tokens, plan, allowance, keepPercent, m) < need
  requires 0 <= k <= m
  ensures forall j: nat :: 2 * j + 1 < |plan + [a] + [b]| ==> 0 <= (plan + [a] + [b])[2 * j] && (plan + [a] + [b])[2 * j] <= (plan + [a] + [b])[2 * j + 1] && (plan + [a] + [b])[2 * j + 1] <= |tokens|
  ensures batchFreed(tokens, plan + [a] + [b], allowance, keepPercent, k) < need
{
  BatchFreedAppend(tokens, plan, m, a, b, allowance, keepPercent, k);
  if k < m {
    assert 2 * k + 1 < 2 * m;
  }
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

// What a summary is expected to keep of a stretch of `size` tokens (keepPercent percent of it,
// rounded down) lies between none and all of it, and its product stays under 2^53 - 1 when the
// stretch lies within tokens whose sum times 100 does (planBatch's step).
lemma KeepShareBounds(size: int, keepPercent: int, total: int)
  requires 0 <= size <= total && total * 100 <= 9007199254740991
  requires 0 <= keepPercent <= 100
  ensures 0 <= size * keepPercent <= 9007199254740991
  ensures 0 <= (size * keepPercent) / 100 <= size
{
  MulMono(size, keepPercent, 100);
  MulMono(100, size, total);
}

// A flat plan's pairs are ordered and within the tokens (batchFreed's requires).
ghost predicate PairsWithin(tokens: seq<int>, plan: seq<int>)
{
  forall j: nat :: 2 * j + 1 < |plan| ==> 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
}

// A plan whose entries lie within the tokens and never decrease has its pairs ordered and within them (planFreed's requires).
lemma PairsWithinOf(tokens: seq<int>, plan: seq<int>)
  requires forall i: nat :: i < |plan| ==> 0 <= plan[i] && plan[i] <= |tokens|
  requires forall i: nat :: i + 1 < |plan| ==> plan[i] <= plan[i + 1]
  ensures PairsWithin(tokens, plan)
{
  forall j: nat | 2 * j + 1 < |plan|
    ensures 0 <= plan[2 * j] && plan[2 * j] <= plan[2 * j + 1] && plan[2 * j + 1] <= |tokens|
  {
    assert plan[2 * j] <= plan[2 * j + 1];
  }
}

// planFreed's step: in a plan whose entries never decrease, the end of the pairs before pair k
// (0 before the first) lies at or before its start, which lies at or before its end.
lemma PlanStepsUp(plan: seq<int>, k: int, end: int)
  requires forall i: nat :: i < |plan| ==> 0 <= plan[i]
  requires forall i: nat :: i + 1 < |plan| ==> plan[i] <= plan[i + 1]
  requires 0 <= k && 2 * k + 1 < |plan|
  requires (k > 0 ==> end == plan[2 * k - 1]) && (k == 0 ==> end == 0)
  ensures end <= plan[2 * k] <= plan[2 * k + 1]
{
  var i: nat := 2 * k;
  assert plan[i] <= plan[i + 1];
  if k > 0 {
    var h: nat := 2 * k - 1;
    assert plan[h] <= plan[h + 1];
  } else {
    assert 0 <= plan[0];
  }
}

// planFreed's step k, with `end` the end of the pairs before it and `freed` what they free: pair k
// lies after `end` within the tokens, its tokens are exact, what its summary is expected to keep
// lies between none and all of them, and adding what it frees gives batchFreed over k + 1 pairs,
// within the loop's bounds.
lemma PlanFreedStep(tokens: seq<int>, plan: seq<int>, allowance: int, keepPercent: int, k: int, end: int, freed: int)
  requires forall j: nat :: j < |tokens| ==> tokens[j] >= 0
  requires sumTokens(tokens, 0, |tokens|) * 100 <= 9007199254740991
  requires forall i: nat :: i < |plan| ==> 0 <= plan[i] && plan[i] <= |tokens|
  requires forall i: nat :: i + 1 < |plan| ==> plan[i] <= plan[i + 1]
  requires PairsWithin(tokens, plan)
  requires 0 <= allowance && allowance * |plan| <= 9007199254740991
  requires 0 <= keepPercent <= 100
  requires 0 <= k && 2 * k + 1 < |plan|
  requires 0 <= end <= |tokens| && (k > 0 ==> end == plan[2 * k - 1]) && (k == 0 ==> end == 0)
  requires freed == batchFreed(tokens, plan, allowance, keepPercent, k)
  requires -(allowance * k) <= freed <= sumTokens(tokens, 0, end)
  ensures end <= plan[2 * k] <= plan[2 * k + 1] <= |tokens|
  ensures 0 <= sumTokens(tokens, plan[2 * k], plan[2 * k + 1]) <= sumTokens(tokens, 0, |tokens|)
  ensures 0 <= sumTokens(tokens, plan[2 * k], plan[2 * k + 1]) * keepPercent <= 9007199254740991
  ensures 0 <= (sumTokens(tokens, plan[2 * k], plan[2 * k + 1]) * keepPercent) / 100 <= sumTokens(tokens, plan[2 * k], plan[2 * k + 1])
  ensures 0 <= allowance <= 9007199254740991 && allowance * (k + 1) <= 9007199254740991
  ensures freed + sumTokens(tokens, plan[2 * k], plan[2 * k + 1]) - allowance - (sumTokens(tokens, plan[2 * k], plan[2 * k + 1]) * keepPercent) / 100 == batchFreed(tokens, plan, allowance, keepPercent, k + 1)
  ensures -(allowance * (k + 1)) <= batchFreed(tokens, plan, allowance, keepPercent, k + 1) <= sumTokens(tokens, 0, plan[2 * k + 1])
  ensures 0 <= sumTokens(tokens, 0, plan[2 * k + 1]) <= sumTokens(tokens, 0, |tokens|) <= 9007199254740991
{
  PlanStepsUp(plan, k, end);
  var a := plan[2 * k];
  var b := plan[2 * k + 1];
  SumTokensSplit(tokens, 0, end, a);
  SumTokensSplit(tokens, 0, a, b);
  SumTokensSplit(tokens, 0, b, |tokens|);
  SumTokensNonNeg(tokens, end, a);
  SumTokensNonNeg(tokens, a, b);
  SumTokensNonNeg(tokens, b, |tokens|);
  SumTokensNonNeg(tokens, 0, end);
  KeepShareBounds(sumTokens(tokens, a, b), keepPercent, sumTokens(tokens, 0, |tokens|));
  MulMono(allowance, k + 1, |plan|);
  MulMono(allowance, 1, |plan|);
  BatchFreedLast(tokens, plan, allowance, keepPercent, k + 1, k, 2 * k, 2 * k + 1);
}

// The stretch selectStretchFrom finds from `from` (its ensures): the earliest start at or after
// `from` of an eligible stretch, with that start's longest eligible end. Opaque, revealed only in
// the lemmas below: with its body in view of every proof of this file, Dafny 2.3 timed out on
// BatchFreedAppendLast (3 runs of 3, one of them in a clean CI run).
ghost predicate {:opaque} FirstFrom(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                          from: int, s: int, e: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
{
  from <= s && Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e) &&
  (forall e2: int :: e < e2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2)) &&
  (forall s2: int, e2: int :: from <= s2 < s ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2))
}

// Nothing worth a call is left from `from`: the stretch found from there, if any, is not
// plannable, and nothing worth a call is left from its end (planBatch passes over such a stretch
// whole). planBatch's lower bound: its plan stops short of the need only where this holds.
// Opaque: planBatch's proof sees it only as a name; the two lemmas below reveal it (Dafny 2.3 timed
// out on planBatch with its body in view).
ghost predicate {:opaque} NoneWorthFrom(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                              tokens: seq<int>, floorTokens: int, shunStarts: seq<int>, shunEnds: seq<int>, from: int)
  decreases |roles| - from
{
  |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| &&
  forall s: int, e: int :: from <= s < e <= |roles| && FirstFrom(roles, callOf, lastAnswer, ongoing, cutoff, from, s, e) ==>
    !Plannable(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, s, e) &&
    NoneWorthFrom(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, e)
}

// One stretch is found from `from`: two found from it are the same.
lemma FirstFromUnique(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                      from: int, s: int, e: int, s2: int, e2: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
  requires FirstFrom(roles, callOf, lastAnswer, ongoing, cutoff, from, s, e)
  requires FirstFrom(roles, callOf, lastAnswer, ongoing, cutoff, from, s2, e2)
  ensures s == s2 && e == e2
{
  reveal FirstFrom();
  if s2 < s { assert !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2); }
  if s < s2 { assert !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e); }
  if e < e2 { assert !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2); }
  if e2 < e { assert !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e); }
}

// planBatch passing over the stretch [s, e) found from `from`, not plannable: what is left from
// its end is what is left from `from`.
lemma NoneWorthPast(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                    tokens: seq<int>, floorTokens: int, shunStarts: seq<int>, shunEnds: seq<int>, from: int, s: int, e: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
  requires from <= s && Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e)
  requires forall e2: int :: e < e2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e2)
  requires forall s2: int, e2: int :: from <= s2 < s ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2)
  requires !Plannable(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, s, e)
  ensures NoneWorthFrom(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, e) ==>
          NoneWorthFrom(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, from)
{
  reveal NoneWorthFrom();
  assert FirstFrom(roles, callOf, lastAnswer, ongoing, cutoff, from, s, e) by { reveal FirstFrom(); }
  if NoneWorthFrom(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, e) {
    forall s2: int, e2: int | from <= s2 < e2 <= |roles| && FirstFrom(roles, callOf, lastAnswer, ongoing, cutoff, from, s2, e2)
      ensures !Plannable(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, s2, e2) &&
              NoneWorthFrom(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, e2)
    {
      FirstFromUnique(roles, callOf, lastAnswer, ongoing, cutoff, from, s, e, s2, e2);
    }
  }
}

// No eligible stretch starts at or after `from` (selectStretchFrom found none), or `from` is at
// the end: nothing worth a call is left from it.
lemma NoneWorthAtEnd(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, cutoff: int,
                     tokens: seq<int>, floorTokens: int, shunStarts: seq<int>, shunEnds: seq<int>, from: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles|
  ensures (from >= |roles| || forall s2: int, e2: int :: from <= s2 ==> !Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s2, e2)) ==>
          NoneWorthFrom(roles, callOf, lastAnswer, ongoing, cutoff, tokens, floorTokens, shunStarts, shunEnds, from)
{
  reveal NoneWorthFrom();
  reveal FirstFrom();
}
