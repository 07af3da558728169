// The `safecut/providers` entry: the summarizers (offline, OpenAI-compatible, Anthropic) and
// the Summarizer interface a custom summarizer implements.

export { SummarizerError } from "../model/errors.ts";
export type { Summarizer, SummaryRequest } from "../model/summarizer.ts";
export { bpeCounter, charCounter, type TokenCounter } from "../model/tokens.ts";
export { type AnthropicSummarizerOptions, anthropicSummarizer } from "../providers/anthropic-summarizer.ts";
export { summarizerFromConfig } from "../providers/from-config.ts";
export { offlineSummarizer } from "../providers/offline-summarizer.ts";
export { type OpenAISummarizerOptions, openAISummarizer } from "../providers/openai-summarizer.ts";
