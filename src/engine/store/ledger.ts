// Token counts kept incrementally: one count per message and a running total, so appending
// a message costs one tokenizer call and never re-reads the history.

import { InputError } from "../../model/errors.ts";
import type { Message } from "../../model/message.ts";
import { assertMessage, assertMessages } from "../../model/message-shape.ts";
import { messageTokens, type TokenCounter } from "../../model/tokens.ts";
import { EXACT_LIMIT, EXACT_LIMIT_NAME } from "../boundary/exact.ts";
import { GapArray } from "./gap-array.ts";

/** Per-message token counts plus their running total, updated in place. */
export class TokenLedger {
  readonly counter: TokenCounter;
  /** in a gap buffer, so that a splice does not move every later count (gap-array.ts) */
  private counts = new GapArray<number>([]);
  private sum = 0;

  constructor(counter: TokenCounter, messages: readonly Message[] = []) {
    this.counter = counter;
    for (const m of assertMessages(messages)) this.append(m);
  }

  /**
   * Counts one new message and adds it to the total; refuses it (changing nothing) when the total
   * would pass 2^53 - 1, where the kernel's sums over the counts would no longer be exact.
   */
  append(m: Message): void {
    // a bad message would count as NaN and poison the total for good
    assertMessage(m, `messages[${this.counts.length}]`);
    this.appendChecked(m);
  }

  /**
   * append for a message whose shape the caller has just checked (the store's bulk load):
   * counted, not checked again; refused (changing nothing) when the total would pass 2^53 - 1.
   */
  appendChecked(m: Message): void {
    const t = messageTokens(this.counter, m);
    if (t > EXACT_LIMIT - this.sum)
      throw new InputError(
        `messages[${this.counts.length}]`,
        `the conversation's token total would pass ${EXACT_LIMIT_NAME}`,
      );
    this.counts.push(t);
    this.sum += t;
  }

  /**
   * Takes per-message counts the caller computed with messageTokens(this.counter, ...) for checked
   * messages (the store's bulk load), as if appended one by one: refused, changing nothing, when
   * the total would pass 2^53 - 1, naming the first message that takes it past. An empty ledger
   * keeps `counts` itself (the caller hands it over and never touches it again): a copy of a long
   * history's counts is an allocation as costly as the pass that computed them.
   */
  adopt(counts: number[]): void {
    let sum = this.sum;
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] > EXACT_LIMIT - sum)
        throw new InputError(
          `messages[${this.counts.length + i}]`,
          `the conversation's token total would pass ${EXACT_LIMIT_NAME}`,
        );
      sum += counts[i];
    }
    this.sum = sum;
    // the load's own array, kept: it is not used elsewhere after the load
    if (this.counts.length === 0) this.counts = new GapArray(counts);
    else for (let i = 0; i < counts.length; i++) this.counts.push(counts[i]);
  }

  /** The token count of a summary about to be spliced in (for spliceFits, then splice). */
  countSummary(summary: Message): number {
    assertMessage(summary, "summary");
    return messageTokens(this.counter, summary);
  }

  /** Whether replacing entries [start, end) by a count of t keeps the total <= 2^53 - 1 (0 <= start <= end <= length). */
  spliceFits(start: number, end: number, t: number): boolean {
    return t <= EXACT_LIMIT - (this.sum - this.rangeTotal(start, end));
  }

  /** Replaces entries [start, end) by the count `t` of `summary` (mirrors a conversation splice). */
  splice(start: number, end: number, summary: Message, t = this.countSummary(summary)): void {
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start < end && end <= this.length))
      throw new InputError("start", `expected 0 <= start < end <= ${this.length}, got ${start}..${end}`);
    this.sum -= this.rangeTotal(start, end);
    this.counts.replace(start, end, t);
    this.sum += t;
  }

  /** The running total. */
  get total(): number {
    return this.sum;
  }

  /** Number of messages counted. */
  get length(): number {
    return this.counts.length;
  }

  /** The per-message counts themselves, read-only (no copy: for a plan against the current state). */
  get countsView(): readonly number[] {
    return this.counts.view();
  }

  /** A copy of the per-message counts (the kernel's token view). */
  perMessage(): number[] {
    return this.counts.slice();
  }

  /** Sum of the counts of entries [start, end). */
  rangeTotal(start: number, end: number): number {
    let s = 0;
    for (let i = start; i < end; i++) s += this.counts.at(i);
    return s;
  }
}
