// Proof companion of src/kernel/aging.ts: which summary a run may age, and the freed-tokens sum
// of an aging plan depends only on the summaries it covers.

// A summary a run may age: a summary message before the cutoff (L3), above the floor and not
// recorded as not shrinkable (worthACall's terms on [j, j + 1)), outside the plan's work stretches,
// whose facts' tokens fit strictly under its aged budget (percent of its size, rounded down).
ghost predicate Agable(roles: seq<Role>, tokens: seq<int>, facts: seq<int>, percent: int, cutoff: int, floorTokens: int,
                       shunStarts: seq<int>, shunEnds: seq<int>, plan: seq<int>, j: int)
{
  0 <= j < cutoff && j < |roles| && j < |tokens| && j < |facts| && roles[j] == Summary && sumTokens(tokens, j, j + 1) > floorTokens &&
  facts[j] < (tokens[j] * percent) / 100 &&
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

// One summary j pushed onto an aging plan that frees less than `need` before each of its entries
// and in all: the longer plan still frees less than `need` before each of its entries, and j adds
// its size less its budget (planAging's step, stated of the plan before the push: no copy is made).
lemma AgingAppendFrees(tokens: seq<int>, aged: seq<int>, j: int, percent: int, need: int)
  requires forall i: nat :: i < |aged| ==> 0 <= aged[i] && aged[i] < |tokens|
  requires 0 <= j < |tokens|
  requires forall k: nat :: k < |aged| ==> agingFreed(tokens, aged, percent, k) < need
  requires agingFreed(tokens, aged, percent, |aged|) < need
  ensures forall i: nat :: i < |aged + [j]| ==> 0 <= (aged + [j])[i] && (aged + [j])[i] < |tokens|
  ensures forall i: nat :: i < |aged| ==> (aged + [j])[i] == aged[i]
  ensures (aged + [j])[|aged|] == j
  ensures forall k: nat :: k < |aged + [j]| ==> agingFreed(tokens, aged + [j], percent, k) < need
  ensures agingFreed(tokens, aged + [j], percent, |aged| + 1) == agingFreed(tokens, aged, percent, |aged|) + tokens[j] - (tokens[j] * percent) / 100
{
  AgingFreedAgree(tokens, aged, aged + [j], percent, |aged|);
  assert (aged + [j])[|aged|] == j;
}

// A flat plan whose entries never decrease (planBatch's pairs: each ordered, ascending and
// disjoint): an entry is at most every later one.
lemma PlanAscends(plan: seq<int>, a: int, b: int)
  requires forall i: nat :: i + 1 < |plan| ==> plan[i] <= plan[i + 1]
  requires 0 <= a <= b < |plan|
  ensures plan[a] <= plan[b]
  decreases b - a
{
  if a < b {
    PlanAscends(plan, a, b - 1);
    assert plan[b - 1] <= plan[b];
  }
}

// planAging's walk over the work plan: once the pairs before p end at or before j and pair p (if
// any) ends after it, j lies in some pair of the plan exactly when pair p starts at or before it.
lemma OutsidePlan(plan: seq<int>, p: int, j: int)
  requires forall i: nat :: i + 1 < |plan| ==> plan[i] <= plan[i + 1]
  requires 0 <= p && 2 * p <= |plan|
  requires forall i: nat :: i < p ==> plan[2 * i + 1] <= j
  requires 2 * p + 1 < |plan| ==> j < plan[2 * p + 1]
  ensures (2 * p + 1 < |plan| && plan[2 * p] <= j) <==> (exists k: nat :: 2 * k + 1 < |plan| && plan[2 * k] <= j && j < plan[2 * k + 1])
  ensures !(2 * p + 1 < |plan| && plan[2 * p] <= j) ==> (forall k: nat :: 2 * k + 1 < |plan| ==> !(plan[2 * k] <= j && j < plan[2 * k + 1]))
{
  if 2 * p + 1 < |plan| && plan[2 * p] <= j {
    var k: nat := p;
    assert 2 * k + 1 < |plan| && plan[2 * k] <= j && j < plan[2 * k + 1];
  } else {
    forall k: nat | 2 * k + 1 < |plan|
      ensures !(plan[2 * k] <= j && j < plan[2 * k + 1])
    {
      if k < p {
        assert plan[2 * k + 1] <= j;
      } else {
        PlanAscends(plan, 2 * p, 2 * k);
      }
    }
  }
}
