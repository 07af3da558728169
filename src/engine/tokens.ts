// Token counting: a real BPE tokenizer (gpt-tokenizer, o200k_base, shipped offline in the
// package) by default, and a character heuristic for when it cannot be loaded or is unwanted.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { type Message, messageText } from "./message.ts";

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
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
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
        for (const piece of bpePieces(text)) total += countByPreTokens(piece);
        return total;
      } catch {
        return fallback.count(text);
      }
    },
  };
}

// ---- counting by pre-token ----------------------------------------------------------------
// BPE merges each pre-token on its own, so a text's count is the sum of its pre-tokens' counts.
// gpt-tokenizer splits with o200k_base's pattern and then merges (or looks up) each pre-token;
// here the same split is followed by a lookup in a table of pre-token counts, so a word seen
// before costs a hash of its characters and no tokenizer call. The pattern is o200k_base's
// (the contraction group written without the inline (?i:) modifier, which V8 does not take);
// test/engine/bpe-fast.test.ts checks that counts are identical to the tokenizer's on generated
// text and on a corpus of text, code, JSON, hashes, CJK and emoji.
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
  "gu",
);

/** Pre-tokens longer than this are counted each time, not cached (hashes, long identifiers). */
const CACHED_PRE_TOKEN = 24;

/**
 * The counts of short pre-tokens seen so far: an open-addressing table keyed by a hash of the
 * characters, so a pre-token already seen is found without slicing it out of the text. Emptied
 * when half full (a bound on its memory: at most 2^17 pre-tokens).
 */
const SLOTS = 1 << 18;
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
  if (end - start > CACHED_PRE_TOKEN) return countTokens(text.slice(start, end), asPlainText);
  let h = 0x811c9dc5 | 0; // FNV-1a
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  let p = h & (SLOTS - 1);
  while (slotCount[p] !== 0) {
    if (slotHash[p] === h && sameText(slotKey[p], text, start, end)) return slotCount[p];
    p = (p + 1) & (SLOTS - 1);
  }
  const piece = text.slice(start, end);
  const n = countTokens(piece, asPlainText);
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

/** The o200k_base count of a text (one bpePieces piece): the sum of its pre-tokens' counts. */
function countByPreTokens(text: string): number {
  let total = 0;
  O200K_SPLIT.lastIndex = 0;
  for (let m = O200K_SPLIT.exec(text); m !== null; m = O200K_SPLIT.exec(text))
    total += preTokenCount(text, m.index, O200K_SPLIT.lastIndex);
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
