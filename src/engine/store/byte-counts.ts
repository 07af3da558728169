// Each message's request bytes (message-bytes.ts) and their running total, kept in step with a
// store's messages. A load leaves them uncounted: a count is a pure function of its message, so
// while none is counted the counts are the current messages' and nothing needs updating; they are
// all counted, in one pass over the current messages, when something first reads a count or the
// total (the byte budget, max_request_bytes, and the reports under it). A store whose bytes nobody
// asks about never reads its messages' text for them: counting every character was most of a load.

import type { Message } from "../../model/message.ts";
import { messageBytes } from "../../model/message-bytes.ts";
import { arrayView, GapArray, type Indexed } from "./gap-array.ts";

/** Per-message bytes (messageBytes) and their total, counted on first demand after a load. */
export class ByteCounts {
  /** in a gap buffer, in step with the store's messages once counted */
  private counts = new GapArray<number>([]);
  private sum = 0;
  /** the store's messages while none is counted; undefined once counted */
  private pending: Indexed<Message> | undefined;
  private lazyView: readonly number[] | undefined;

  /**
   * Counts for `messages` (the store's own sequence, read at counting time): `known`, each one's
   * bytes as a store being copied held them, are taken over (the caller hands the array over);
   * without them nothing is counted until a count or the total is read.
   */
  constructor(messages: Indexed<Message>, known?: number[]) {
    if (known === undefined) {
      this.pending = messages;
      return;
    }
    let s = 0;
    for (let i = 0; i < known.length; i++) s += known[i];
    this.counts = new GapArray(known);
    this.sum = s;
  }

  /** Whether every count is known (false after a load until a count or the total is read). */
  get counted(): boolean {
    return this.pending === undefined;
  }

  /** Counts every message, in one pass over the current messages (nothing once counted). */
  private countAll(): void {
    const src = this.pending;
    if (src === undefined) return;
    const counts = new Array<number>(src.length);
    let s = 0;
    for (let i = 0; i < counts.length; i++) {
      counts[i] = messageBytes(src.at(i));
      s += counts[i];
    }
    this.counts = new GapArray(counts);
    this.sum = s;
    this.pending = undefined;
  }

  /** The total of the counts (counting them first if needed). */
  get total(): number {
    this.countAll();
    return this.sum;
  }

  /** A new last message `m` (already in the store's messages). */
  push(m: Message): void {
    if (this.pending !== undefined) return;
    const b = messageBytes(m);
    this.counts.push(b);
    this.sum += b;
  }

  /** Entries [start, end) replaced by `summary`'s count (a splice the store's messages already took or are about to take). */
  splice(start: number, end: number, summary: Message): void {
    if (this.pending !== undefined) return;
    const b = messageBytes(summary);
    for (let i = start; i < end; i++) this.sum -= this.counts.at(i);
    this.counts.replace(start, end, b);
    this.sum += b;
  }

  /** Entry i's count set to `m`'s (a message replaced in place by clearing). */
  set(i: number, m: Message): void {
    if (this.pending !== undefined) return;
    const b = messageBytes(m);
    this.sum += b - this.counts.at(i);
    this.counts.set(i, b);
  }

  /** The counts, read-only and live; reading any entry counts them all first (while none is counted). */
  view(): readonly number[] {
    if (this.pending === undefined) return this.counts.view();
    if (this.lazyView === undefined) {
      const src = this.pending;
      this.lazyView = arrayView({
        get length() {
          return src.length;
        },
        at: (i: number): number => {
          this.countAll();
          return this.counts.at(i);
        },
      });
    }
    return this.lazyView;
  }

  /** A copy of the counts (counting them first if needed). */
  slice(): number[] {
    this.countAll();
    return this.counts.slice();
  }

  /** A copy of the counts if they are counted, else undefined (a copy of the store then counts on its own demand). */
  countedCopy(): number[] | undefined {
    return this.pending === undefined ? this.counts.slice() : undefined;
  }
}
