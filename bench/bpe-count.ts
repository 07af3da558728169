// BPE counting: o200k_base counts per token, the counter as it was (gpt-tokenizer's countTokens
// on every piece) against the current BPE counter, on generated conversations and on this
// repository's own text and code, with a check that both count every text the same.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { bpeCounter, bpePieces } from "../src/model/tokens.ts";
import { consume, cpuMs, measure, type Repetitions } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

/** BPE counting cost per token on one set of texts: the counter as it was (gpt-tokenizer on every piece) and as it is. */
export interface BpeTiming {
  readonly texts: string;
  readonly messages: number;
  readonly tokens: number;
  /** median CPU nanoseconds per token */
  readonly beforeNs: number;
  readonly nowNs: number;
  /** whether both counted every text the same */
  readonly identical: boolean;
}

/** The BPE counter as it was before counting by pre-token: gpt-tokenizer's countTokens on each piece (bench reference only). */
function previousBpeCount(text: string): number {
  let total = 0;
  for (const piece of bpePieces(text)) total += countTokens(piece, { disallowedSpecial: new Set<string>() });
  return total;
}

/** Tokens counted per BPE sample at least: a set is counted several times over in one sample if smaller. */
export const BPE_SAMPLE_TOKENS = 1_000_000;

/**
 * Times counting each text with the previous and the current BPE counter, after one warm-up
 * sample (both tokenizers keep caches: gpt-tokenizer its merges, ours pre-token counts). A sample
 * passes over the set as often as it takes to count BPE_SAMPLE_TOKENS: a sample of a few
 * milliseconds measured mostly the machine's load.
 */
export function bpeBySample(sets: ReadonlyArray<readonly [string, readonly string[]]>, r: Repetitions): BpeTiming[] {
  const now = bpeCounter();
  return sets.map(([name, texts]) => {
    let tokens = 0;
    let identical = true;
    for (const t of texts) {
      const a = previousBpeCount(t);
      tokens += a;
      if (now.count(t) !== a) identical = false;
    }
    const passes = Math.ceil(BPE_SAMPLE_TOKENS / tokens);
    const time = (count: (t: string) => number) =>
      measure(() => {
        const t0 = cpuMs();
        for (let p = 0; p < passes; p++) for (const t of texts) consume(count(t));
        return cpuMs() - t0;
      }, r).medianMs;
    const beforeMs = time(previousBpeCount);
    const nowMs = time((t) => now.count(t));
    return {
      texts: name,
      messages: texts.length,
      tokens,
      beforeNs: (beforeMs * 1e6) / (tokens * passes),
      nowNs: (nowMs * 1e6) / (tokens * passes),
      identical,
    };
  });
}

/** The .ts files under `dir` (relative to root), its subfolders included, in a stable order. */
function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => `${dir}/${f}`);
}

/** Texts of this repository (code, prose, JSON) in message-sized chunks: more varied words than the generated conversations. */
export function repositoryTexts(): string[] {
  const root = join(import.meta.dirname, "..");
  const files = [
    "README.md",
    "proofs/PROPERTIES.md",
    "package.json",
    ...sourceFiles(root, "src/engine"),
    ...sourceFiles(root, "src/kernel"),
  ];
  const out: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(root, f), "utf8");
    for (let i = 0; i < text.length; i += 2_000) out.push(text.slice(i, i + 2_000));
  }
  return out;
}

function bpeTable(b: readonly BpeTiming[]): string {
  return table(
    [
      "texts",
      "messages",
      "tokens",
      "before: gpt-tokenizer (ns/token)",
      "now (ns/token)",
      "speed-up",
      "before (µs/message)",
      "now (µs/message)",
      "identical counts",
    ],
    b.map((x) => [
      x.texts,
      String(x.messages),
      String(x.tokens),
      fmt(x.beforeNs, 0),
      fmt(x.nowNs, 0),
      fmtRatio(x.beforeNs / x.nowNs),
      fmt((x.beforeNs * x.tokens) / x.messages / 1000, 1),
      fmt((x.nowNs * x.tokens) / x.messages / 1000, 1),
      x.identical ? "yes" : "NO",
    ]),
  );
}

/** The section of `npm run bench`'s results about BPE counting (heading, method, table). */
export function bpeSection(b: readonly BpeTiming[], r: Repetitions): string[] {
  return [
    "## BPE counting",
    "",
    "o200k_base counts per token: before = gpt-tokenizer's countTokens on every piece (the counter as it was); now = the BPE",
    "counter (o200k-count.ts: the same split, by a scanner over the text's UTF-16 units for ASCII and the pattern elsewhere, then",
    "tables of counts of pre-tokens and of stretches between spaces, gpt-tokenizer only for what is not in them). The generated",
    "conversation's texts are slices of one 64k-character pool of 49 words, so after the warm-up every pre-token is in the tables;",
    "this repository's text is its own prose, code and JSON.",
    `Median CPU time of ${r.reps} samples after one warm-up sample (both keep caches), a sample counting the set as many times`,
    `as it takes to count ${fmtN(BPE_SAMPLE_TOKENS)} tokens (after each collection the first pass pays fixed costs that a few-millisecond`,
    `sample would mostly measure); "identical counts" compares every text.`,
    "",
    bpeTable(b),
    "",
  ];
}
