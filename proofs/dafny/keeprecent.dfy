// Proof companion of src/kernel/keeprecent.ts: what the keep-recent form (L7) may choose.

// [s, e) may be summarized under keep_recent_tokens: it is Eligible (L2-L5, proofs/dafny/stretch.dfy)
// and the messages kept after it, [e, n), hold at least keep tokens (the L7 budget).
ghost predicate KeepsRecent(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, tokens: seq<int>,
                            cutoff: int, keep: int, s: int, e: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| && |tokens| == |roles|
{
  Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e) && sumTokens(tokens, e, |tokens|) >= keep
}

// When the messages from s on hold fewer than keep tokens, no stretch starting at or after s
// keeps the budget: what stays after it is a suffix of them (token counts are never negative).
lemma NoBudgetFrom(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, tokens: seq<int>,
                   cutoff: int, keep: int, s: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| && |tokens| == |roles|
  requires forall j :: 0 <= j < |tokens| ==> tokens[j] >= 0
  requires 0 <= s <= |tokens| && sumTokens(tokens, s, |tokens|) < keep
  ensures forall s2: int, e2: int :: s <= s2 ==> !KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keep, s2, e2)
{
  forall s2: int, e2: int | s <= s2 && KeepsRecent(roles, callOf, lastAnswer, ongoing, tokens, cutoff, keep, s2, e2)
    ensures false
  {
    SumTokensAntitone(tokens, s, e2, |tokens|);
  }
}
