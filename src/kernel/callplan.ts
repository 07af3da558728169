// API: callFits(input, output, overhead, window, outputCap, a, b): boolean (spec);
//      planCalls(input, output, overhead, window, outputCap): number[] -- how the summaries of a
//      batch are cut into summarizer calls that each fit the summarizer's model.
// A batch's parts (one per stretch, in order) are sent in calls of consecutive parts. A call of
// parts [a, b) holds the prompt's fixed part (`overhead`: the shared instructions, the message
// framing) and each part's prompt (`input[k]` tokens), and asks for the sum of the parts'
// answers (`output[k]` tokens, its max_tokens). It fits the model when all of that fits its
// context window (prompt and answer together) and the answer it asks for fits its output cap.
// The calls are made greedily, in order: a call takes the next part whenever the call with it
// still fits, so a call ends only because the next part would not fit (the plan is never "one
// call per part" when more fits). A part that does not fit even alone is a call of its own, and
// the only calls that may not fit are such single parts: the engine sends each single part on
// its own request, which cuts the part's own input to fit (summarize-step.ts), never what is kept.
import { sumTokens } from "./progress.ts";

//@ spec
//@ requires 0 <= a && a <= b && b <= input.length && b <= output.length
/**
 * Whether parts [a, b) fit one call: the fixed part, their prompts and the answers they ask for
 * within the window, and those answers within the output cap (a specification).
 */
export function callFits(
  input: readonly number[],
  output: readonly number[],
  overhead: number,
  window: number,
  outputCap: number,
  a: number,
  b: number,
): boolean {
  return overhead + sumTokens(input, a, b) + sumTokens(output, a, b) <= window && sumTokens(output, a, b) <= outputCap;
}

//@ verify
//@ requires input.length === output.length && input.length <= 9007199254740991
//@ requires 0 <= overhead
//@ requires forall(k: nat, k < input.length ==> input[k] >= 0 && output[k] >= 0) && overhead + sumTokens(input, 0, input.length) + sumTokens(output, 0, output.length) <= 9007199254740991
//@ ensures \result.length === 2 * Math.floor(\result.length / 2)
//@ ensures input.length === 0 <==> \result.length === 0
//@ ensures \result.length > 0 ==> \result[0] === 0 && \result[\result.length - 1] === input.length
//@ ensures forall(k: nat, 2 * k + 1 < \result.length ==> 0 <= \result[2 * k] && \result[2 * k] < \result[2 * k + 1] && \result[2 * k + 1] <= input.length)
//@ ensures forall(k: nat, 2 * k + 3 < \result.length ==> \result[2 * k + 1] === \result[2 * k + 2])
//@ ensures forall(k: nat, 2 * k + 1 < \result.length ==> callFits(input, output, overhead, window, outputCap, \result[2 * k], \result[2 * k + 1]) || \result[2 * k + 1] === \result[2 * k] + 1)
//@ ensures forall(k: nat, 2 * k + 1 < \result.length && \result[2 * k + 1] < input.length ==> !callFits(input, output, overhead, window, outputCap, \result[2 * k], \result[2 * k + 1] + 1))
/**
 * The calls a batch of parts is sent in (flat [start, end) pairs, call k is [result[2k],
 * result[2k + 1])): consecutive, in order, covering every part once; each call fits the model
 * (callFits) or is a single part that does not fit even alone; and each call but the last ends
 * only because the call with the next part would not fit (greedy, so maximal).
 */
export function planCalls(
  input: readonly number[],
  output: readonly number[],
  overhead: number,
  window: number,
  outputCap: number,
): number[] {
  const n = input.length;
  const out: number[] = [];
  let start = 0;
  let i = 0;
  let inSum = 0;
  let outSum = 0;
  while (i < n) {
    //@ invariant 0 <= start && start <= i && i <= n && (start < i || i === 0)
    //@ invariant inSum === sumTokens(input, start, i) && outSum === sumTokens(output, start, i)
    //@ invariant i <= start + 1 || callFits(input, output, overhead, window, outputCap, start, i)
    //@ invariant out.length === 2 * Math.floor(out.length / 2)
    //@ invariant (out.length === 0 && start === 0) || (out.length > 0 && out[0] === 0 && out[out.length - 1] === start)
    //@ invariant forall(k: nat, 2 * k + 1 < out.length ==> 0 <= out[2 * k] && out[2 * k] < out[2 * k + 1] && out[2 * k + 1] <= start)
    //@ invariant forall(k: nat, 2 * k + 3 < out.length ==> out[2 * k + 1] === out[2 * k + 2])
    //@ invariant forall(k: nat, 2 * k + 1 < out.length ==> callFits(input, output, overhead, window, outputCap, out[2 * k], out[2 * k + 1]) || out[2 * k + 1] === out[2 * k] + 1)
    //@ invariant forall(k: nat, 2 * k + 1 < out.length ==> out[2 * k + 1] < n && !callFits(input, output, overhead, window, outputCap, out[2 * k], out[2 * k + 1] + 1))
    //@ decreases n - i
    //@ use CallSumsBound(input, output, overhead, start, i + 1)
    const inNext = inSum + input[i];
    const outNext = outSum + output[i];
    const fits = overhead + inNext + outNext <= window && outNext <= outputCap;
    if (i > start && !fits) {
      // the call [start, i) ends: with part i it would not fit
      out.push(start);
      out.push(i);
      start = i;
      inSum = input[i];
      outSum = output[i];
    } else {
      inSum = inNext;
      outSum = outNext;
    }
    i = i + 1;
  }
  if (n > 0) {
    out.push(start);
    out.push(n);
  }
  return out;
}
