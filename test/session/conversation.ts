// OpenAI-format items for the session tests: turns of a user question, a tool call, its result
// and an answer, each turn's texts naming a unique id, so that an item can be found (and
// counted) in a session's history by its id.
import type { JsonObject } from "../../src/model/json.ts";

/** One turn's four items; every text carries `id`. */
export function turn(id: string, size = 12): JsonObject[] {
  return [
    { role: "user", content: `question ${id} ${"q ".repeat(size)}` },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call-${id}`, type: "function", function: { name: "look", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: `call-${id}`, content: `result ${id} ${"r ".repeat(size * 3)}` },
    { role: "assistant", content: `answer ${id} ${"a ".repeat(size * 2)}` },
  ];
}

/** The two items one agent step appends: an assistant tool call and its result. */
export function stepItems(tag: string): JsonObject[] {
  return [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `s-${tag}`, type: "function", function: { name: "ls", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: `s-${tag}`, content: "a.ts\nb.ts\nc.ts" },
  ];
}

/** The ids of the turns whose question is in `historyText`, with how often each occurs. */
export function questionCounts(historyText: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of historyText.matchAll(/"question ([\w-]+) /g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return counts;
}

/**
 * A configuration that makes a few turns due (offline summarizer, character counts; no floor:
 * each small turn is worth a call). It summarizes only: these tests are about the session's
 * splices under concurrency and crashes (clearing runs and restores on a session have their own
 * tests, on both backends).
 */
export const SMALL_CONFIG = {
  token_threshold: 600,
  retention_window: 4,
  tokenizer: "chars",
  strategy: "summarize",
  min_stretch_tokens: 0,
} as const;

/**
 * A background mode that clears (whatever it frees, all but the newest two results), then
 * summarizes in batches of one call each (the default strategy): a run has several steps, adopted
 * at one step (issue 31). Soft threshold 1,200
 * characters, hard 4,000.
 */
export const BACKGROUND_CONFIG = {
  token_threshold: 4000,
  soft_token_threshold: 1200,
  retention_window: 4,
  tokenizer: "chars",
  min_stretch_tokens: 0,
  batch_calls: 1,
  batch_tokens: 400,
  clear_at_least: 0,
  clear_keep: 2,
} as const;
