// Token counting: a real BPE tokenizer (gpt-tokenizer, o200k_base, shipped offline in the
// package) by default, and a character heuristic for when it cannot be loaded or is unwanted.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { messageText, type Message } from "./message.ts";

/** Counts the tokens of a text. */
export interface TokenCounter {
  readonly name: "bpe" | "chars";
  count(text: string): number;
}

// Special-token strings like "<|endoftext|>" inside a transcript are ordinary text to us;
// gpt-tokenizer throws on them by default.
const asPlainText = { disallowedSpecial: new Set<string>() };

// One shared, frozen instance: messageTokens recognizes it and counts a message's length without
// building its text (for an assistant with tool calls, messageText joins a new string).
const CHARS: TokenCounter = Object.freeze({ name: "chars", count: (text: string) => Math.ceil(text.length / 4) });

/** The character heuristic: ceil(chars / 4). */
export function charCounter(): TokenCounter {
  return CHARS;
}

/**
 * The longest run of non-whitespace (or of whitespace) characters that the BPE counter hands to
 * the tokenizer whole. BPE merges one pre-token of n characters in about n^1.8 time, and the
 * o200k pre-tokenizer leaves a run of letters (DNA, "aaaa" fill, glued identifiers, CJK prose),
 * of punctuation or emoji ("-----"), or of whitespace as one pre-token; only digits and mixed
 * classes are split by it. Cutting such runs into pieces of at most this many UTF-16 units makes
 * the cost per character bounded, so counting is linear in the text length.
 */
export const BPE_MAX_RUN = 500;

/** Whether a UTF-16 unit is whitespace as the regex class \s sees it (all such characters are in the BMP). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029
    || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether a cut at `i` would split a surrogate pair (the piece counts would then see lone halves). */
function splitsPair(text: string, i: number): boolean {
  const lo = text.charCodeAt(i);
  const hi = text.charCodeAt(i - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
}

/**
 * Splits a text into pieces to count separately: every run of more than BPE_MAX_RUN characters
 * without whitespace (or of only whitespace) is cut every BPE_MAX_RUN characters (one earlier
 * where that would split a surrogate pair); the rest of the text is left whole. Depends on the
 * text only, so counts stay deterministic.
 */
export function bpePieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0; // start of the piece not yet emitted
  // One pass over the maximal runs: a regex like /\S{501,}/ would rescan every shorter run from
  // each of its positions, which costs ~BPE_MAX_RUN steps per character on text of long words.
  for (let i = 0; i < text.length; ) {
    const space = isSpace(text.charCodeAt(i));
    let end = i + 1;
    while (end < text.length && isSpace(text.charCodeAt(end)) === space) end++;
    for (let cut = i + BPE_MAX_RUN; end - i > BPE_MAX_RUN && cut < end; cut += BPE_MAX_RUN) {
      if (splitsPair(text, cut)) cut--;
      pieces.push(text.slice(start, cut));
      start = cut;
    }
    i = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * The BPE counter (o200k_base); falls back to the character heuristic if it throws.
 *
 * Long unbroken runs are counted in pieces (see bpePieces) so that the cost stays linear in the
 * text length. A cut changes the count only where the tokenizer would have merged across it: on
 * text without a run longer than BPE_MAX_RUN the count is exact, and otherwise it is within
 * 2 tokens per cut of the exact count, i.e. at most 2 tokens per BPE_MAX_RUN characters of long
 * runs (0.4%); measured over letter, CJK, Devanagari, Arabic, emoji, punctuation, digit and
 * whitespace runs it was never below the exact count and at most 1.2 tokens per cut above it
 * (test/engine/tokens.test.ts checks the 2-per-cut bound).
 */
export function bpeCounter(): TokenCounter {
  const fallback = charCounter();
  return {
    name: "bpe",
    count(text) {
      try {
        let total = 0;
        for (const piece of bpePieces(text)) total += isAscii(piece) ? countAscii(piece) : countTokens(piece, asPlainText);
        return total;
      } catch {
        return fallback.count(text);
      }
    },
  };
}

// ---- ASCII fast path ----------------------------------------------------------------------
// BPE merges each pre-token on its own, so a text's count is the sum of its pre-tokens' counts.
// The tokenizer finds pre-tokens with a Unicode regex and then merges; on agent histories (code,
// logs, JSON, English: almost all ASCII) the regex alone is most of the time. For an ASCII text
// the scanner below finds the same pre-tokens by hand (o200k_base's split pattern, restricted to
// ASCII, in the comments) and a cache keeps the count of each short pre-token, so a repeated
// word costs one Map lookup. test/engine/bpe-fast.test.ts checks that the counts are identical
// to the tokenizer's on generated ASCII and on a corpus of text, code, JSON and hashes.

/** Whether every UTF-16 unit of the text is ASCII. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

// character classes of the split pattern, on ASCII: L (letters: upper and lower), N (digits), \s
const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
const SPACE = 8; // \s: \t \n \v \f \r and space
const NEWLINE = 16; // \r \n
const OTHER = 32; // none of the above: punctuation, symbols, control characters
const CLASS: Uint8Array = (() => {
  const t = new Uint8Array(128).fill(OTHER);
  for (let c = 0x41; c <= 0x5a; c++) t[c] = UPPER;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = LOWER;
  for (let c = 0x30; c <= 0x39; c++) t[c] = DIGIT;
  for (const c of [0x09, 0x0b, 0x0c, 0x20]) t[c] = SPACE;
  t[0x0a] = SPACE | NEWLINE;
  t[0x0d] = SPACE | NEWLINE;
  return t;
})();
const cls = (text: string, i: number): number => (i < text.length ? CLASS[text.charCodeAt(i)] : 0);

/** End of the optional contraction suffix '(s|d|m|t|ll|ve|re), case-insensitive, at i. */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  const a = text.charCodeAt(i + 1) | 0x20; // lower-cased (NaN | 0x20 is 0x20: no match)
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return i + 2;
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return i + 3;
  return i;
}

/** End of the pre-token that starts at i (i < text.length) of an ASCII text. */
function preTokenEnd(text: string, i: number): number {
  const c = cls(text, i);
  // [^\r\n\p{L}\p{N}]?[\p{Lu}..]*[\p{Ll}..]+(contraction)?  then  [^\r\n\p{L}\p{N}]?[\p{Lu}..]+[\p{Ll}..]*(contraction)?
  // (an optional prefix that is not a letter, digit or newline, then letters: with uppercase then
  // lowercase, a run of uppers is followed by the lowers after it)
  let j = c & (UPPER | LOWER | DIGIT | NEWLINE) ? i : i + 1;
  if (cls(text, j) & (UPPER | LOWER)) {
    while (cls(text, j) & UPPER) j++;
    while (cls(text, j) & LOWER) j++;
    return contractionEnd(text, j);
  }
  // \p{N}{1,3}
  if (c & DIGIT) {
    j = i + 1;
    while (j < i + 3 && cls(text, j) & DIGIT) j++;
    return j;
  }
  //  ?[^\s\p{L}\p{N}]+[\r\n/]*
  j = text.charCodeAt(i) === 0x20 ? i + 1 : i;
  if (cls(text, j) & OTHER) {
    while (cls(text, j) & OTHER) j++;
    while (j < text.length && (cls(text, j) & NEWLINE || text.charCodeAt(j) === 0x2f)) j++;
    return j;
  }
  // what is left starts a whitespace run [i, end)
  let end = i;
  let lastNewline = -1;
  while (cls(text, end) & SPACE) {
    if (cls(text, end) & NEWLINE) lastNewline = end;
    end++;
  }
  // \s*[\r\n]+ : through the run's last newline
  if (lastNewline >= 0) return lastNewline + 1;
  // \s+(?!\S) : the whole run at the end of the text, else all of it but its last character
  if (end === text.length) return end;
  if (end - i >= 2) return end - 1;
  // \s+
  return end;
}

/** Pre-tokens longer than this are counted each time, not cached (hashes, long identifiers). */
const CACHED_PRE_TOKEN = 24;
/** The cache is emptied when it reaches this many pre-tokens (a bound on its memory). */
const CACHE_ENTRIES = 200_000;
const preTokenCounts = new Map<string, number>();

/** The o200k_base count of an ASCII text: the sum of its pre-tokens' counts. */
function countAscii(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length;) {
    const end = preTokenEnd(text, i);
    const piece = text.slice(i, end);
    i = end;
    if (piece.length > CACHED_PRE_TOKEN) {
      total += countTokens(piece, asPlainText);
      continue;
    }
    let n = preTokenCounts.get(piece);
    if (n === undefined) {
      n = countTokens(piece, asPlainText);
      if (preTokenCounts.size >= CACHE_ENTRIES) preTokenCounts.clear();
      preTokenCounts.set(piece, n);
    }
    total += n;
  }
  return total;
}

/** The counter a configuration names. */
export function tokenCounter(kind: "bpe" | "chars"): TokenCounter {
  return kind === "bpe" ? bpeCounter() : charCounter();
}

/** Per-message framing cost (role markers), as in OpenAI's chat token accounting. */
export const MESSAGE_OVERHEAD = 4;

/** The length of messageText(m), without building it. */
export function messageTextLength(m: Message): number {
  if (m.role !== "assistant" || m.toolCalls.length === 0) return m.content.length;
  const calls = m.toolCalls;
  // each call is `name(arguments)`, joined by newlines, after the content and a newline if any
  let len = m.content === "" ? calls.length - 1 : m.content.length + calls.length;
  for (let i = 0; i < calls.length; i++) len += calls[i].name.length + calls[i].arguments.length + 2;
  return len;
}

/** Tokens of one message: its text plus the framing overhead. */
export function messageTokens(counter: TokenCounter, m: Message): number {
  if (counter === CHARS) return Math.ceil(messageTextLength(m) / 4) + MESSAGE_OVERHEAD;
  return counter.count(messageText(m)) + MESSAGE_OVERHEAD;
}
