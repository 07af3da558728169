// BPE counting: o200k_base counts per token, the counter as it was (gpt-tokenizer's countTokens
// on every piece) against the current BPE counter, on generated conversations and on this
// repository's own text and code, with a check that both count every text the same.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { bpeCounter, bpePieces } from "../src/engine/tokens.ts";
import { consume, cpuMs, measure, type Repetitions } from "./measure.ts";
import { fmt, fmtRatio, table } from "./table.ts";

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

/** The BPE counter before the ASCII fast path: gpt-tokenizer's countTokens on each piece (bench reference only). */
function previousBpeCount(text: string): number {
  let total = 0;
  for (const piece of bpePieces(text)) total += countTokens(piece, { disallowedSpecial: new Set<string>() });
  return total;
}

/**
 * Times counting each text once with the previous and the current BPE counter, after one
 * warm-up pass (both tokenizers keep caches: gpt-tokenizer its merges, ours pre-token counts).
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
    const time = (count: (t: string) => number) =>
      measure(() => {
        const t0 = cpuMs();
        for (const t of texts) consume(count(t));
        return cpuMs() - t0;
      }, r).medianMs;
    const beforeMs = time(previousBpeCount);
    const nowMs = time((t) => now.count(t));
    return {
      texts: name,
      messages: texts.length,
      tokens,
      beforeNs: (beforeMs * 1e6) / tokens,
      nowNs: (nowMs * 1e6) / tokens,
      identical,
    };
  });
}

/** Texts of this repository (code, prose, JSON) in message-sized chunks: more varied words than the generated conversations. */
export function repositoryTexts(): string[] {
  const root = join(import.meta.dirname, "..");
  const files = [
    "README.md",
    "proofs/PROPERTIES.md",
    "package.json",
    ...readdirSync(join(root, "src/engine")).map((f) => `src/engine/${f}`),
    ...readdirSync(join(root, "src/kernel")).map((f) => `src/kernel/${f}`),
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
    "counter (tokens.ts: ASCII texts split into pre-tokens by hand, a cache of pre-token counts, gpt-tokenizer for the rest).",
    `Median CPU time of ${r.reps} passes over each set after one warm-up pass (both keep caches); "identical counts" compares every text.`,
    "",
    bpeTable(b),
    "",
  ];
}
