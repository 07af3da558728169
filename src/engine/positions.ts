// Where each replaced stretch was in the input, in the file's own messages. Steps plan on the
// conversation as it is after earlier splices; the report speaks of the input the user gave.
// Each summary so far is kept as an anchor (its position now, the input range it stands for);
// a position after an anchor maps to the input by that anchor's offset. Steps move forward
// (kernel lemma ForwardProgress), so a new anchor lands at the end of the list: O(log k) a step.
import { fileIndexes } from "./file-messages.ts";
import type { Message } from "./message.ts";

/** A stretch in the input's own messages: 0-based positions of its first and last file message. */
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

/** Maps positions in a conversation being compacted back to its input's file messages. */
export class InputPositions {
  private readonly fileOf: Int32Array;
  /** how many file messages the input holds */
  readonly files: number;
  private readonly anchors: Anchor[] = [];

  constructor(input: readonly Message[]) {
    const f = fileIndexes(input);
    this.fileOf = f.of;
    this.files = f.count;
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

  // the input messages [from, to) that position p stands for now
  private input(p: number): { from: number; to: number } {
    const k = this.anchorAt(p);
    if (k < 0) return { from: p, to: p + 1 };
    const a = this.anchors[k];
    if (a.at === p) return { from: a.from, to: a.to };
    const q = a.to + (p - a.at - 1);
    return { from: q, to: q + 1 };
  }

  // file message of input message q (messages appended since the start count one each)
  private file(q: number): number {
    if (q >= this.fileOf.length) return this.files + (q - this.fileOf.length);
    return Math.max(0, this.fileOf[q]);
  }

  /** The input file messages that the stretch [start, end) of the conversation now covers or cuts into. */
  range(start: number, end: number): InputRange {
    return { first: this.file(this.input(start).from), last: this.file(this.input(end - 1).to - 1) };
  }

  /** Records that [start, end) was replaced by one summary; returns the range it replaced. */
  splice(start: number, end: number): InputRange {
    const from = this.input(start).from;
    const to = this.input(end - 1).to;
    const lo = this.anchorAt(start - 1) + 1; // first anchor at or after start
    let hi = lo;
    while (hi < this.anchors.length && this.anchors[hi].at < end) hi++;
    const shift = end - start - 1;
    for (let k = hi; k < this.anchors.length; k++) this.anchors[k].at -= shift;
    this.anchors.splice(lo, hi - lo, { at: start, from, to });
    return { first: this.file(from), last: this.file(to - 1) };
  }
}
