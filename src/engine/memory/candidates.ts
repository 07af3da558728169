// Memory flush candidates: the user's preferences, boundaries and facts, extracted by rule from
// the user messages of the stretch a compaction covered (never from assistant or tool text),
// for the agent's long-term memory. Each candidate has an id (stable for the same source), its
// source session and message index, its text cut to a byte limit, one tag, a confidence in
// [0, 1] and a time; a compaction yields at most `memory_candidates` of them. Rules and
// confidence bands: docs/memory-candidates.md.
import type { Message } from "../../model/message.ts";

/** What a candidate says about the user. */
export type CandidateTag = "user_preference" | "safety_boundary" | "fact";
/** Every tag, for reading a stored candidate back. */
export const CANDIDATE_TAGS: readonly CandidateTag[] = ["user_preference", "safety_boundary", "fact"];

/** One memory flush candidate. */
export interface MemoryCandidate {
  readonly id: string;
  /** the session the messages came from (the caller's id; undefined when none was given) */
  readonly sourceSession: string | undefined;
  /** the index of the user message it came from, in the input */
  readonly sourceMessages: readonly number[];
  /** the sentence, cut to the byte limit (UTF-8, at a character boundary) */
  readonly text: string;
  readonly tag: CandidateTag;
  readonly confidence: number;
  /** when it was extracted (ISO 8601) */
  readonly time: string;
}

/** A rule: the sentences it matches, its tag, and its confidence when the sentence opens with the marker or not. */
interface Rule {
  readonly tag: CandidateTag;
  readonly marker: RegExp;
  readonly opening: number;
  readonly inside: number;
}

/** The rules, strongest first: a sentence takes the first rule it matches. */
const RULES: readonly Rule[] = [
  {
    tag: "safety_boundary",
    marker:
      /\b(never|do not|don't|must not|mustn't|without asking|not allowed to|no force[- ]push|no sudo|off limits|do not touch)\b/i,
    opening: 0.9,
    inside: 0.75,
  },
  {
    tag: "user_preference",
    marker: /\b(always|prefer|please use|i like|i want|i prefer|use \S+ (?:not|instead of) \S+|from now on)\b/i,
    opening: 0.8,
    inside: 0.6,
  },
  {
    tag: "fact",
    marker:
      /\b(my name is|i am|i'm|we use|our \w+ (?:is|are|runs?)|the (?:repo|project|server|database) (?:is|runs?|uses))\b/i,
    opening: 0.55,
    inside: 0.45,
  },
];

/** `text` cut to at most `bytes` UTF-8 bytes, at a character boundary. */
export function cutToBytes(text: string, bytes: number): string {
  const enc = new TextEncoder();
  if (enc.encode(text).length <= bytes) return text;
  let out = "";
  let used = 0;
  for (const ch of text) {
    const n = enc.encode(ch).length;
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  return out;
}

/** A short stable hash of a text (FNV-1a, 32-bit, hex). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Where candidates are taken from and how many. */
export interface CandidateScope {
  readonly messages: readonly Message[];
  /** the input's messages the compaction covered, first and last inclusive (from its report) */
  readonly first: number;
  readonly last: number;
  readonly sessionId: string | undefined;
  readonly max: number;
  readonly bytes: number;
  readonly time: string;
}

/**
 * The candidates of the user messages from the one opening the turn of `first` to `last`: each
 * sentence the first matching rule tags, strongest confidence first then oldest, at most `max`.
 */
export function memoryCandidates(s: CandidateScope): MemoryCandidate[] {
  if (s.max <= 0 || s.first > s.last) return [];
  let from = s.first;
  while (from > 0 && s.messages[from].role !== "user") from--;
  const found: MemoryCandidate[] = [];
  const seen = new Set<string>();
  for (let i = from; i <= Math.min(s.last, s.messages.length - 1); i++) {
    const m = s.messages[i];
    if (m.role !== "user") continue;
    for (const sentence of m.content.split(/(?<=[.!?])\s+|\n+/)) {
      const text = sentence.trim();
      if (text === "" || seen.has(text)) continue;
      const rule = RULES.find((r) => r.marker.test(text));
      if (rule === undefined) continue;
      seen.add(text);
      const opens = rule.marker.exec(text)?.index === 0;
      found.push({
        id: `mem-${hash(`${s.sessionId ?? ""}\u0000${i}\u0000${text}`)}`,
        sourceSession: s.sessionId,
        sourceMessages: [i],
        text: cutToBytes(text, s.bytes),
        tag: rule.tag,
        confidence: opens ? rule.opening : rule.inside,
        time: s.time,
      });
    }
  }
  return found
    .map((c, k) => ({ c, k }))
    .sort((a, b) => b.c.confidence - a.c.confidence || a.k - b.k)
    .slice(0, s.max)
    .map(({ c }) => c);
}
