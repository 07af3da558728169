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

/** The character heuristic: ceil(chars / 4). */
export function charCounter(): TokenCounter {
  return { name: "chars", count: (text) => Math.ceil(text.length / 4) };
}

/** The BPE counter (o200k_base); falls back to the character heuristic if it throws. */
export function bpeCounter(): TokenCounter {
  const fallback = charCounter();
  return {
    name: "bpe",
    count(text) {
      try {
        return countTokens(text, asPlainText);
      } catch {
        return fallback.count(text);
      }
    },
  };
}

/** The counter a configuration names. */
export function tokenCounter(kind: "bpe" | "chars"): TokenCounter {
  return kind === "bpe" ? bpeCounter() : charCounter();
}

/** Per-message framing cost (role markers), as in OpenAI's chat token accounting. */
export const MESSAGE_OVERHEAD = 4;

/** Tokens of one message: its text plus the framing overhead. */
export function messageTokens(counter: TokenCounter, m: Message): number {
  return counter.count(messageText(m)) + MESSAGE_OVERHEAD;
}
