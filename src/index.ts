// The public library API of safecut (the package's main entry). The verified kernel has its own
// entry, `safecut/kernel` (src/entries/kernel.ts); `safecut/adapters` and `safecut/providers`
// load less for code that needs only those.

export type {
  Message,
  ToolCall,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  SummaryMessage,
} from "./engine/message.ts";
export { summaryMessage, messageText } from "./engine/message.ts";
export {
  SafecutError,
  InputError,
  ConfigError,
  SummarizerError,
  KernelBoundaryError,
  type ErrorKind,
} from "./engine/errors.ts";
export {
  configSchema,
  parseConfigShape,
  snapshotConfig,
  SAME_AS_AGENT,
  type Config,
  type ConfigInput,
  type ProviderName,
} from "./engine/config.ts";
export { parseConfig, assertConfigValid, configView } from "./engine/config-rules.ts";
export { DEFAULT_PROMPT, renderPrompt } from "./engine/prompt-template.ts";
export {
  bpeCounter,
  charCounter,
  tokenCounter,
  messageTokens,
  MESSAGE_OVERHEAD,
  type TokenCounter,
} from "./engine/tokens.ts";
export { TokenLedger } from "./engine/ledger.ts";
export { ConversationStore, type StoreSnapshot, type StoreView } from "./engine/store.ts";
export { assertWellFormed } from "./engine/wellformed.ts";
export { kernelViews, type KernelViews } from "./engine/views.ts";
export { planStep, type Plan } from "./engine/plan.ts";
export { compactStore, type CompactOptions } from "./engine/compact.ts";
export { compactMessages, type CompactMessagesOptions, type CompactResult } from "./engine/compact-messages.ts";
export { requiredFacts } from "./engine/facts.ts";
export { validateSummary, type SummaryVerdict } from "./engine/validate-summary.ts";
export { truncateToolOutput, type TruncateOptions, type Truncated } from "./engine/truncate.ts";
export type { CompactionReport, ReplacedStretch, LawCheck, Outcome } from "./engine/report.ts";
export { readOpenAIMessages, writeOpenAIMessages } from "./adapters/openai.ts";
export { readAnthropicMessages, writeAnthropicMessages } from "./adapters/anthropic.ts";
export { readConversationFile, writeConversationFile, type ConversationFile } from "./adapters/conversation-file.ts";
export { detectFormat, type FormatName } from "./adapters/detect.ts";
export { compactOpenAIMessages, compactAnthropicMessages } from "./adapters/compact-wire.ts";
export type {
  OpenAIChatMessageLike,
  OpenAISummaryMessage,
  AnthropicMessageLike,
  AnthropicSystemLike,
  AnthropicWritten,
} from "./adapters/sdk-shapes.ts";
export type { ItemMap, ItemSpan } from "./adapters/item-map.ts";
export { offlineSummarizer } from "./providers/offline-summarizer.ts";
export { openAISummarizer, type OpenAISummarizerOptions } from "./providers/openai-summarizer.ts";
export { anthropicSummarizer, type AnthropicSummarizerOptions } from "./providers/anthropic-summarizer.ts";
export { summarizerFromConfig } from "./providers/from-config.ts";
export type { Summarizer, SummaryRequest } from "./providers/summarizer.ts";
export { runCli } from "./cli/main.ts";

import { compactMessages, type CompactMessagesOptions, type CompactResult } from "./engine/compact-messages.ts";
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
