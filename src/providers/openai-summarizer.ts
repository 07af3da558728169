// Summaries from an OpenAI-compatible chat completions endpoint (OpenAI, or any server that
// speaks the same API: vLLM, llama.cpp, Ollama, proxies).
import { SummarizerError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import type { Summarizer, SummaryRequest } from "../model/summarizer.ts";
import { extractTagged } from "./extract-tag.ts";
import { postJson } from "./http.ts";

/** Settings of the OpenAI-compatible summarizer. */
export interface OpenAISummarizerOptions {
  /** default https://api.openai.com/v1 */
  readonly baseUrl?: string;
  /** sent as a Bearer token when present */
  readonly apiKey?: string;
  readonly timeoutMs?: number;
  readonly maxRetryWaitMs?: number;
  /** wait before retrying when the server gave no Retry-After (default 1000 ms) */
  readonly retryDelayMs?: number;
}

function answerText(body: Json): string {
  if (!isJsonObject(body) || !Array.isArray(body.choices) || body.choices.length === 0) {
    throw new SummarizerError("OpenAI answer has no choices");
  }
  const choice = body.choices[0];
  const msg = isJsonObject(choice) ? choice.message : undefined;
  const content = isJsonObject(msg) ? msg.content : undefined;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((p) => (isJsonObject(p) && typeof p.text === "string" ? p.text : "")).join("");
  }
  throw new SummarizerError("OpenAI answer has no message content (empty answer)");
}

/** A summarizer calling POST {baseUrl}/chat/completions. */
export function openAISummarizer(opts: OpenAISummarizerOptions = {}): Summarizer {
  const base = (opts.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  return {
    name: "openai",
    async summarize(req: SummaryRequest): Promise<string> {
      const headers: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {};
      const body = await postJson(
        `${base}/chat/completions`,
        headers,
        {
          model: req.model,
          max_tokens: req.maxTokens,
          messages: [{ role: "user", content: req.prompt }],
        },
        {
          timeoutMs: opts.timeoutMs ?? 60_000,
          signal: req.signal,
          maxRetryWaitMs: opts.maxRetryWaitMs,
          retryDelayMs: opts.retryDelayMs,
          service: "OpenAI",
        },
      );
      return extractTagged(answerText(body), req.summaryTag);
    },
  };
}
