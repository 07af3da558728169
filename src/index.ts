// The public library API of safecut (the package's main entry). The verified kernel has its own
// entry, `safecut/kernel` (src/entries/kernel.ts); `safecut/adapters` and `safecut/providers`
// load less for code that needs only those.

export { readAnthropicMessages, writeAnthropicMessages } from "./adapters/anthropic.ts";
export { compactAnthropicMessages, compactOpenAIMessages } from "./adapters/compact-wire.ts";
export { type ConversationFile, readConversationFile, writeConversationFile } from "./adapters/conversation-file.ts";
export { detectFormat, type FormatName } from "./adapters/detect.ts";
export { readOpenAIMessages, writeOpenAIMessages } from "./adapters/openai.ts";
export type {
  AnthropicMessageLike,
  AnthropicSystemLike,
  AnthropicWritten,
  OpenAIChatMessageLike,
  OpenAISummaryMessage,
} from "./adapters/sdk-shapes.ts";
export { runCli } from "./cli/main.ts";
export { type CompactOptions, compactStore } from "./engine/compact.ts";
export { type CompactMessagesOptions, type CompactResult, compactMessages } from "./engine/compact-messages.ts";
export {
  type Config,
  type ConfigInput,
  configSchema,
  type ProviderName,
  parseConfigShape,
  SAME_AS_AGENT,
  snapshotConfig,
} from "./engine/config.ts";
export { assertConfigValid, configView, parseConfig } from "./engine/config-rules.ts";
export {
  ConfigError,
  type ErrorKind,
  InputError,
  KernelBoundaryError,
  SafecutError,
  SummarizerError,
} from "./engine/errors.ts";
export { requiredFacts } from "./engine/facts.ts";
export type { ItemMap, ItemSpan } from "./engine/item-map.ts";
export { TokenLedger } from "./engine/ledger.ts";
export type {
  AssistantMessage,
  Message,
  SummaryMessage,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from "./engine/message.ts";
export { messageText, summaryMessage } from "./engine/message.ts";
export { type Plan, planStep } from "./engine/plan.ts";
export { DEFAULT_PROMPT, renderPrompt } from "./engine/prompt-template.ts";
export type { CompactionReport, LawCheck, Outcome, ReplacedStretch, UsageReport } from "./engine/report.ts";
export { ConversationStore, type StoreSnapshot, type StoreView } from "./engine/store.ts";
export {
  bpeCounter,
  charCounter,
  MESSAGE_OVERHEAD,
  messageTokens,
  type TokenCounter,
  tokenCounter,
} from "./engine/tokens.ts";
export { type Truncated, type TruncateOptions, truncateToolOutput } from "./engine/truncate.ts";
export type { ReportedUsage } from "./engine/usage.ts";
export { type SummaryVerdict, validateSummary } from "./engine/validate-summary.ts";
export { type KernelViews, kernelViews } from "./engine/views.ts";
export { assertWellFormed } from "./engine/wellformed.ts";
export { type AnthropicSummarizerOptions, anthropicSummarizer } from "./providers/anthropic-summarizer.ts";
export { summarizerFromConfig } from "./providers/from-config.ts";
export { offlineSummarizer } from "./providers/offline-summarizer.ts";
export { type OpenAISummarizerOptions, openAISummarizer } from "./providers/openai-summarizer.ts";
export type { Summarizer, SummaryRequest } from "./providers/summarizer.ts";

import { type CompactMessagesOptions, type CompactResult, compactMessages } from "./engine/compact-messages.ts";
import type { ConfigInput } from "./engine/config.ts";
import type { Message } from "./engine/message.ts";

/** Compacts a conversation's messages under `config` (unset settings take their defaults); alias of compactMessages. */
export function compact(
  conversation: readonly Message[],
  config: ConfigInput = {},
  options: CompactMessagesOptions = {},
): Promise<CompactResult> {
  return compactMessages(conversation, config, options);
}
