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
  const found: string[] = [];
  // a public utility: a hand-built stretch is checked like any other message list
  for (const m of assertMessages(stretch, "stretch")) {
    const own = agentText(m);
    found.push(...filePaths(own), ...identifiers(own), ...errorMessages(m.role === "assistant" ? own : m.content));
  }
  const all = stretch.map((m) => (m.role === "assistant" ? agentText(m) : m.content)).join("\n");
  for (const a of anchors) if (a !== "" && all.includes(a)) found.push(a);
  const unique = Array.from(new Set(found));
  // a fact contained in another fact is kept whenever that one is: list only the longer one
  return unique.filter((f) => !unique.some((g) => g !== f && g.includes(f)));
}

/** The required facts missing from a summary text. */
export function missingFacts(summary: string, facts: readonly string[]): string[] {
  return facts.filter((f) => !summary.includes(f));
}

/** The tokens a summary spends on keeping `facts` verbatim: the facts as one text, a space between two, by `counter`. */
export function factTokens(facts: readonly string[], counter: TokenCounter): number {
  return facts.length === 0 ? 0 : counter.count(facts.join(" "));
}
