// Compaction straight on wire-format messages, for agents that keep their history in the
// OpenAI or Anthropic request shape: read, compact, write back (untouched messages verbatim).

import { type AnthropicConversation, readAnthropicMessages, writeAnthropicMessages } from "../adapters/anthropic.ts";
import { readOpenAIMessages, writeOpenAIMessages } from "../adapters/openai.ts";
import type {
  AnthropicMessageLike,
  AnthropicSystemLike,
  AnthropicWritten,
  OpenAIChatMessageLike,
  OpenAISummaryMessage,
} from "../adapters/sdk-shapes.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import { describeJson, isJsonObject, type Json, type JsonObject } from "../model/json.ts";
import { assertValueNesting } from "../model/json-depth.ts";
import { assertMessageList, assertOptions, type CompactMessagesOptions, compactParsed } from "./compact-messages.ts";

/**
 * Compacts an OpenAI `messages` array; returns the new array and the report. Takes the `openai`
 * package's ChatCompletionMessageParam[] (and gives the same type back: untouched messages are
 * the caller's own objects, a summary is an assistant message) or JSON read from a file; the
 * core does not depend on that package (see sdk-shapes.ts).
 */
export async function compactOpenAIMessages<M extends OpenAIChatMessageLike>(
  messages: readonly M[],
  config?: ConfigInput | Config,
  options?: CompactMessagesOptions,
): Promise<{ messages: (M | OpenAISummaryMessage)[]; report: CompactionReport }>;
export async function compactOpenAIMessages(
  messages: readonly Json[],
  config?: ConfigInput | Config,
  options?: CompactMessagesOptions,
): Promise<{ messages: JsonObject[]; report: CompactionReport }>;
export async function compactOpenAIMessages(
  messages: readonly (Json | OpenAIChatMessageLike)[],
  config: ConfigInput | Config = {},
  options: CompactMessagesOptions = {},
): Promise<{ messages: (JsonObject | OpenAIChatMessageLike)[]; report: CompactionReport }> {
  // bad arguments are SafecutErrors, and nesting is checked before the adapter reads (and copies) anything
  assertOptions(options);
  const c = parseConfig(config);
  assertMessageList(messages);
  assertValueNesting(messages, "messages");
  // the SDK's message types are JSON data; the reader checks every field it reads
  const r = await compactParsed(
    readOpenAIMessages([...messages] as Json[], "messages", { summaryTag: c.summary_tag }),
    c,
    options,
  );
  return { messages: writeOpenAIMessages(r.messages, { summaryTag: c.summary_tag }), report: r.report };
}

/**
 * Compacts an Anthropic conversation ({system?, messages}); returns the new one and the report.
 * Takes the `@anthropic-ai/sdk` package's MessageParam[] (and gives the same types back) or JSON.
 */
export async function compactAnthropicMessages<M extends AnthropicMessageLike, S extends AnthropicSystemLike = string>(
  conversation: { system?: S; messages: readonly M[] },
  config?: ConfigInput | Config,
  options?: CompactMessagesOptions,
): Promise<{ system?: S | string; messages: AnthropicWritten<M>[]; report: CompactionReport }>;
export async function compactAnthropicMessages(
  conversation: { system?: Json; messages: readonly Json[] },
  config?: ConfigInput | Config,
  options?: CompactMessagesOptions,
): Promise<AnthropicConversation & { report: CompactionReport }>;
export async function compactAnthropicMessages(
  conversation: { system?: Json | AnthropicSystemLike; messages: readonly (Json | AnthropicMessageLike)[] },
  config: ConfigInput | Config = {},
  options: CompactMessagesOptions = {},
): Promise<{
  system?: Json | AnthropicSystemLike;
  messages: (JsonObject | AnthropicWritten<AnthropicMessageLike>)[];
  report: CompactionReport;
}> {
  assertOptions(options);
  const c = parseConfig(config);
  if (!isJsonObject(conversation as unknown as Json))
    throw new InputError("conversation", `expected an object { system?, messages }, got ${describeJson(conversation)}`);
  assertMessageList(conversation.messages);
  assertValueNesting(conversation.messages, "messages");
  assertValueNesting(conversation.system, "system");
  // the SDK's message types are JSON data; the reader checks every field it reads
  const model = readAnthropicMessages(
    [...conversation.messages] as Json[],
    conversation.system as Json | undefined,
    "messages",
    { summaryTag: c.summary_tag },
  );
  const r = await compactParsed(model, c, options);
  return { ...writeAnthropicMessages(r.messages, { summaryTag: c.summary_tag }), report: r.report };
}
