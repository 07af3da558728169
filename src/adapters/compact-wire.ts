// Compaction straight on wire-format messages, for agents that keep their history in the
// OpenAI or Anthropic request shape: read, compact, write back (untouched messages verbatim).
import type { MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions/completions";
import { parseConfig } from "../engine/config-rules.ts";
import type { Config, ConfigInput } from "../engine/config.ts";
import { compactMessages, type CompactMessagesOptions } from "../engine/compact-messages.ts";
import type { Json, JsonObject } from "../engine/json.ts";
import type { CompactionReport } from "../engine/report.ts";
import { readAnthropicMessages, writeAnthropicMessages, type AnthropicConversation } from "./anthropic.ts";
import { readOpenAIMessages, writeOpenAIMessages } from "./openai.ts";

/**
 * Compacts an OpenAI `messages` array; returns the new array and the report. Takes the `openai`
 * package's ChatCompletionMessageParam[] (and gives the same type back: untouched messages are
 * the caller's own objects, a summary is an assistant message) or JSON read from a file.
 */
export async function compactOpenAIMessages(
  messages: readonly ChatCompletionMessageParam[], config?: ConfigInput | Config, options?: CompactMessagesOptions,
): Promise<{ messages: ChatCompletionMessageParam[]; report: CompactionReport }>;
export async function compactOpenAIMessages(
  messages: readonly Json[], config?: ConfigInput | Config, options?: CompactMessagesOptions,
): Promise<{ messages: JsonObject[]; report: CompactionReport }>;
export async function compactOpenAIMessages(
  messages: readonly (Json | ChatCompletionMessageParam)[], config: ConfigInput | Config = {}, options: CompactMessagesOptions = {},
): Promise<{ messages: (JsonObject | ChatCompletionMessageParam)[]; report: CompactionReport }> {
  const tag = parseConfig(config).summary_tag;
  // the SDK's message types are JSON data; the reader checks every field it reads
  const r = await compactMessages(readOpenAIMessages([...messages] as Json[], "messages", { summaryTag: tag }), config, options);
  return { messages: writeOpenAIMessages(r.messages, { summaryTag: tag }), report: r.report };
}

/** An Anthropic conversation typed with the `@anthropic-ai/sdk` package's own types. */
export interface AnthropicSdkConversation {
  system?: string | TextBlockParam[];
  messages: MessageParam[];
}

/**
 * Compacts an Anthropic conversation ({system?, messages}); returns the new one and the report.
 * Takes the `@anthropic-ai/sdk` package's MessageParam[] (and gives the same types back) or JSON.
 */
export async function compactAnthropicMessages(
  conversation: { system?: string | TextBlockParam[]; messages: readonly MessageParam[] }, config?: ConfigInput | Config, options?: CompactMessagesOptions,
): Promise<AnthropicSdkConversation & { report: CompactionReport }>;
export async function compactAnthropicMessages(
  conversation: { system?: Json; messages: readonly Json[] }, config?: ConfigInput | Config, options?: CompactMessagesOptions,
): Promise<AnthropicConversation & { report: CompactionReport }>;
export async function compactAnthropicMessages(
  conversation: { system?: Json | TextBlockParam[]; messages: readonly (Json | MessageParam)[] }, config: ConfigInput | Config = {}, options: CompactMessagesOptions = {},
): Promise<(AnthropicConversation | AnthropicSdkConversation) & { report: CompactionReport }> {
  const tag = parseConfig(config).summary_tag;
  // the SDK's message types are JSON data; the reader checks every field it reads
  const model = readAnthropicMessages([...conversation.messages] as Json[], conversation.system as Json | undefined, "messages", { summaryTag: tag });
  const r = await compactMessages(model, config, options);
  return { ...writeAnthropicMessages(r.messages, { summaryTag: tag }), report: r.report };
}
