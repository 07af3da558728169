// The facts a summary must keep verbatim: file paths, identifiers and error messages found in
// the stretch, plus configured anchor phrases. Paths and identifiers are taken from what the
// agent itself wrote (assistant text, tool call names and arguments, earlier summaries), not
// from bulk tool output, which would make the list longer than any useful summary; error
// messages are taken from everywhere, tool output included.
import type { Message } from "../../model/message.ts";
import { assertMessages } from "../../model/message-shape.ts";
import type { TokenCounter } from "../../model/tokens.ts";

const URL = /\bhttps?:\/\/\S+/g;
const EXT =
  "ts|tsx|js|jsx|mjs|cjs|json|jsonl|py|rs|go|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift|md|txt|yml|yaml|toml|ini|cfg|sh|bash|css|scss|html|sql|xml|lock|env|log|csv|dfy|lean";
// a path with a directory part (absolute, ./, ../, ~/ or with an extension at the end), or a bare file name with a known extension
const PATH = new RegExp(
  String.raw`(?<![\w.@+/-])(?:(?:~|\.{1,2})?\/(?:[\w.@+-]+\/)*[\w.@+-]+|(?:[\w.@+-]+\/)+[\w@+-]+\.[A-Za-z0-9]+|\b[\w-]+\.(?:${EXT}))(?![\w/])`,
  "g",
);
const IDENT =
  /\b(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9])\b/g;
const ERROR =
  /\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|[Ee]rror|ERROR|FAIL(?:ED)?|[Pp]anic)(?:\[[^\]\n]*\]| [A-Z]+\d+)?:[^\n]*/g;
/** error lines are kept up to this many characters (a verbatim prefix of the line) */
export const MAX_ERROR_CHARS = 160;

function agentText(m: Message): string {
  if (m.role === "assistant") return [m.content, ...m.toolCalls.map((c) => `${c.name} ${c.arguments}`)].join("\n");
  if (m.role === "summary") return m.content;
  return "";
}

function matches(text: string, re: RegExp): string[] {
  return Array.from(text.matchAll(re), (m) => m[0]);
}

/** File paths mentioned in a text (URLs excluded). */
export function filePaths(text: string): string[] {
  return matches(text.replace(URL, " "), PATH).filter((p) => !/^\/+$/.test(p) && /[A-Za-z]/.test(p));
}

/** Code identifiers in a text: camelCase, PascalCase with two humps, snake_case, SCREAMING_CASE. */
export function identifiers(text: string): string[] {
  return matches(text.replace(URL, " ").replace(PATH, " "), IDENT);
}

/** Error messages in a text: from an error marker ("TypeError:", "error TS2304:") to the line end. */
export function errorMessages(text: string): string[] {
  return matches(text, ERROR)
    .map((e) => e.trimEnd().slice(0, MAX_ERROR_CHARS).trimEnd())
    .filter((e) => e.length > 0);
}

/** The facts a summary of `stretch` must contain verbatim, deduplicated, in first-seen order. */
export function requiredFacts(stretch: readonly Message[], anchors: readonly string[]): string[] {
  // a Set in first-seen order; added one by one (a spread of one message's facts into a call
  // overflows the stack past ~100k of them)
  const found = new Set<string>();
  const addAll = (xs: readonly string[]) => {
    for (const x of xs) found.add(x);
  };
  // a public utility: a hand-built stretch is checked like any other message list
  for (const m of assertMessages(stretch, "stretch")) {
    const own = agentText(m);
    addAll(filePaths(own));
    addAll(identifiers(own));
    addAll(errorMessages(m.role === "assistant" ? own : m.content));
  }
  const all = stretch.map((m) => (m.role === "assistant" ? agentText(m) : m.content)).join("\n");
  for (const a of anchors) if (a !== "" && all.includes(a)) found.add(a);
  // a fact contained in another fact is kept whenever that one is: list only the longer one
  const contained = containedFacts(found);
  return Array.from(found).filter((f) => !contained.has(f));
}

/**
 * The facts that occur inside another (longer) fact: for every length some fact has, each longer
 * fact's windows of that length are hashed as they roll (Rabin-Karp, 32-bit), and only a window
 * whose hash some fact of that length has is cut out and looked up. Work: the facts' characters
 * times the distinct lengths (facts are short: paths, names, error lines cut at MAX_ERROR_CHARS),
 * not every pair of facts. Up to `pairwiseUpTo` facts, every pair is compared instead (the same set).
 */
export function containedFacts(facts: ReadonlySet<string>, pairwiseUpTo = PAIRWISE_FACTS): Set<string> {
  if (facts.size <= pairwiseUpTo) return containedPairwise(facts);
  const hashes = new Map<number, Set<number>>();
  for (const f of facts) {
    const h = hashes.get(f.length) ?? new Set<number>();
    h.add(windowHash(f, 0, f.length));
    hashes.set(f.length, h);
  }
  const lengths = Array.from(hashes.keys()).sort((a, b) => a - b);
  const out = new Set<string>();
  for (const g of facts)
    for (const len of lengths) {
      if (len >= g.length) break;
      const known = hashes.get(len) as Set<number>;
      // BASE^(len-1), the weight of the character leaving the window
      let top = 1;
      for (let k = 1; k < len; k++) top = Math.imul(top, BASE);
      let h = windowHash(g, 0, len);
      for (let i = 0; ; i++) {
        if (known.has(h)) {
          const piece = g.slice(i, i + len);
          if (facts.has(piece)) out.add(piece);
        }
        if (i + len >= g.length) break;
        h = (Math.imul(h - Math.imul(g.charCodeAt(i), top), BASE) + g.charCodeAt(i + len)) | 0;
      }
    }
  return out;
}

/**
 * Up to this many facts (a stretch of a few messages holds a few dozen), every pair is compared by
 * the engine's native substring search: faster than hashing every window of every length, whose
 * set-up per fact and per length dominates when there are few facts.
 */
const PAIRWISE_FACTS = 128;

/** containedFacts by comparing every pair: the facts inside a longer fact. */
function containedPairwise(facts: ReadonlySet<string>): Set<string> {
  const all = Array.from(facts);
  const out = new Set<string>();
  for (const f of all)
    for (const g of all)
      if (g.length > f.length && g.includes(f)) {
        out.add(f);
        break;
      }
  return out;
}

const BASE = 131;

/** The 32-bit polynomial hash of text[from, from + len). */
function windowHash(text: string, from: number, len: number): number {
  let h = 0;
  for (let i = from; i < from + len; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}
/** The required facts missing from a summary text. */
export function missingFacts(summary: string, facts: readonly string[]): string[] {
  return facts.filter((f) => !summary.includes(f));
}

/** The tokens a summary spends on keeping `facts` verbatim: the facts as one text, a space between two, by `counter`. */
export function factTokens(facts: readonly string[], counter: TokenCounter): number {
  return facts.length === 0 ? 0 : counter.count(facts.join(" "));
}
