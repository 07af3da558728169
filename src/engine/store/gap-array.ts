// A sequence stored with a gap at its last edit point (a gap buffer), and read-only array views
// of such sequences for the kernel. A compaction run splices stretch after stretch, each just past
// the one before: in a plain array every splice moves the whole tail (O(n) a step, O(n^2) a run);
// here a splice costs the distance from the previous one plus the stretch's length, so a forward
// run moves every element at most once in all.

/**
 * A sequence whose buffer holds [prefix][gap][suffix]: logical index i < gapStart is buf[i], the
 * others sit gapEnd - gapStart further on. Appends go after the suffix; a splice moves the gap to
 * its end first, then widens it over the replaced entries.
 */
export class GapArray<T> {
  // entries inside the gap are undefined (so replaced messages can be collected): only at()
  // reads the buffer, and it never reads inside the gap
  private readonly buf: (T | undefined)[];
  private gapStart: number;
  private gapEnd: number;
  private viewCache: readonly T[] | undefined;

  /** Takes `items` as its buffer (no copy: the caller gives it up). */
  constructor(items: T[]) {
    this.buf = items;
    this.gapStart = items.length;
    this.gapEnd = items.length;
  }

  /** Number of entries. */
  get length(): number {
    return this.buf.length - (this.gapEnd - this.gapStart);
  }

  /** Entry i (0 <= i < length). */
  at(i: number): T {
    return (i < this.gapStart ? this.buf[i] : this.buf[i + this.gapEnd - this.gapStart]) as T;
  }

  /** Sets entry i (0 <= i < length). */
  set(i: number, x: T): void {
    if (i < this.gapStart) this.buf[i] = x;
    else this.buf[i + this.gapEnd - this.gapStart] = x;
  }

  /** Appends x in O(1) amortized. */
  push(x: T): void {
    if (this.gapEnd === this.buf.length) {
      // the gap is at the end: fill it
      if (this.gapStart < this.gapEnd) this.buf[this.gapStart] = x;
      else {
        this.buf.push(x);
        this.gapEnd++;
      }
      this.gapStart++;
    } else this.buf.push(x);
  }

  /** Moves the gap so that it starts at logical index p, moving |p - gapStart| entries. */
  private moveGap(p: number): void {
    const width = this.gapEnd - this.gapStart;
    if (width === 0) {
      // no gap yet: nothing moves (and clearing a moved entry would clear the entry itself)
      this.gapStart = p;
      this.gapEnd = p;
      return;
    }
    if (p < this.gapStart) {
      // entries [p, gapStart) go to the far side of the gap; top down, since they move up
      for (let i = this.gapStart - 1; i >= p; i--) {
        this.buf[i + width] = this.buf[i];
        this.buf[i] = undefined;
      }
    } else {
      // the first p - gapStart entries after the gap come to its near side; bottom up
      for (let i = this.gapStart; i < p; i++) {
        this.buf[i] = this.buf[i + width];
        this.buf[i + width] = undefined;
      }
    }
    this.gapStart = p;
    this.gapEnd = p + width;
  }

  /**
   * Replaces entries [start, end) by x (0 <= start < end <= length: the caller checks): the
   * sequence becomes xs[..start] ++ [x] ++ xs[end..]. Costs |end - previous gap| + (end - start).
   */
  replace(start: number, end: number, x: T): void {
    this.moveGap(end);
    for (let i = start; i < end; i++) this.buf[i] = undefined;
    this.buf[start] = x;
    this.gapStart = start + 1;
  }

  /** Entries [from, to) as a plain array (0 <= from, to <= length), copied by the engine's native slices. */
  slice(from = 0, to = this.length): T[] {
    if (to <= from) return [];
    const width = this.gapEnd - this.gapStart;
    // no entry inside the gap is copied, so none is undefined
    const near = (from < this.gapStart ? this.buf.slice(from, Math.min(to, this.gapStart)) : []) as T[];
    if (to <= this.gapStart) return near;
    const far = this.buf.slice(Math.max(from, this.gapStart) + width, to + width) as T[];
    return near.length === 0 ? far : near.concat(far);
  }

  /**
   * The entries as one plain array, without allocating: closes the gap (moving the entries after
   * it down, O(length - gap)) and hands out the buffer itself. Read-only, and valid only until the
   * next change: for a synchronous reader of every entry.
   */
  flat(): readonly T[] {
    this.moveGap(this.length);
    this.buf.length = this.gapStart;
    this.gapEnd = this.gapStart;
    return this.buf as T[];
  }

  /** A read-only array showing this sequence as it is at each read (one per GapArray). */
  view(): readonly T[] {
    if (this.viewCache === undefined) this.viewCache = arrayView(this);
    return this.viewCache;
  }
}

/** What an array view reads: a length and an entry at each index below it. */
export interface Indexed<T> {
  readonly length: number;
  at(i: number): T;
}

// the index a property key names, or -1 (canonical non-negative integer strings only, as arrays do)
function indexOf(key: string | symbol): number {
  if (typeof key !== "string") return -1;
  const i = +key;
  return Number.isSafeInteger(i) && i >= 0 && String(i) === key ? i : -1;
}

/**
 * A read-only array whose entries are read from `src` at each access: `length`, indexing, `in`,
 * iteration, Object.keys and Array.prototype's reading methods see src's current entries; writes
 * fail. The kernel's functions read only `length` and `xs[i]`, so handing them such a view gives
 * them the very sequence src holds, without copying it at every step.
 */
export function arrayView<T>(src: Indexed<T>): readonly T[] {
  const target: T[] = [];
  const view = new Proxy(target, {
    get(t, key, receiver) {
      if (key === "length") return src.length;
      const i = indexOf(key);
      if (i >= 0) return i < src.length ? src.at(i) : undefined;
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      const i = indexOf(key);
      return i >= 0 ? i < src.length : Reflect.has(t, key);
    },
    ownKeys() {
      const keys: string[] = [];
      for (let i = 0; i < src.length; i++) keys.push(String(i));
      keys.push("length");
      return keys;
    },
    getOwnPropertyDescriptor(t, key) {
      if (key === "length") return { value: src.length, writable: true, enumerable: false, configurable: false };
      const i = indexOf(key);
      if (i >= 0 && i < src.length) return { value: src.at(i), writable: false, enumerable: true, configurable: true };
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  sources.set(view, src);
  return view;
}

// each array view's source, so that a reader of every entry can copy it at plain-array speed
const sources = new WeakMap<object, Indexed<unknown>>();

/**
 * The same sequence as a plain array, for checks and kernel calls that read every entry (through
 * an array view each read costs a property trap): xs itself if it is not an array view; a view's
 * gap buffer flattened in place (GapArray.flat: no allocation, valid until its next change); a
 * copy of any other view's entries.
 */
export function plainArray<T>(xs: readonly T[]): readonly T[] {
  const src = sources.get(xs) as Indexed<T> | undefined;
  if (src === undefined) return xs;
  if (src instanceof GapArray) return src.flat();
  const out = new Array<T>(src.length);
  for (let i = 0; i < out.length; i++) out[i] = src.at(i);
  return out;
}

/**
 * Entries [from, to) of xs (each bound clamped to [0, xs.length]: unlike Array.prototype.slice,
 * a negative bound is 0, not counted from the end) as a plain array: an array view's entries are read from its source directly, not through a property trap
 * each. For a kernel call that reads a stretch of a long view: it copies the stretch only, and
 * the gate and the kernel then read a plain array instead of calling back into the store.
 */
export function plainSlice<T>(xs: readonly T[], from: number, to: number): T[] {
  const src = sources.get(xs) as Indexed<T> | undefined;
  const a = Math.max(0, from);
  if (src === undefined) return xs.slice(a, Math.max(0, to));
  const out = new Array<T>(Math.max(0, Math.min(to, src.length) - a));
  for (let i = 0; i < out.length; i++) out[i] = src.at(a + i);
  return out;
}

/**
 * A GapArray of numbers kept in a Float64Array (which grows by doubling; it holds any safe
 * integer): the store's views hold several numbers per message, and plain arrays of a million
 * numbers cost more to fill, and the collector more to scan, than typed ones (a 1M-message load
 * went from 525-590 to 410-470 ns per message, the best of ten runs each, one process per
 * variant, back to back). The same layout and costs as GapArray.
 */
export class NumberGapArray implements Indexed<number> {
  private buf: Float64Array;
  /** entries of buf in use: [prefix][gap][suffix] is buf[0, used) */
  private used: number;
  private gapStart: number;
  private gapEnd: number;
  private viewCache: readonly number[] | undefined;

  /** n entries, all 0 until set. */
  constructor(n = 0) {
    this.buf = new Float64Array(Math.max(n, 16));
    this.used = n;
    this.gapStart = n;
    this.gapEnd = n;
  }

  /** The entries of `buf`, which it takes as its buffer (no copy: the caller gives it up). */
  static adopt(buf: Float64Array): NumberGapArray {
    const a = new NumberGapArray(0);
    a.buf = buf.length > 0 ? buf : new Float64Array(16);
    a.used = buf.length;
    a.gapStart = buf.length;
    a.gapEnd = buf.length;
    return a;
  }
  /** Number of entries. */
  get length(): number {
    return this.used - (this.gapEnd - this.gapStart);
  }

  /** Entry i (0 <= i < length). */
  at(i: number): number {
    return i < this.gapStart ? this.buf[i] : this.buf[i + this.gapEnd - this.gapStart];
  }

  /** Sets entry i (0 <= i < length). */
  set(i: number, x: number): void {
    if (i < this.gapStart) this.buf[i] = x;
    else this.buf[i + this.gapEnd - this.gapStart] = x;
  }

  /** Appends x in O(1) amortized. */
  push(x: number): void {
    if (this.gapEnd === this.used && this.gapStart < this.gapEnd) {
      // the gap is at the end: fill it
      this.buf[this.gapStart++] = x;
      return;
    }
    if (this.used === this.buf.length) {
      const bigger = new Float64Array(2 * this.buf.length);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.used++] = x;
    if (this.gapEnd === this.used - 1 && this.gapStart === this.gapEnd) {
      // no gap: it stays empty at the end
      this.gapStart = this.used;
      this.gapEnd = this.used;
    }
  }

  /** Moves the gap so that it starts at logical index p, moving |p - gapStart| entries. */
  private moveGap(p: number): void {
    const width = this.gapEnd - this.gapStart;
    if (width > 0 && p < this.gapStart) this.buf.copyWithin(p + width, p, this.gapStart);
    else if (width > 0 && p > this.gapStart) this.buf.copyWithin(this.gapStart, this.gapEnd, p + width);
    this.gapStart = p;
    this.gapEnd = p + width;
  }

  /** Replaces entries [start, end) by x (0 <= start < end <= length: the caller checks), as GapArray.replace. */
  replace(start: number, end: number, x: number): void {
    this.moveGap(end);
    this.buf[start] = x;
    this.gapStart = start + 1;
  }

  /** Entries [from, to) as a plain array (clamped to the entries there are, as Array.prototype.slice). */
  slice(from = 0, to = this.length): number[] {
    to = Math.min(to, this.length);
    const out = new Array<number>(Math.max(0, to - from));
    for (let i = from; i < to; i++) out[i - from] = this.at(i);
    return out;
  }

  /** A read-only array showing this sequence as it is at each read (one per NumberGapArray). */
  view(): readonly number[] {
    if (this.viewCache === undefined) this.viewCache = arrayView(this);
    return this.viewCache;
  }
}
