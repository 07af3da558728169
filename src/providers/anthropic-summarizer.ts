// Summaries from the Anthropic messages API.

import { endpointUrl } from "../model/base-url.ts";
import { SummarizerError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../model/summarizer.ts";
import { anthropicUsage } from "./answer-usage.ts";
import { extractEachTagged, extractTagged } from "./extract-tag.ts";
import { baseUrlOf, type HttpSummarizerOptions, postSummaryRequest, readAnswer } from "./http.ts";

/** Settings of the Anthropic summarizer (baseUrl default https://api.anthropic.com, with or without /v1; the API key is sent as x-api-key). */
export type AnthropicSummarizerOptions = HttpSummarizerOptions;

/** The API version header value this client speaks. */
export const ANTHROPIC_VERSION = "2023-06-01";

function answerText(body: Json): string {
  if (!isJsonObject(body) || !Array.isArray(body.content)) throw new SummarizerError("Anthropic answer has no content");
  const text = body.content
    .map((b) => (isJsonObject(b) && b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("");
  if (text.trim() === "") throw new SummarizerError("Anthropic answer is empty");
  return text;
}

/** A summarizer calling POST {baseUrl}/v1/messages, or {baseUrl}/messages when the base URL ends with /v1 (base-url.ts). */
export function anthropicSummarizer(opts: AnthropicSummarizerOptions = {}): Summarizer {
  const url = endpointUrl(baseUrlOf(opts, "https://api.anthropic.com"), "messages");
  const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
  if (opts.apiKey) headers["x-api-key"] = opts.apiKey;
  return {
    name: "anthropic",
    async summarize(req: SummaryRequest): Promise<string> {
      const body = await postSummaryRequest(url, headers, req, opts, "Anthropic");
      // what the call cost is reported whether or not its answer is usable
      const usage = anthropicUsage(body);
      if (usage !== undefined) req.onUsage?.(usage);
      return readAnswer(url, { service: "Anthropic", model: req.model }, () =>
        extractTagged(answerText(body), req.summaryTag),
      );
    },
    async summarizeBatch(req: BatchSummaryRequest): Promise<(string | undefined)[]> {
      const body = await postSummaryRequest(url, headers, req, opts, "Anthropic");
      const usage = anthropicUsage(body);
      if (usage !== undefined) req.onUsage?.(usage);
      return readAnswer(url, { service: "Anthropic", model: req.model }, () =>
        extractEachTagged(answerText(body), req.summaryTag, req.parts.length),
      );
    },
  };
}
