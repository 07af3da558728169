// Proof companion of src/kernel/aging.ts: which summary a run may age, and the freed-tokens sum
// of an aging plan depends only on the summaries it covers.

// A summary a run may age: a summary message before the cutoff (L3), above the floor and not
// recorded as not shrinkable (worthACall's terms on [j, j + 1)), outside the plan's work stretches.
ghost predicate Agable(roles: seq<Role>, tokens: seq<int>, cutoff: int, floorTokens: int, shunStarts: seq<int>,
                       shunEnds: seq<int>, plan: seq<int>, j: int)
{
  0 <= j < cutoff && j < |roles| && j < |tokens| && roles[j] == Summary && sumTokens(tokens, j, j + 1) > floorTokens &&
  (forall i: nat :: i < |shunStarts| && i < |shunEnds| ==> !(shunStarts[i] == j && shunEnds[i] == j + 1)) &&
  (forall k: nat :: 2 * k + 1 < |plan| ==> !(plan[2 * k] <= j && j < plan[2 * k + 1]))
}

// An aging plan's freed tokens over its first i <= k summaries are the same in any plan with the same first k.
lemma AgingFreedAgree(tokens: seq<int>, aged: seq<int>, aged2: seq<int>, percent: int, k: int)
  requires 0 <= k && k <= |aged| && k <= |aged2|
  requires forall i: nat :: i < |aged| ==> 0 <= aged[i] && aged[i] < |tokens|
  requires forall i: nat :: i < |aged2| ==> 0 <= aged2[i] && aged2[i] < |tokens|
  requires forall i :: 0 <= i < k ==> aged[i] == aged2[i]
  ensures forall i :: 0 <= i <= k ==> agingFreed(tokens, aged, percent, i) == agingFreed(tokens, aged2, percent, i)
  decreases k
{
  if k > 0 { AgingFreedAgree(tokens, aged, aged2, percent, k - 1); }
}

// Multiplying by a natural keeps the order (the aged budget stays below the size).
lemma AgingMulMono(a: int, x: int, y: int)
  requires a >= 0 && x <= y
  ensures a * x <= a * y
{
}
