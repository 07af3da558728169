// The usage a provider reports in a summarizer call's answer, in the model's one shape
// (SummarizerUsage): OpenAI chat completions' `usage` (prompt tokens include the cached ones)
// and Anthropic messages' `usage` (input tokens exclude the cache reads and writes, added here;
// with server-side compaction, `usage.iterations` lists each sampling step, the compaction steps
// among them, whose tokens the top-level counts leave out: the call's counts are their sums, and
// the compaction steps are recorded apart too).
// A field that is missing or not a non-negative integer is left out, never guessed.
import { isJsonObject, type Json, type JsonObject } from "../model/json.ts";
import type { SummarizerUsage } from "../model/summarizer.ts";

// a count as the provider gave it, or undefined
function count(v: Json | undefined): number | undefined {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

// the defined fields of u only (an absent count stays absent)
function present(u: { [K in keyof SummarizerUsage]: number | undefined }): SummarizerUsage | undefined {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(u)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The usage of an OpenAI-compatible chat completions answer, or undefined when it reports none. */
export function openAIUsage(body: Json): SummarizerUsage | undefined {
  const u = isJsonObject(body) ? body.usage : undefined;
  if (!isJsonObject(u)) return undefined;
  const details = u.prompt_tokens_details;
  return present({
    inputTokens: count(u.prompt_tokens),
    outputTokens: count(u.completion_tokens),
    cacheReadTokens: isJsonObject(details) ? count(details.cached_tokens) : undefined,
    cacheWriteTokens: undefined,
    compactionSteps: undefined,
    compactionInputTokens: undefined,
    compactionOutputTokens: undefined,
  });
}

/** One Anthropic usage object's counts (input = uncached + cache reads + cache writes). */
function anthropicCounts(u: JsonObject): { input?: number; output?: number; read?: number; written?: number } {
  const uncached = count(u.input_tokens);
  const read = count(u.cache_read_input_tokens);
  const written = count(u.cache_creation_input_tokens);
  return {
    input: uncached === undefined ? undefined : uncached + (read ?? 0) + (written ?? 0),
    output: count(u.output_tokens),
    read,
    written,
  };
}

/** The sum of the defined values, or undefined when none is. */
function sum(xs: readonly (number | undefined)[]): number | undefined {
  return xs.some((x) => x !== undefined) ? xs.reduce<number>((s, x) => s + (x ?? 0), 0) : undefined;
}

/**
 * The usage of an Anthropic messages answer (input = uncached + cache reads + cache writes), or
 * undefined. With `usage.iterations` (server-side compaction: a compaction step and the message
 * step), the counts are the sums over every iteration, and the compaction steps' are given apart.
 */
export function anthropicUsage(body: Json): SummarizerUsage | undefined {
  const u = isJsonObject(body) ? body.usage : undefined;
  if (!isJsonObject(u)) return undefined;
  const its = Array.isArray(u.iterations) ? u.iterations.filter(isJsonObject) : [];
  if (its.length === 0) {
    const c = anthropicCounts(u);
    return present({
      inputTokens: c.input,
      outputTokens: c.output,
      cacheReadTokens: c.read,
      cacheWriteTokens: c.written,
      compactionSteps: undefined,
      compactionInputTokens: undefined,
      compactionOutputTokens: undefined,
    });
  }
  const all = its.map(anthropicCounts);
  const compaction = its.flatMap((it, k) => (it.type === "compaction" ? [all[k]] : []));
  return present({
    inputTokens: sum(all.map((c) => c.input)),
    outputTokens: sum(all.map((c) => c.output)),
    cacheReadTokens: sum(all.map((c) => c.read)),
    cacheWriteTokens: sum(all.map((c) => c.written)),
    compactionSteps: compaction.length,
    compactionInputTokens: sum(compaction.map((c) => c.input)) ?? (compaction.length > 0 ? 0 : undefined),
    compactionOutputTokens: sum(compaction.map((c) => c.output)) ?? (compaction.length > 0 ? 0 : undefined),
  });
}
