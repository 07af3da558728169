// An incremental "is compaction due" check for an agent loop (L1). The trigger reads a token
// total, an item count, a user-turn count and the request's bytes (max_request_bytes); the tracker keeps the items it has measured (by
// identity, at their positions) and the sums of their shares, so a step that adds k items to a
// history it saw before measures k items. When an item it saw is no longer at its position (the
// agent replaced, removed or reordered messages), it forgets everything and measures the whole
// list again, as a fresh check would. The decision itself is the kernel's (dueBy, through the gate).
import type { Config } from "../../model/config.ts";
import { dueBy, type Plan } from "./plan.ts";

/** What one item adds to the counts the trigger reads. */
export interface ItemShare {
  /** the tokens of the engine messages the item reads as (messageTokens, the store's count) */
  readonly tokens: number;
  /** how many of them are user messages */
  readonly userTurns: number;
  /** the bytes of those messages (messageBytes, the store's count) */
  readonly bytes: number;
}

/** How a format measures its items, one at a time, in order. */
export interface ItemMeasurer<T> {
  /** Forgets every item measured so far: the next item measured is item 0. */
  reset(): void;
  /**
   * The share of `item`, at `index`, after items 0..index-1 were measured; undefined when the
   * list cannot be judged (a tool pairing problem: the caller's full check names it). Throws the
   * format's InputError on an item that is not well-shaped, before changing anything.
   */
  measure(item: T, index: number): ItemShare | undefined;
}

/** The counts a check judged. */
export interface DueCounts {
  readonly tokens: number;
  readonly items: number;
  readonly userTurns: number;
  readonly bytes: number;
}

/** Keeps the trigger's counts of a growing list of items up to date; see the file comment. */
export class DueTracker<T> {
  private seen: T[] = [];
  private tokens = 0;
  private turns = 0;
  private bytes = 0;

  constructor(
    private readonly c: Config,
    private readonly measurer: ItemMeasurer<T>,
  ) {}

  private forget(): void {
    this.seen = [];
    this.tokens = 0;
    this.turns = 0;
    this.bytes = 0;
    this.measurer.reset();
  }

  /**
   * Brings the counts up to `items` and asks the kernel whether compaction is due: the trigger
   * that fired, "none", or undefined when the items cannot be judged here (see ItemMeasurer).
   * Costs one identity comparison per item seen before and one measurement per item not seen.
   */
  check(items: readonly T[]): Plan["trigger"] | undefined {
    const seen = this.seen;
    let same = seen.length <= items.length;
    for (let i = 0; same && i < seen.length; i++) same = items[i] === seen[i];
    if (!same) this.forget();
    for (let i = this.seen.length; i < items.length; i++) {
      const share = this.measurer.measure(items[i], i);
      if (share === undefined) {
        this.forget();
        return undefined;
      }
      this.seen.push(items[i]);
      this.tokens += share.tokens;
      this.turns += share.userTurns;
      this.bytes += share.bytes;
    }
    return dueBy(this.c, this.tokens, items.length, this.turns, false, this.bytes);
  }

  /** Whether compaction is due for the counts of the items last checked under another configuration `c` (the kernel's trigger). */
  dueUnder(c: Config): Plan["trigger"] {
    return dueBy(c, this.tokens, this.seen.length, this.turns, false, this.bytes);
  }

  /** The counts of the items last checked. */
  get counts(): DueCounts {
    return { tokens: this.tokens, items: this.seen.length, userTurns: this.turns, bytes: this.bytes };
  }
}
