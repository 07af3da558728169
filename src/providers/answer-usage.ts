// The usage a provider reports in a summarizer call's answer, in the model's one shape
// (SummarizerUsage): OpenAI chat completions' `usage` (prompt tokens include the cached ones)
// and Anthropic messages' `usage` (input tokens exclude the cache reads and writes, added here).
// A field that is missing or not a non-negative integer is left out, never guessed.
import { isJsonObject, type Json } from "../model/json.ts";
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
  });
}

/** The usage of an Anthropic messages answer (input = uncached + cache reads + cache writes), or undefined. */
export function anthropicUsage(body: Json): SummarizerUsage | undefined {
  const u = isJsonObject(body) ? body.usage : undefined;
  if (!isJsonObject(u)) return undefined;
  const uncached = count(u.input_tokens);
  const read = count(u.cache_read_input_tokens);
  const written = count(u.cache_creation_input_tokens);
  return present({
    inputTokens: uncached === undefined ? undefined : uncached + (read ?? 0) + (written ?? 0),
    outputTokens: count(u.output_tokens),
    cacheReadTokens: read,
    cacheWriteTokens: written,
  });
}
