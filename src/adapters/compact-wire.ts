// Compaction straight on wire-format messages, for agents that keep their history in the
// OpenAI or Anthropic request shape: read, compact, write back (untouched messages verbatim).
import { parseConfig } from "../engine/config-rules.ts";
import type { Config, ConfigInput } from "../engine/config.ts";
import { assertMessageList, assertOptions, compactMessages, type CompactMessagesOptions } from "../engine/compact-messages.ts";
import { InputError } from "../engine/errors.ts";
import { assertValueNesting } from "../engine/json-depth.ts";
import { describeJson, isJsonObject, type Json, type JsonObject } from "../engine/json.ts";
import type { CompactionReport } from "../engine/report.ts";
import { readAnthropicMessages, writeAnthropicMessages, type AnthropicConversation } from "./anthropic.ts";
import { readOpenAIMessages, writeOpenAIMessages } from "./openai.ts";

/** Compacts an OpenAI `messages` array; returns the new array and the report. */
export async function compactOpenAIMessages(
  messages: readonly Json[], config: ConfigInput | Config = {}, options: CompactMessagesOptions = {},
): Promise<{ messages: JsonObject[]; report: CompactionReport }> {
  // bad arguments are SafecutErrors, and nesting is checked before the adapter reads (and copies) anything
  assertOptions(options);
  const tag = parseConfig(config).summary_tag;
  assertMessageList(messages);
  assertValueNesting(messages, "messages");
  const r = await compactMessages(readOpenAIMessages([...messages], "messages", { summaryTag: tag }), config, options);
  return { messages: writeOpenAIMessages(r.messages, { summaryTag: tag }), report: r.report };
}

/** Compacts an Anthropic conversation ({system?, messages}); returns the new one and the report. */
export async function compactAnthropicMessages(
  conversation: { system?: Json; messages: readonly Json[] }, config: ConfigInput | Config = {}, options: CompactMessagesOptions = {},
): Promise<AnthropicConversation & { report: CompactionReport }> {
  assertOptions(options);
  const tag = parseConfig(config).summary_tag;
  if (!isJsonObject(conversation as unknown as Json)) throw new InputError("conversation", `expected an object { system?, messages }, got ${describeJson(conversation)}`);
  assertMessageList(conversation.messages);
  assertValueNesting(conversation.messages, "messages");
  assertValueNesting(conversation.system, "system");
  const model = readAnthropicMessages([...conversation.messages], conversation.system, "messages", { summaryTag: tag });
  const r = await compactMessages(model, config, options);
  return { ...writeAnthropicMessages(r.messages, { summaryTag: tag }), report: r.report };
}
