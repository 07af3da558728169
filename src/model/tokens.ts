// Token counting: a real BPE tokenizer (gpt-tokenizer, o200k_base, shipped offline in the
// package) by default, and a character heuristic for when it cannot be loaded or is unwanted.
import { type Message, messageText } from "./message.ts";
import { countO200k } from "./o200k-count.ts";

/** Counts the tokens of a text. */
export interface TokenCounter {
  readonly name: "bpe" | "chars";
  count(text: string): number;
}

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
 * Whether the text may have a run that bpePieces cuts (more than BPE_MAX_RUN characters without
 * whitespace, or of only whitespace); false means bpePieces(text) is [text]. Such a run holds two
 * consecutive multiples of BPE_MAX_RUN / 2 and every character between them, so only the stretches
 * between consecutive sample points that start and end in the same class are read, each up to
 * its first change of class: on ordinary text a few characters per sample point.
 */
function mayHaveLongRun(text: string): boolean {
  const step = BPE_MAX_RUN >> 1;
  for (let p = 0; p + step < text.length; p += step) {
    const space = isSpace(text.charCodeAt(p));
    let i = p + 1;
    while (i <= p + step && isSpace(text.charCodeAt(i)) === space) i++;
    if (i > p + step) return true;
  }
  return false;
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
  return BPE;
}

// One shared, frozen instance, as CHARS: a session keeps its running counts per counter object
// (session-context.ts), so the counter a configuration names must be the same object at every step.
const BPE: TokenCounter = Object.freeze({
  name: "bpe",
  count(text: string) {
    try {
      if (!mayHaveLongRun(text)) return countO200k(text);
      let total = 0;
      for (const piece of bpePieces(text)) total += countO200k(piece);
      return total;
    } catch {
      return CHARS.count(text);
    }
  },
});

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

/** Tokens of one message: its text, the estimate of its other parts (mediaTokens) and the framing overhead. */
export function messageTokens(counter: TokenCounter, m: Message): number {
  const media = m.mediaTokens ?? 0;
  if (counter === CHARS) return Math.ceil(messageTextLength(m) / 4) + media + MESSAGE_OVERHEAD;
  return counter.count(messageText(m)) + media + MESSAGE_OVERHEAD;
}
