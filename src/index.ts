// The public library API of safecut (the package's main entry). The verified kernel has its own
// entry, `safecut/kernel` (src/entries/kernel.ts); `safecut/adapters` and `safecut/providers`
// load less for code that needs only those.

export {
  compactBeforeStep,
  compactModelMessages,
  type ModelMessagesReading,
  readModelMessages,
  writeModelMessages,
} from "./adapters/ai-sdk.ts";
export { readAnthropicMessages, writeAnthropicMessages } from "./adapters/anthropic.ts";
export { compactAnthropicMessages, compactOpenAIMessages } from "./adapters/compact-wire.ts";
export { type ConversationFile, readConversationFile, writeConversationFile } from "./adapters/conversation-file.ts";
export { detectFormat, type FormatName } from "./adapters/detect.ts";
export { readOpenAIMessages, writeOpenAIMessages } from "./adapters/openai.ts";
export {
  compactResponsesItems,
  type ResponsesReading,
  readResponsesItems,
  writeResponsesItems,
} from "./adapters/responses.ts";
export type {
  AnthropicMessageLike,
  AnthropicSystemLike,
  AnthropicWritten,
  OpenAIChatMessageLike,
  OpenAISummaryMessage,
} from "./adapters/sdk-shapes.ts";
export { runCli } from "./cli/main.ts";
export { assertConfigValid, configView, parseConfig } from "./engine/boundary/config-rules.ts";
export { assertWellFormed } from "./engine/boundary/wellformed.ts";
export { type CompactOptions, compactStore } from "./engine/run/compact.ts";
export type { ItemMap, ItemSpan } from "./engine/run/item-map.ts";
export { type Plan, planStep } from "./engine/run/plan.ts";
export type { CompactionReport, LawCheck, Outcome, ReplacedStretch, UsageReport } from "./engine/run/report.ts";
export type { ReportedUsage } from "./engine/run/usage.ts";
export { TokenLedger } from "./engine/store/ledger.ts";
export { ConversationStore, type StoreOptions, type StoreSnapshot, type StoreView } from "./engine/store/store.ts";
export { type ShunBounds, UnshrinkableMemory } from "./engine/store/unshrinkable.ts";
export { type KernelViews, kernelViews } from "./engine/store/views.ts";
export { requiredFacts } from "./engine/summarize/facts.ts";
export { type SummaryVerdict, validateSummary } from "./engine/summarize/validate-summary.ts";
export { type Truncated, type TruncateOptions, truncateToolOutput } from "./engine/tool-output/truncate.ts";
export { type CompactMessagesOptions, type CompactResult, compactMessages } from "./library/compact-messages.ts";
export {
  type Config,
  type ConfigInput,
  configSchema,
  type ProviderName,
  parseConfigShape,
  SAME_AS_AGENT,
  snapshotConfig,
} from "./model/config.ts";
export {
  ConfigError,
  type ErrorKind,
  InputError,
  KernelBoundaryError,
  SafecutError,
  SummarizerError,
} from "./model/errors.ts";
export type {
  AssistantMessage,
  Message,
  SummaryMessage,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from "./model/message.ts";
export { messageText, summaryMessage } from "./model/message.ts";
export { DEFAULT_PROMPT, renderPrompt } from "./model/prompt-template.ts";
export type { Summarizer, SummaryRequest } from "./model/summarizer.ts";
export {
  bpeCounter,
  charCounter,
  MESSAGE_OVERHEAD,
  messageTokens,
  type TokenCounter,
  tokenCounter,
} from "./model/tokens.ts";
export { type AnthropicSummarizerOptions, anthropicSummarizer } from "./providers/anthropic-summarizer.ts";
export { summarizerFromConfig } from "./providers/from-config.ts";
export { offlineSummarizer } from "./providers/offline-summarizer.ts";
export { type OpenAISummarizerOptions, openAISummarizer } from "./providers/openai-summarizer.ts";
export { openSession } from "./session/open.ts";
export type { CompactionRecord } from "./session/record.ts";
export type { Session, SessionCompactOptions, SessionOptions } from "./session/session.ts";

import { type CompactMessagesOptions, type CompactResult, compactMessages } from "./library/compact-messages.ts";
import type { ConfigInput } from "./model/config.ts";
import type { Message } from "./model/message.ts";

/** Compacts a conversation's messages under `config` (unset settings take their defaults); alias of compactMessages. */
export function compact(
  conversation: readonly Message[],
  config: ConfigInput = {},
  options: CompactMessagesOptions = {},
): Promise<CompactResult> {
  return compactMessages(conversation, config, options);
}
