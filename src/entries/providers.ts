// The `safecut/providers` entry: the summarizers (offline, OpenAI-compatible, Anthropic) and
// the Summarizer interface a custom summarizer implements.

export { offlineSummarizer } from "../providers/offline-summarizer.ts";
export { openAISummarizer, type OpenAISummarizerOptions } from "../providers/openai-summarizer.ts";
export { anthropicSummarizer, type AnthropicSummarizerOptions } from "../providers/anthropic-summarizer.ts";
export { summarizerFromConfig } from "../providers/from-config.ts";
export type { Summarizer, SummaryRequest } from "../providers/summarizer.ts";
export { SummarizerError } from "../engine/errors.ts";
export { bpeCounter, charCounter, type TokenCounter } from "../engine/tokens.ts";
