// Exact o200k_base token counts by pre-token. BPE merges each pre-token on its own, so a text's
// count is the sum of its pre-tokens' counts: the text is split as the tokenizer splits it
// (o200k-split.ts), and each pre-token's count (or a whole stretch's, up to the next space) is
// looked up in a table of counts seen before, asking gpt-tokenizer only for one not in it. A word
// seen before thus costs a hash of its characters and no tokenizer call, and no substring is made.
import { Buffer } from "node:buffer";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { asciiPreTokenEnd, PAST_WINDOW, regexPreTokenEnd, SENTINEL, UNDECIDED } from "./o200k-split.ts";

// Special-token strings like "<|endoftext|>" inside a transcript are ordinary text to us;
// gpt-tokenizer throws on them by default.
const asPlainText = { disallowedSpecial: new Set<string>() };

/** gpt-tokenizer's count of one pre-token (or of any text). */
function tokenizerCount(text: string): number {
  return countTokens(text, asPlainText);
}

/** Pre-tokens longer than this are counted each time, not kept (hashes, long identifiers). */
const CACHED_PRE_TOKEN = 24;

// ---- counts of ASCII pre-tokens ---------------------------------------------------------------
// Keyed by the characters themselves, four to a 32-bit word (at most six words), so equal length
// and equal words is equal text: no string is kept or compared. A slot is eight words: the six
// key words, then length | count << 8 (0: empty). Emptied when half full, which bounds it to
// 2^16 pre-tokens (4 MB).
const ASCII_SLOTS = 1 << 17;
const WORDS = CACHED_PRE_TOKEN / 4;
const STRIDE = 8;
const META = WORDS; // offset of length | count << 8 in a slot
const ascii = new Int32Array(ASCII_SLOTS * STRIDE);
const key = new Int32Array(WORDS);
let asciiUsed = 0;
// Masks keeping the first `length` characters of a word: a character is < 128 and fills its own
// byte only, and a unit past the pre-token (any value) fills bytes from its own on, which the
// mask clears, so a word may be read whole past the pre-token's end.
const LOW_WORD_MASK = new Int32Array([0, 0xff, 0xffff, 0xffffff, -1, -1, -1, -1, -1]);
const HIGH_WORD_MASK = new Int32Array([0, 0, 0, 0, 0, 0xff, 0xffff, 0xffffff, -1]);

/** The four units from `i` as one word (the caller masks off those past the pre-token). */
function word(units: Uint16Array, i: number): number {
  return units[i] | (units[i + 1] << 8) | (units[i + 2] << 16) | (units[i + 3] << 24);
}

/**
 * The count of the ASCII pre-token units[start, end), which is text[base + start, base + end).
 * Most pre-tokens are at most 8 characters: two words, read and compared without a loop.
 */
function asciiPreTokenCount(units: Uint16Array, start: number, end: number, text: string, base: number): number {
  const length = end - start;
  if (length > 8) return longAsciiPreTokenCount(units, start, end, text, base);
  const w0 = word(units, start) & LOW_WORD_MASK[length];
  const w1 = word(units, start + 4) & HIGH_WORD_MASK[length];
  let h = Math.imul(w0 ^ Math.imul(w1 ^ length, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 16;
  let slot = (h & (ASCII_SLOTS - 1)) * STRIDE;
  for (let meta = ascii[slot + META]; meta !== 0; meta = ascii[slot + META]) {
    if ((meta & 0xff) === length && ascii[slot] === w0 && ascii[slot + 1] === w1) return meta >>> 8;
    slot = (slot + STRIDE) & (ASCII_SLOTS * STRIDE - 1);
  }
  key[0] = w0;
  key[1] = w1;
  return addAsciiCount(text.slice(base + start, base + end), 2, h);
}

/** asciiPreTokenCount for a pre-token of more than 8 characters. */
function longAsciiPreTokenCount(units: Uint16Array, start: number, end: number, text: string, base: number): number {
  const length = end - start;
  if (length > CACHED_PRE_TOKEN) return tokenizerCount(text.slice(base + start, base + end));
  let h = length;
  let words = 0;
  for (let i = start; i < end; i += 4) {
    const w = word(units, i) & LOW_WORD_MASK[Math.min(4, end - i)];
    key[words++] = w;
    h = Math.imul(h ^ w, 0x9e3779b1);
  }
  h ^= h >>> 16;
  let slot = (h & (ASCII_SLOTS - 1)) * STRIDE;
  for (let meta = ascii[slot + META]; meta !== 0; meta = ascii[slot + META]) {
    if ((meta & 0xff) === length && sameKey(slot, words)) return meta >>> 8;
    slot = (slot + STRIDE) & (ASCII_SLOTS * STRIDE - 1);
  }
  return addAsciiCount(text.slice(base + start, base + end), words, h);
}

function sameKey(slot: number, words: number): boolean {
  for (let k = 0; k < words; k++) if (ascii[slot + k] !== key[k]) return false;
  return true;
}

/** Counts a pre-token not in the table and keeps its count under `key` (of `words` words). */
function addAsciiCount(piece: string, words: number, h: number): number {
  const count = tokenizerCount(piece);
  if (asciiUsed >= ASCII_SLOTS >> 1) {
    ascii.fill(0);
    asciiUsed = 0;
  }
  let slot = (h & (ASCII_SLOTS - 1)) * STRIDE;
  while (ascii[slot + META] !== 0) slot = (slot + STRIDE) & (ASCII_SLOTS * STRIDE - 1);
  for (let k = 0; k < WORDS; k++) ascii[slot + k] = k < words ? key[k] : 0;
  ascii[slot + META] = piece.length | (count << 8);
  asciiUsed++;
  return count;
}

// ---- counts of other pre-tokens -----------------------------------------------------------------
// Keyed by a hash of the UTF-16 units, confirmed against the kept string. Emptied when half full
// (at most 2^15 pre-tokens).
const SLOTS = 1 << 16;
const slotHash = new Int32Array(SLOTS);
const slotCount = new Int32Array(SLOTS); // 0: empty (every pre-token has at least one token)
const slotKey: string[] = new Array<string>(SLOTS).fill("");
let used = 0;

function sameText(key: string, text: string, start: number, end: number): boolean {
  if (key.length !== end - start) return false;
  for (let k = 0; k < key.length; k++) if (key.charCodeAt(k) !== text.charCodeAt(start + k)) return false;
  return true;
}

/** The count of the pre-token text[start, end). */
function preTokenCount(text: string, start: number, end: number): number {
  if (end - start > CACHED_PRE_TOKEN) return tokenizerCount(text.slice(start, end));
  let h = 0x811c9dc5 | 0; // FNV-1a
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  let p = h & (SLOTS - 1);
  while (slotCount[p] !== 0) {
    if (slotHash[p] === h && sameText(slotKey[p], text, start, end)) return slotCount[p];
    p = (p + 1) & (SLOTS - 1);
  }
  const piece = text.slice(start, end);
  const n = tokenizerCount(piece);
  if (used >= SLOTS >> 1) {
    slotCount.fill(0);
    used = 0;
    p = h & (SLOTS - 1);
  }
  slotHash[p] = h;
  slotCount[p] = n;
  slotKey[p] = piece;
  used++;
  return n;
}

// ---- counts of stretches between spaces --------------------------------------------------------
// A space after a non-whitespace character always starts a pre-token: no alternative of the
// pattern takes a space after it has taken anything but whitespace (letters, digits, marks, a
// contraction, punctuation with line breaks and slashes after it; the whitespace alternatives take
// nothing else). So the text from a pre-token's start to the next such space (or to the text's
// end) is a whole number of pre-tokens, split there as it would be alone, and its count depends on
// its characters only: " src/engine/run/plan.ts" or "value," is looked up once instead of once per
// pre-token. ASCII stretches of up to STRETCH characters are kept, keyed like the ASCII table.
const STRETCH = 32;
const STRETCH_WORDS = STRETCH / 4;
const STRETCH_STRIDE = STRETCH_WORDS + 1; // the key words, then length | count << 8 (0: empty)
const STRETCH_SLOTS = 1 << 16;
const stretches = new Int32Array(STRETCH_SLOTS * STRETCH_STRIDE);
const stretchKey = new Int32Array(STRETCH_WORDS);
let stretchWords = 0;
let stretchHash = 0;
let stretchesUsed = 0;

/**
 * The end of the stretch from `start` (a pre-token's start) to the next space after a
 * non-whitespace character in units[0, n), or to n if the text ends there; -1 if it is not all
 * ASCII, is longer than STRETCH, or may go on past the window.
 */
function stretchEnd(units: Uint16Array, start: number, n: number, last: boolean): number {
  if (units[start] >= 128) return -1;
  for (let c = start + 1; c <= start + STRETCH; c++) {
    const u = units[c];
    if (u === 32) {
      const before = units[c - 1];
      if (before !== 32 && (before > 13 || before < 9)) return c; // not \s (all ASCII so far)
    } else if (u >= 128) return c === n && last ? c : -1;
  }
  return -1;
}

/** The kept count of the stretch units[start, end), or -1 (its key is then left for addStretch). */
function knownStretch(units: Uint16Array, start: number, end: number): number {
  const length = end - start;
  let h = length;
  let words = 0;
  for (let i = start; i < end; i += 4) {
    const w = word(units, i) & LOW_WORD_MASK[Math.min(4, end - i)];
    stretchKey[words++] = w;
    h = Math.imul(h ^ w, 0x9e3779b1);
  }
  h ^= h >>> 16;
  let slot = (h & (STRETCH_SLOTS - 1)) * STRETCH_STRIDE;
  for (let meta = stretches[slot + STRETCH_WORDS]; meta !== 0; meta = stretches[slot + STRETCH_WORDS]) {
    if ((meta & 0xff) === length && sameStretch(slot, words)) return meta >>> 8;
    slot += STRETCH_STRIDE;
    if (slot === STRETCH_SLOTS * STRETCH_STRIDE) slot = 0;
  }
  stretchWords = words;
  stretchHash = h;
  return -1;
}

function sameStretch(slot: number, words: number): boolean {
  for (let k = 0; k < words; k++) if (stretches[slot + k] !== stretchKey[k]) return false;
  return true;
}

/** Keeps the count of the stretch of `length` characters that knownStretch last missed. */
function addStretch(length: number, count: number): void {
  if (stretchesUsed >= STRETCH_SLOTS >> 1) {
    stretches.fill(0);
    stretchesUsed = 0;
  }
  let slot = (stretchHash & (STRETCH_SLOTS - 1)) * STRETCH_STRIDE;
  while (stretches[slot + STRETCH_WORDS] !== 0) {
    slot += STRETCH_STRIDE;
    if (slot === STRETCH_SLOTS * STRETCH_STRIDE) slot = 0;
  }
  for (let k = 0; k < STRETCH_WORDS; k++) stretches[slot + k] = k < stretchWords ? stretchKey[k] : 0;
  stretches[slot + STRETCH_WORDS] = length | (count << 8);
  stretchesUsed++;
}

// ---- the count ------------------------------------------------------------------------------------
// The text is read in windows of WINDOW units, each copied (natively, in one call) into `units`
// with SENTINEL after it; the scanner reads the typed array, which is faster than charCodeAt on
// the strings the engine holds (often slices or concatenations of others).
const WINDOW = 1 << 14;
const units = new Uint16Array(WINDOW + 8); // + 8: words are read whole past a pre-token's end
const unitBytes = Buffer.from(units.buffer);

/**
 * The exact o200k_base token count of a text: the sum of its pre-tokens' counts. `window` (at
 * most WINDOW) is the number of units read at a time, and `ends`, if given, receives the end of
 * every pre-token (the stretch table, which skips them, is then left aside): tests pass small
 * windows, so that pre-tokens of every kind straddle a window's end, and compare the ends with
 * the tokenizer's split.
 */
export function countO200k(text: string, window = WINDOW, ends?: number[]): number {
  let total = 0;
  for (let base = 0; base < text.length; ) {
    const n = Math.min(window, WINDOW, text.length - base);
    const last = base + n === text.length;
    unitBytes.write(n === text.length ? text : text.slice(base, base + n), 0, "utf16le");
    units[n] = SENTINEL;
    let start = 0;
    // the stretch being counted pre-token by pre-token, to keep its count once its end is reached
    let stretchStart = -1;
    let stretchTo = -1;
    let stretchTotal = 0;
    while (start < n) {
      if (stretchTo >= 0 && start >= stretchTo) {
        if (start === stretchTo) addStretch(stretchTo - stretchStart, total - stretchTotal);
        stretchTo = -1;
      }
      if (stretchTo < 0 && ends === undefined) {
        const to = stretchEnd(units, start, n, last);
        if (to > 0) {
          const known = knownStretch(units, start, to);
          if (known >= 0) {
            total += known;
            start = to;
            continue;
          }
          stretchStart = start;
          stretchTo = to;
          stretchTotal = total;
        }
      }
      const end = asciiPreTokenEnd(units, start, n, last);
      if (end === PAST_WINDOW) break;
      if (end !== UNDECIDED) {
        total += asciiPreTokenCount(units, start, end, text, base);
        start = end;
      } else {
        const to = regexPreTokenEnd(text, base + start);
        total += preTokenCount(text, base + start, to);
        start = to - base; // may be past the window
      }
      ends?.push(base + start);
    }
    if (start === stretchTo) addStretch(stretchTo - stretchStart, total - stretchTotal);
    if (start === 0) {
      // one pre-token longer than the window (a long run of punctuation and line breaks)
      const to = regexPreTokenEnd(text, base);
      total += preTokenCount(text, base, to);
      start = to - base;
      ends?.push(to);
    }
    base += start;
  }
  return total;
}
