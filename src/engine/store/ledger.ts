// Token counts kept incrementally: one count per message and a running total, so appending
// a message costs one tokenizer call and never re-reads the history. The first messages may be
// left uncounted (a provider's usage report covers them): they are counted, in one pass, when
// something reads their counts, and no accessor ever shows a count that was not computed.

import { InputError } from "../../model/errors.ts";
import type { Message } from "../../model/message.ts";
import { assertMessage, assertMessages } from "../../model/message-shape.ts";
import { messageTokens, type TokenCounter } from "../../model/tokens.ts";
import { EXACT_LIMIT, EXACT_LIMIT_NAME } from "../boundary/exact.ts";
import { arrayView, GapArray } from "./gap-array.ts";

/** Messages [0, uncounted) of an adopted load left uncounted, and how to read them when counting. */
export interface Uncounted {
  readonly uncounted: number;
  /** message i of the conversation (only read for i < the uncounted boundary, which no splice moves) */
  readonly messageAt: (i: number) => Message;
}

/** Per-message token counts plus their running total, updated in place. */
export class TokenLedger {
  readonly counter: TokenCounter;
  /** in a gap buffer, so that a splice does not move every later count (gap-array.ts) */
  private counts = new GapArray<number>([]);
  /** sum of the counted entries (all of them once `countedFrom` is 0) */
  private sum = 0;
  /** entries [0, countedFrom) are not counted yet (placeholders, never shown) */
  private countedFrom = 0;
  private messageAt: ((i: number) => Message) | undefined;
  /** the counts as a view that counts what a read needs first (while some are uncounted) */
  private lazyView: readonly number[] | undefined;

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
   * While some messages are uncounted the bound is checked on the counted ones (O(1)); the
   * whole total is checked when the rest is counted.
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
   * history's counts is an allocation as costly as the pass that computed them. With `lazy` (an
   * empty ledger only), counts[0, lazy.uncounted) are placeholders: those messages are counted
   * on first demand, and left out of the bound check until then.
   */
  adopt(counts: number[], lazy?: Uncounted): void {
    const skip = lazy?.uncounted ?? 0;
    if (skip > 0 && this.counts.length > 0) throw new Error("internal: only an empty ledger adopts uncounted entries");
    let sum = this.sum;
    for (let i = skip; i < counts.length; i++) {
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
    if (lazy !== undefined && skip > 0) {
      this.countedFrom = skip;
      this.messageAt = lazy.messageAt;
    }
  }

  /** How many of the first messages are not counted yet (0 once every count is known). */
  get uncounted(): number {
    return this.countedFrom;
  }

  /** Counts every message not counted yet (one pass; nothing when all are counted). */
  countAll(): void {
    this.countFrom(0);
  }

  /**
   * Counts the uncounted messages [from, countedFrom) in one pass. Refused, changing nothing,
   * when the counted total would pass 2^53 - 1: the error then names the message an eager load
   * would have named (the first whose running total from the start passes), for which every
   * message is counted.
   */
  private countFrom(from: number): void {
    const to = this.countedFrom;
    if (from >= to) return;
    const at = this.messageAt as (i: number) => Message;
    const fresh = new Array<number>(to - from);
    let room = EXACT_LIMIT - this.sum;
    for (let i = from; i < to; i++) {
      const t = messageTokens(this.counter, at(i));
      if (t > room) this.refuseTotal();
      room -= t;
      fresh[i - from] = t;
    }
    for (let i = from; i < to; i++) this.counts.set(i, fresh[i - from]);
    this.sum = EXACT_LIMIT - room;
    this.countedFrom = from;
    if (from === 0) this.messageAt = undefined;
  }

  /** Throws the eager load's error for a total past 2^53 - 1 (counting the uncounted messages to find it). */
  private refuseTotal(): never {
    const at = this.messageAt as (i: number) => Message;
    let sum = 0;
    for (let i = 0; i < this.counts.length; i++) {
      const t = i < this.countedFrom ? messageTokens(this.counter, at(i)) : this.counts.at(i);
      if (t > EXACT_LIMIT - sum)
        throw new InputError(`messages[${i}]`, `the conversation's token total would pass ${EXACT_LIMIT_NAME}`);
      sum += t;
    }
    throw new Error("internal: the token total passes 2^53 - 1 but no message takes it past");
  }

  /** The token count of a summary about to be spliced in (for spliceFits, then splice). */
  countSummary(summary: Message): number {
    assertMessage(summary, "summary");
    return messageTokens(this.counter, summary);
  }

  /** Whether replacing entries [start, end) by a count of t keeps the total <= 2^53 - 1 (0 <= start <= end <= length). */
  spliceFits(start: number, end: number, t: number): boolean {
    this.countAll();
    return t <= EXACT_LIMIT - (this.sum - this.rangeTotal(start, end));
  }

  /** Replaces entries [start, end) by the count `t` of `summary` (mirrors a conversation splice). */
  splice(start: number, end: number, summary: Message, t = this.countSummary(summary)): void {
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start < end && end <= this.length))
      throw new InputError("start", `expected 0 <= start < end <= ${this.length}, got ${start}..${end}`);
    // the uncounted messages are read by index, which the splice shifts: counted first
    this.countAll();
    this.sum -= this.rangeTotal(start, end);
    this.counts.replace(start, end, t);
    this.sum += t;
  }

  /**
   * Sets entry i's count to `t` (a message replaced in place by clearing, L13): the total moves by
   * the difference. Only counts that fall are accepted (the kernel cleared only shorter results).
   */
  replaceCount(i: number, t: number): void {
    this.countAll();
    const old = this.counts.at(i);
    if (!(Number.isSafeInteger(t) && 0 <= t && t < old))
      throw new Error(`internal: a cleared message's count ${t} is not below its count ${old}`);
    this.counts.set(i, t);
    this.sum -= old - t;
  }

  /** The running total (counting the uncounted messages first). */
  get total(): number {
    this.countAll();
    return this.sum;
  }

  /** Number of messages counted. */
  get length(): number {
    return this.counts.length;
  }

  /**
   * The per-message counts themselves, read-only (no copy: for a plan against the current state).
   * While some messages are uncounted, reading entry i first counts the uncounted ones from i on:
   * a reader of the counts after a reported prefix (the trigger with usage) counts only those.
   */
  get countsView(): readonly number[] {
    if (this.countedFrom === 0) return this.counts.view();
    if (this.lazyView === undefined) {
      const counts = this.counts;
      const read = (i: number): number => {
        if (i < this.countedFrom) this.countFrom(i);
        return counts.at(i);
      };
      this.lazyView = arrayView({
        get length() {
          return counts.length;
        },
        at: read,
      });
    }
    return this.lazyView;
  }

  /** A copy of the per-message counts (the kernel's token view). */
  perMessage(): number[] {
    this.countAll();
    return this.counts.slice();
  }

  /** Sum of the counts of entries [start, end). */
  rangeTotal(start: number, end: number): number {
    if (start < end) this.countFrom(start);
    let s = 0;
    for (let i = start; i < end; i++) s += this.counts.at(i);
    return s;
  }
}
