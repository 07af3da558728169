// Summaries from an OpenAI-compatible chat completions endpoint (OpenAI, or any server that
// speaks the same API: vLLM, llama.cpp, Ollama, proxies). OpenAI's reasoning models are sent
// max_completion_tokens, every other model max_tokens (model-limits.ts).

import { endpointUrl } from "../model/base-url.ts";
import { SummarizerError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import { outputTokenField } from "../model/model-limits.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../model/summarizer.ts";
import { openAIUsage } from "./answer-usage.ts";
import { extractEachTagged, extractTagged } from "./extract-tag.ts";
import { baseUrlOf, type HttpSummarizerOptions, postSummaryRequest, readAnswer } from "./http.ts";

/** Settings of the OpenAI summarizer (baseUrl default https://api.openai.com/v1, with or without /v1; the API key is sent as a Bearer token). */
export type OpenAISummarizerOptions = HttpSummarizerOptions;

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

/** A summarizer calling POST {baseUrl}/chat/completions, `/v1` added when the base URL has no version (base-url.ts). */
export function openAISummarizer(opts: OpenAISummarizerOptions = {}): Summarizer {
  const url = endpointUrl(baseUrlOf(opts, "https://api.openai.com/v1"), "chat/completions");
  const headers: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {};
  return {
    name: "openai",
    async summarize(req: SummaryRequest): Promise<string> {
      const body = await postSummaryRequest(url, headers, req, opts, "OpenAI", outputTokenField(req.model));
      // what the call cost is reported whether or not its answer is usable
      const usage = openAIUsage(body);
      if (usage !== undefined) req.onUsage?.(usage);
      return readAnswer(url, { service: "OpenAI", model: req.model }, () =>
        extractTagged(answerText(body), req.summaryTag),
      );
    },
    async summarizeBatch(req: BatchSummaryRequest): Promise<(string | undefined)[]> {
      const body = await postSummaryRequest(url, headers, req, opts, "OpenAI", outputTokenField(req.model));
      const usage = openAIUsage(body);
      if (usage !== undefined) req.onUsage?.(usage);
      return readAnswer(url, { service: "OpenAI", model: req.model }, () =>
        extractEachTagged(answerText(body), req.summaryTag, req.parts.length),
      );
    },
  };
}
