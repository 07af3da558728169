// The summarizer model's limits as one call meets them: its context window (the prompt and the
// answer it may write together: summarizer_window) and its output cap (the most max_tokens one
// call may ask: summarizer_output_cap); null is "no limit known from that side". A call never
// asks more output than the cap, and a stretch whose prompt would not leave room for its answer
// in the window is sent with its excerpt cut to fit, by the kernel's truncation rule (L11,
// keepHeadLines / keepTailLines over the excerpt's per-line token counts): its head and its tail
// are kept, the middle is named as left out. Only the summarizer's input is cut: the stretch the
// summary replaces is the whole stretch, as planned, and the summary is validated against it.
//
// Why cut the input rather than summarize the stretch in several lawful parts: a stretch is the
// kernel's unit of replacement (L4-L6: one summary where it began), and the part that overflows a
// window is most often one atomic piece that no lawful cut can divide (a tool call with its huge
// result: L5 keeps them together), so parts alone could not bound every request; parts would also
// write several summaries where the plan counted one. The head and tail of a huge tool output are
// what a summary keeps of it anyway (the command, the error at the end), and the facts the summary
// must keep are listed in the prompt whole, never cut.
import type { Config } from "../../model/config.ts";
import type { TokenCounter } from "../../model/tokens.ts";
import { gateKeepLines } from "../boundary/kernel-gate.ts";

/** The summarizer model's limits (null: no limit known). */
export interface CallLimits {
  /** most tokens one call may hold, prompt and answer together */
  readonly window: number | null;
  /** most output tokens one call may ask */
  readonly outputCap: number | null;
}

/** The limits a configuration sets for the summarizer's calls. */
export function callLimitsOf(c: Readonly<Config>): CallLimits {
  return { window: c.summarizer_window, outputCap: c.summarizer_output_cap };
}

/**
 * Tokens a request holds besides its prompt's text: the message framing the provider adds (a few
 * tokens per message and for priming the answer in OpenAI's and Anthropic's chat formats, a chat
 * template's headers on a local server), with room to spare for a tokenizer that splits the
 * joined prompt a little differently from its pieces.
 */
export const FRAMING_TOKENS = 32;

/** What a call may ask for an answer of at most `maxTokens` tokens: the output cap bounds it. */
export function askedOutput(maxTokens: number, limits: CallLimits): number {
  return limits.outputCap === null ? maxTokens : Math.min(maxTokens, limits.outputCap);
}

/** The most input tokens a call asking `asked` output tokens may send (no limit: Infinity). */
export function inputRoom(asked: number, limits: CallLimits): number {
  return limits.window === null ? Number.POSITIVE_INFINITY : limits.window - FRAMING_TOKENS - asked;
}

/** Longest run of characters counted as one line when an excerpt is cut (a minified file is one line). */
const PIECE_CHARS = 400;

/** The excerpt's lines, a line longer than PIECE_CHARS split into pieces of that length. */
function piecesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (line.length <= PIECE_CHARS) out.push(line);
    else for (let i = 0; i < line.length; i += PIECE_CHARS) out.push(line.slice(i, i + PIECE_CHARS));
  }
  return out;
}

/**
 * The excerpt cut to about `tokens` tokens (counted by `counter`, one token for each line break):
 * as many whole lines of its head as fit half the budget and of its tail as fit the rest
 * (the kernel's L11 rule), with one line between them naming what was left out. The text itself
 * when it fits.
 */
export function cutExcerpt(text: string, tokens: number, counter: TokenCounter): string {
  if (counter.count(text) <= tokens) return text;
  const lines = piecesOf(text);
  const costs = lines.map((l) => counter.count(l));
  const note = (left: number) =>
    `[... ${left} lines of this excerpt left out here: it was cut to fit the summarizer's context window ...]`;
  const budget = Math.max(0, tokens - counter.count(note(lines.length)) - 2);
  const head = gateKeepLines(costs, lines.length, Math.floor(budget / 2), "head");
  const rest = costs.slice(head);
  const tail = gateKeepLines(rest, rest.length, budget - headCost(costs, head), "tail");
  const left = lines.length - head - tail;
  return [...lines.slice(0, head), note(left), ...lines.slice(lines.length - tail)].join("\n");
}

/** Tokens of the first `k` lines joined by line breaks (one token each), as the kernel's joinedBytes counts them. */
function headCost(costs: readonly number[], k: number): number {
  let t = 0;
  for (let i = 0; i < k; i++) t += costs[i];
  return k === 0 ? 0 : t + (k - 1);
}
