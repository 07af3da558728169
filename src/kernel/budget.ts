// API: summaryBudget(size, factTokens, percent, floorTokens, maxTokens): number
// -- the budget an ordinary stretch's summary is asked to fit in, stated in its prompt.
// A summary asked for with max_tokens whatever the stretch's size is as long as the summarizer
// makes it: a short stretch and a long one both get max_tokens. The stated budget follows the
// stretch: a percentage of its tokens, never under the facts the summary must keep verbatim
// (factTokens, counted by the engine) plus a floor of room beyond them, never over max_tokens
// (validation's cap, L8). A floor sized for the most facts any stretch holds would ask every
// stretch for that much; the facts' own count asks each for what it needs. It is a request, not
// a rule: a summary is still accepted when strictly shorter than its stretch and within
// max_tokens. Percent 0 asks for max_tokens, as before the budget existed.

//@ verify
//@ requires 0 <= size && size * 100 <= 9007199254740991
//@ requires 0 <= percent && percent <= 100
//@ requires 0 <= factTokens && 0 <= floorTokens && factTokens + floorTokens <= 9007199254740991
//@ requires 1 <= maxTokens
//@ ensures \result <= maxTokens
//@ ensures \result >= Math.min(factTokens + floorTokens, maxTokens)
//@ ensures percent === 0 ==> \result === maxTokens
//@ ensures percent > 0 ==> \result === Math.min(maxTokens, Math.max(factTokens + floorTokens, Math.floor((size * percent) / 100)))
/**
 * The budget stated in the prompt of a stretch of `size` tokens whose required facts take
 * `factTokens`: `percent` of the stretch, rounded down, at least the facts plus `floorTokens`, at
 * most `maxTokens`; percent 0 is "off": maxTokens.
 */
export function summaryBudget(
  size: number,
  factTokens: number,
  percent: number,
  floorTokens: number,
  maxTokens: number,
): number {
  if (percent === 0) return maxTokens;
  //@ use BudgetMulMono(size, percent, 100)
  const share = Math.floor((size * percent) / 100);
  const least = factTokens + floorTokens;
  return Math.min(maxTokens, Math.max(least, share));
}
