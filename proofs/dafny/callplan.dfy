// Proof companion of src/kernel/callplan.ts: the sums of a call's parts stay within the batch's
// total, so every sum the planner computes is a safe integer.

// A range of parts holds no more than all of them (counts are never negative), and no less than none.
lemma CallSumsBound(input: seq<int>, output: seq<int>, overhead: int, a: int, b: int)
  requires 0 <= a <= b <= |input| && |input| == |output|
  requires forall k :: 0 <= k < |input| ==> input[k] >= 0 && output[k] >= 0
  requires 0 <= overhead
  ensures 0 <= sumTokens(input, a, b) <= sumTokens(input, 0, |input|)
  ensures 0 <= sumTokens(output, a, b) <= sumTokens(output, 0, |output|)
{
  SumTokensSplit(input, 0, a, |input|);
  SumTokensSplit(input, a, b, |input|);
  SumTokensNonNeg(input, 0, a);
  SumTokensNonNeg(input, a, b);
  SumTokensNonNeg(input, b, |input|);
  SumTokensSplit(output, 0, a, |output|);
  SumTokensSplit(output, a, b, |output|);
  SumTokensNonNeg(output, 0, a);
  SumTokensNonNeg(output, a, b);
  SumTokensNonNeg(output, b, |output|);
}
