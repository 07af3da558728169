// Proof companion of src/kernel/keeprecent.ts: what the keep-recent form (L7) may choose.

// [s, e) may be summarized under keep_recent_tokens: it is Eligible (L2-L5, proofs/dafny/stretch.dfy)
// and the messages kept after it, [e, n), hold at least keep tokens (the L7 budget).
ghost predicate KeepsRecent(roles: seq<Role>, callOf: seq<int>, lastAnswer: seq<int>, ongoing: seq<bool>, tokens: seq<int>,
                            cutoff: int, keep: int, s: int, e: int)
  requires |callOf| == |roles| && |lastAnswer| == |roles| && |ongoing| == |roles| && |tokens| == |roles|
{
  Eligible(roles, callOf, lastAnswer, ongoing, cutoff, s, e) && sumRange(tokens, e, |tokens|) >= keep
}
