// Compaction straight on wire-format messages, for agents that keep their history in the
// OpenAI or Anthropic request shape: read, compact, write back (untouched messages verbatim).

import { type AnthropicConversation, readAnthropicMessages, writeAnthropicMessages } from "../adapters/anthropic.ts";
import { anthropicBreakpoints, markBeforeFirstChange, systemBreakpoints } from "../adapters/cache-breakpoint.ts";
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
import { assertMessageList, assertOptions } from "./compact-messages.ts";
import { compactReading, sourcedReading } from "./compact-reading.ts";
import {
  callWithRetry,
  countedTokens,
  type OverflowRetry,
  overflowSettings,
  requestByteBudget,
  withProviderBytes,
} from "./overflow-retry.ts";
import { compactOnSession, type WireOptions } from "./session-option.ts";

/**
 * Compacts an OpenAI `messages` array; returns the new array and the report. Takes the `openai`
 * package's ChatCompletionMessageParam[] (and gives the same type back: untouched messages are
 * the caller's own objects, a summary is an assistant message) or JSON read from a file; the
 * core does not depend on that package (see sdk-shapes.ts). With the `session` option, the
 * array is the agent's whole history as it holds it (what the last call returned, then the new
 * messages): the new ones are appended to the session, which is compacted when due, and the
 * messages returned are the session's context (session-option.ts). With max_request_bytes
 * unset, OpenAI's documented request size is the byte budget (PROVIDER_REQUEST_BYTES).
 */
export async function compactOpenAIMessages<M extends OpenAIChatMessageLike>(
  messages: readonly M[],
  config?: ConfigInput | Config,
  options?: WireOptions,
): Promise<{ messages: (M | OpenAISummaryMessage)[]; report: CompactionReport }>;
export async function compactOpenAIMessages(
  messages: readonly Json[],
  config?: ConfigInput | Config,
  options?: WireOptions,
): Promise<{ messages: JsonObject[]; report: CompactionReport }>;
export async function compactOpenAIMessages(
  messages: readonly (Json | OpenAIChatMessageLike)[],
  config: ConfigInput | Config = {},
  options: WireOptions = {},
): Promise<{ messages: (JsonObject | OpenAIChatMessageLike)[]; report: CompactionReport }> {
  // bad arguments are SafecutErrors, and nesting is checked before the adapter reads (and copies) anything
  assertOptions(options);
  const c = withProviderBytes(parseConfig(config), "openai");
  assertMessageList(messages);
  assertValueNesting(messages, "messages");
  if (options.session !== undefined) {
    const items = messages as readonly Json[];
    const r = await compactOnSession(
      "compactOpenAIMessages",
      "openai",
      { items, pathOf: (i) => `messages[${i}]` },
      c,
      options,
    );
    return { messages: r.context as JsonObject[], report: r.report };
  }
  // the SDK's message types are JSON data; the reader checks every field it reads
  const tag = { summaryTag: c.summary_tag };
  const read = readOpenAIMessages([...messages] as Json[], "messages", tag);
  const r = await compactReading(
    sourcedReading(read, (ms) => writeOpenAIMessages(ms, tag), options.items),
    c,
    options,
  );
  return { messages: r.written, report: r.report };
}

/**
 * Compacts an Anthropic conversation ({system?, messages}); returns the new one and the report.
 * Takes the `@anthropic-ai/sdk` package's MessageParam[] (and gives the same types back) or JSON.
 * With the `session` option, as compactOpenAIMessages: the session keeps the system as its first
 * item (`{"system": ...}`), and the conversation returned is the session's context. With
 * max_request_bytes unset, Anthropic's documented 32 MB is the byte budget.
 */
export async function compactAnthropicMessages<M extends AnthropicMessageLike, S extends AnthropicSystemLike = string>(
  conversation: { system?: S; messages: readonly M[] },
  config?: ConfigInput | Config,
  options?: WireOptions,
): Promise<{ system?: S | string; messages: AnthropicWritten<M>[]; report: CompactionReport }>;
export async function compactAnthropicMessages(
  conversation: { system?: Json; messages: readonly Json[] },
  config?: ConfigInput | Config,
  options?: WireOptions,
): Promise<AnthropicConversation & { report: CompactionReport }>;
export async function compactAnthropicMessages(
  conversation: { system?: Json | AnthropicSystemLike; messages: readonly (Json | AnthropicMessageLike)[] },
  config: ConfigInput | Config = {},
  options: WireOptions = {},
): Promise<{
  system?: Json | AnthropicSystemLike;
  messages: (JsonObject | AnthropicWritten<AnthropicMessageLike>)[];
  report: CompactionReport;
}> {
  assertOptions(options);
  const c = withProviderBytes(parseConfig(config), "anthropic");
  if (!isJsonObject(conversation as unknown as Json))
    throw new InputError("conversation", `expected an object { system?, messages }, got ${describeJson(conversation)}`);
  assertMessageList(conversation.messages);
  assertValueNesting(conversation.messages, "messages");
  assertValueNesting(conversation.system, "system");
  if (options.session !== undefined) return anthropicOnSession(conversation, c, options);
  // the SDK's message types are JSON data; the reader checks every field it reads
  const tag = { summaryTag: c.summary_tag };
  const read = readAnthropicMessages(
    [...conversation.messages] as Json[],
    conversation.system as Json | undefined,
    "messages",
    tag,
  );
  const r = await compactReading(
    sourcedReading(read, (ms) => writeAnthropicMessages(ms, tag), options.items),
    c,
    options,
  );
  // a cache breakpoint before the first changed message: the prefix the agent's requests cached is read, not re-written
  if (options.cacheBreakpoint === false) return { ...r.written, report: r.report };
  const messages = markBeforeFirstChange(
    conversation.messages as readonly JsonObject[],
    r.written.messages,
    anthropicBreakpoints,
    systemBreakpoints(r.written.system),
  );
  return { ...r.written, messages, report: r.report };
}

/** compactAnthropicMessages with a session: the system (if any) is the session's first item. */
async function anthropicOnSession(
  conversation: { system?: Json | AnthropicSystemLike; messages: readonly (Json | AnthropicMessageLike)[] },
  c: Config,
  options: WireOptions,
): Promise<AnthropicConversation & { report: CompactionReport }> {
  const messages = conversation.messages as readonly Json[];
  const system = conversation.system as Json | undefined;
  const items = system === undefined ? messages : [{ system }, ...messages];
  const pathOf = (i: number) => (system === undefined ? `messages[${i}]` : i === 0 ? "system" : `messages[${i - 1}]`);
  const r = await compactOnSession("compactAnthropicMessages", "anthropic", { items, pathOf }, c, options);
  const [first, ...rest] = r.context;
  if (isJsonObject(first) && first.role === undefined && first.system !== undefined)
    return { system: first.system, messages: rest as JsonObject[], report: r.report };
  return { messages: r.context as JsonObject[], report: r.report };
}

/** What a retried call gives back: the call's result, the messages it was finally sent with, and the retry when one was made. */
export interface RetriedCall<T, C> {
  readonly result: T;
  /** what the call was finally made with: the caller's own on a first success, else the compacted ones */
  readonly conversation: C;
  readonly retry?: OverflowRetry;
}

/**
 * Makes the agent's model call `call` with an OpenAI `messages` array and retries it once when
 * the provider refuses it for its size: a context overflow (model/context-overflow.ts: OpenAI's
 * context_length_exceeded, an OpenAI-compatible server's wording, HTTP 413, thrown by the
 * `openai` SDK or a fetch wrapper) compacts the messages with compactOpenAIMessages under the
 * settings the answer implies (overflow-retry.ts: its window as context_window, its prompt tokens
 * as the reported usage; with the `session` option the session is compacted and its context
 * sent) and calls again with them. Messages over the byte budget (max_request_bytes, by default
 * OpenAI's documented 50 MB) are compacted the same way before the call is made. A second overflow is an OverflowRetryError naming the tokens
 * before and after, what compaction did and the provider's messages. Keep the messages returned:
 * the next call goes on from them.
 */
export async function retryOpenAICall<M extends OpenAIChatMessageLike, T>(
  messages: readonly M[],
  call: (messages: (M | OpenAISummaryMessage)[]) => Promise<T>,
  config: ConfigInput | Config = {},
  options: WireOptions = {},
): Promise<RetriedCall<T, (M | OpenAISummaryMessage)[]>> {
  assertOptions(options);
  const c = parseConfig(config);
  return callWithRetry<(M | OpenAISummaryMessage)[], T>([...messages], call, async (ms, o) => {
    const read = readOpenAIMessages(ms as unknown as Json[], "messages", { summaryTag: c.summary_tag });
    const s = overflowSettings(c, o, countedTokens(read, c, options.counter), options.session === undefined);
    const r = await compactOpenAIMessages(
      ms,
      s.config,
      s.usage === undefined ? options : { ...options, usage: s.usage },
    );
    return { conversation: r.messages, report: r.report };
  });
}

/**
 * retryOpenAICall for an Anthropic conversation ({system?, messages}): an overflow (Anthropic's
 * "prompt is too long: M tokens > N maximum", its 413 request_too_large, thrown by the
 * `@anthropic-ai/sdk` or a fetch wrapper) compacts it with compactAnthropicMessages and calls again once.
 */
export async function retryAnthropicCall<M extends AnthropicMessageLike, S extends AnthropicSystemLike, T>(
  conversation: { system?: S; messages: readonly M[] },
  call: (conversation: { system?: S | string; messages: (M | AnthropicWritten<M>)[] }) => Promise<T>,
  config: ConfigInput | Config = {},
  options: WireOptions = {},
): Promise<RetriedCall<T, { system?: S | string; messages: (M | AnthropicWritten<M>)[] }>> {
  assertOptions(options);
  const c = parseConfig(config);
  type Conv = { system?: S | string; messages: (M | AnthropicWritten<M>)[] };
  const first: Conv = { ...conversation, messages: [...conversation.messages] };
  return callWithRetry<Conv, T>(
    first,
    call,
    async (conv, o) => {
      const read = readAnthropicMessages(
        conv.messages as unknown as Json[],
        conv.system as Json | undefined,
        "messages",
        {
          summaryTag: c.summary_tag,
        },
      );
      const s = overflowSettings(c, o, countedTokens(read, c, options.counter), options.session === undefined);
      const opts = s.usage === undefined ? options : { ...options, usage: s.usage };
      const r = await compactAnthropicMessages(conv as { system?: S; messages: readonly M[] }, s.config, opts);
      const { report, ...rest } = r;
      return { conversation: rest as Conv, report };
    },
    { provider: "anthropic", maxBytes: requestByteBudget(c, "anthropic") },
  );
}
