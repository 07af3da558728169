// Where each replaced stretch was in the input, in the caller's own items (item-map.ts), and how
// many items the conversation holds now and how many of its last messages the retention window
// covers. Steps plan on the conversation as it is after earlier splices; the report speaks of
// the input the user gave. Each summary so far is kept as an anchor (its position now, the input
// range it stands for); a position after an anchor maps to the input by that anchor's offset.
// Steps move forward (kernel lemma ForwardProgress), so a new anchor lands at the end of the
// list: O(log k) a step. Messages appended since the start (a store being compacted while the
// agent runs) are one item each, numbered after the input's.
import type { ItemMap, ItemSpan } from "./item-map.ts";

/** A stretch in the input's own items: 0-based positions of its first and last item. */
export interface InputRange {
  readonly first: number;
  readonly last: number;
}

interface Anchor {
  /** position of the summary in the conversation now */
  at: number;
  /** the input messages [from, to) it replaced (internal positions) */
  readonly from: number;
  readonly to: number;
}

/** Maps positions in a conversation being compacted back to its input's items. */
export class InputPositions {
  private readonly map: ItemMap;
  /** how many items the input holds */
  readonly files: number;
  private readonly anchors: Anchor[] = [];
  // what the splices so far did: messages removed (each splice leaves one of its end - start),
  // and the change in the item count
  private shrink = 0;
  private itemDelta = 0;

  constructor(map: ItemMap) {
    this.map = map;
    this.files = map.items;
  }

  // index of the last anchor at or before p, or -1
  private anchorAt(p: number): number {
    let lo = 0;
    let hi = this.anchors.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.anchors[mid].at <= p) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  private isAnchor(p: number): boolean {
    const k = this.anchorAt(p);
    return k >= 0 && this.anchors[k].at === p;
  }

  // the input messages [from, to) that position p stands for now
  private input(p: number): { from: number; to: number } {
    const k = this.anchorAt(p);
    if (k < 0) return { from: p, to: p + 1 };
    const a = this.anchors[k];
    if (a.at === p) return { from: a.from, to: a.to };
    const q = a.to + (p - a.at - 1);
    return { from: q, to: q + 1 };
  }

  // the items of input message q (messages appended since the start hold one each)
  private span(q: number): ItemSpan {
    const n = this.map.spans.length;
    if (q < n) return this.map.spans[q];
    const item = this.files + (q - n);
    return { first: item, last: item };
  }

  // How many items position p adds to the messages before it: an anchor (a summary) one, an input
  // message the items it starts after its input predecessor, or all of its items after a summary.
  private weight(p: number): number {
    if (this.isAnchor(p)) return 1;
    const q = this.input(p).from;
    const s = this.span(q);
    return p > 0 && !this.isAnchor(p - 1) ? s.last - this.span(q - 1).last : s.last - s.first + 1;
  }

  /** How many items a conversation of `length` messages holds now (the input's, changed by the splices, plus appended ones). */
  items(length: number): number {
    const appended = length - this.map.spans.length + this.shrink;
    return this.files + appended + this.itemDelta;
  }

  /**
   * How many of the last messages of a conversation of `length` messages make up its last
   * `window` items: the retention window in messages. O(that many). When the window covers the
   * whole conversation it stays at least `window` (the kernel's window is >= 1, even when empty).
   */
  window(length: number, window: number): number {
    let k = 0;
    let covered = 0;
    while (k < length && covered < window) {
      covered += this.weight(length - 1 - k);
      k++;
    }
    return k === length ? Math.max(length, window) : k;
  }

  /** The input items that the stretch [start, end) of the conversation now covers or cuts into. */
  range(start: number, end: number): InputRange {
    return { first: this.span(this.input(start).from).first, last: this.span(this.input(end - 1).to - 1).last };
  }

  // the items positions [start, end) add: one per anchor, and per run of input messages between
  // anchors the items from its first message's (or after its predecessor's) to its last's
  private weightIn(start: number, end: number): number {
    let sum = 0;
    let k = this.anchorAt(start);
    let p = start;
    while (p < end) {
      while (k + 1 < this.anchors.length && this.anchors[k + 1].at <= p) k++;
      if (k >= 0 && this.anchors[k].at === p) {
        sum += 1;
        p++;
        continue;
      }
      const stop = Math.min(end, k + 1 < this.anchors.length ? this.anchors[k + 1].at : end);
      const q = this.input(p).from;
      const after = p > 0 && !(k >= 0 && this.anchors[k].at === p - 1);
      const before = after ? this.span(q - 1).last : this.span(q).first - 1;
      sum += this.span(q + (stop - p) - 1).last - before;
      p = stop;
    }
    return sum;
  }

  /** Records that [start, end) was replaced by one summary; returns the range it replaced. */
  splice(start: number, end: number): InputRange {
    const from = this.input(start).from;
    const to = this.input(end - 1).to;
    // the summary is one item; the message after the stretch, if it continued an item the stretch
    // cut into, now starts one (what remains of that item)
    let delta = 1 - this.weightIn(start, end);
    if (!this.isAnchor(end) && !this.isAnchor(end - 1)) delta += this.span(to - 1).last - this.span(to).first + 1;
    const lo = this.anchorAt(start - 1) + 1; // first anchor at or after start
    let hi = lo;
    while (hi < this.anchors.length && this.anchors[hi].at < end) hi++;
    const shift = end - start - 1;
    for (let k = hi; k < this.anchors.length; k++) this.anchors[k].at -= shift;
    this.anchors.splice(lo, hi - lo, { at: start, from, to });
    this.shrink += shift;
    this.itemDelta += delta;
    return { first: this.span(from).first, last: this.span(to - 1).last };
  }
}
