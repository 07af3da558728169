// o200k_base's pre-tokenization: where each pre-token of a text ends. BPE merges within a
// pre-token only, so a count is the sum of the pre-tokens' counts. The split is the tokenizer's
// regular expression; for ASCII, a scanner over the text's UTF-16 units (copied into a typed
// array) finds the same boundaries without the regex engine's match objects, and leaves every
// pre-token whose boundary depends on a non-ASCII character to the regex.

// o200k_base's pattern (the contraction group written without the inline (?i:) modifier, which
// V8 does not take), tried at one position only (sticky): every position starts a match, as every
// character is a letter, a digit, whitespace or none of these, so pre-tokens tile the text.
const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?";
const O200K_SPLIT = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join("|"),
  "uy",
);

/** The end of the o200k_base pre-token of `text` that starts at `start`, by the regex. */
export function regexPreTokenEnd(text: string, start: number): number {
  O200K_SPLIT.lastIndex = start;
  O200K_SPLIT.exec(text);
  return O200K_SPLIT.lastIndex;
}

// Classes of UTF-16 units as the pattern sees ASCII. OTHER is "none of letter, digit, \s":
// punctuation, symbols and the control characters outside \t..\r. Every unit from 128 up is
// NON_ASCII, and so is the sentinel that ends a window.
const NON_ASCII = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4; // " ": the only whitespace that may lead a punctuation run
const BREAK = 5; // \r, \n: whitespace that never leads a word
const BLANK = 6; // \t, \v, \f
const OTHER = 7;
const CLASS = (() => {
  const t = new Uint8Array(0x10000); // indexed by any unit, so no bounds test is needed
  t.fill(OTHER, 0, 128);
  t.fill(LOWER, 97, 123);
  t.fill(UPPER, 65, 91);
  t.fill(DIGIT, 48, 58);
  t[32] = SPACE;
  t[10] = BREAK;
  t[13] = BREAK;
  t[9] = BLANK;
  t[11] = BLANK;
  t[12] = BLANK;
  return t;
})();

/** The unit written after a window's last unit: NON_ASCII, so every scan stops there. */
export const SENTINEL = 0xffff;

/** Returned by the scanner when a non-ASCII character decides the boundary: ask the regex. */
export const UNDECIDED = -1;
/** Returned by the scanner when the boundary lies past the window's end: read a later window. */
export const PAST_WINDOW = -2;

/**
 * The end of the pre-token that starts at `start` in `units[0, n)` (a window of the text, with
 * SENTINEL at `units[n]`; `last` says whether the text ends at n), or UNDECIDED, or PAST_WINDOW.
 * A defined end is the regex's: the scanner follows its alternatives in order, on ASCII only.
 */
export function asciiPreTokenEnd(units: Uint16Array, start: number, n: number, last: boolean): number {
  const k = CLASS[units[start]];
  if (k === LOWER || k === UPPER) return wordEnd(units, start, n, last);
  if (k === DIGIT) return digitsEnd(units, start, n, last);
  if (k === NON_ASCII) return UNDECIDED;
  if (k !== BREAK) {
    // [^\r\n\p{L}\p{N}]? may lead a word; a space may lead punctuation
    const l = CLASS[units[start + 1]];
    if (l === LOWER || l === UPPER) return wordEnd(units, start + 1, n, last);
    if (l === NON_ASCII) return stopAt(start + 1, n, last);
    if (k === OTHER) return punctuationEnd(units, start + 1, n, last);
    if (k === SPACE && l === OTHER) return punctuationEnd(units, start + 2, n, last);
  }
  return whitespaceEnd(units, start, n, last);
}

/**
 * Where a scan that stopped at a NON_ASCII unit at `i` ends: at the text's end it ends there
 * (every alternative that is still matching ends at the end of the text), at the window's end it
 * is PAST_WINDOW, and at a non-ASCII character it is UNDECIDED.
 */
function stopAt(i: number, n: number, last: boolean): number {
  if (i !== n) return UNDECIDED;
  return last ? n : PAST_WINDOW;
}

/**
 * A word whose letters start at `i`: [\p{Lu}..]*[\p{Ll}..]+ or else [\p{Lu}..]+[\p{Ll}..]*
 * (on ASCII letters the uppercase run and then the lowercase run), then an optional contraction
 * ('s 'd 'm 't 'll 've 're in either case).
 */
function wordEnd(units: Uint16Array, i: number, n: number, last: boolean): number {
  let k = CLASS[units[i]];
  while (k === UPPER) k = CLASS[units[++i]];
  while (k === LOWER) k = CLASS[units[++i]];
  if (k === NON_ASCII) return stopAt(i, n, last);
  if (units[i] !== 39) return i; // no apostrophe
  // a contraction letter read at the window's end (the sentinel) may be in the next window
  if (i + 1 === n) return last ? i : PAST_WINDOW;
  const a = units[i + 1] | 0x20; // ASCII letters in lowercase (others stay non-letters)
  if (a === 115 || a === 100 || a === 109 || a === 116) return i + 2; // s d m t
  if (a !== 108 && a !== 118 && a !== 114) return i; // neither l, v nor r
  if (i + 2 === n) return last ? i : PAST_WINDOW;
  const b = units[i + 2] | 0x20;
  if ((a === 108 && b === 108) || (a !== 108 && b === 101)) return i + 3; // ll ve re
  return i;
}

/** \p{N}{1,3} from `start` (an ASCII digit); a non-ASCII unit after it may be a digit too. */
function digitsEnd(units: Uint16Array, start: number, n: number, last: boolean): number {
  let i = start + 1;
  for (let k = CLASS[units[i]]; i < start + 3 && k === DIGIT; k = CLASS[units[i]]) i++;
  if (i < start + 3 && CLASS[units[i]] === NON_ASCII) return stopAt(i, n, last);
  return i;
}

/** [^\s\p{L}\p{N}]+[\r\n/]* whose first OTHER unit is before `i`, the rest from `i` on. */
function punctuationEnd(units: Uint16Array, i: number, n: number, last: boolean): number {
  let k = CLASS[units[i]];
  while (k === OTHER) k = CLASS[units[++i]];
  if (k === NON_ASCII) return stopAt(i, n, last); // a non-ASCII symbol would continue the run
  for (let c = units[i]; c === 10 || c === 13 || c === 47; c = units[i]) i++;
  return i === n && !last ? PAST_WINDOW : i;
}

/** Whitespace from `start`: \s*[\r\n]+, else \s+(?!\S), else \s+. */
function whitespaceEnd(units: Uint16Array, start: number, n: number, last: boolean): number {
  let i = start;
  let lastBreak = -1;
  for (let k = CLASS[units[i]]; k === SPACE || k === BLANK || k === BREAK; k = CLASS[units[++i]])
    if (k === BREAK) lastBreak = i;
  // a non-ASCII unit may be whitespace too (no-break space, ideographic space, ...)
  if (CLASS[units[i]] === NON_ASCII) {
    const stop = stopAt(i, n, last);
    if (stop !== n) return stop;
  }
  // \s* backs off to the last line break, which [\r\n]+ then takes
  if (lastBreak >= 0) return lastBreak + 1;
  // \s+(?!\S) leaves the last whitespace character to lead the next pre-token
  if (i === n || i - start === 1) return i;
  return i - 1;
}
