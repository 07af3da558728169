// The public library API of safecut (the package's main entry). The verified kernel has its own
// entry, `safecut/kernel` (src/entries/kernel.ts); `safecut/adapters` and `safecut/providers`
// load less for code that needs only those. Nothing here names a type of an optional peer (`ai`,
// `openai`, `@anthropic-ai/sdk`), so a project without them type-checks against this entry: what
// needs the AI SDK's or the Responses API's own types lives behind `safecut/ai-sdk` and
// `safecut/responses`.

export { readAnthropicMessages, writeAnthropicMessages } from "./adapters/anthropic.ts";
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
export { parseConfig } from "./engine/boundary/config-rules.ts";
export {
  BackgroundCompaction,
  type BackgroundOptions,
  type BackgroundStep,
} from "./engine/run/background.ts";
export { type CompactOptions, compactStore, type RunProgress } from "./engine/run/compact.ts";
export { storeDueBy } from "./engine/run/plan.ts";
export type {
  ClearedResult,
  ClearingReport,
  CompactionReport,
  LawCheck,
  Outcome,
  PlannedCall,
  PlannedRun,
  PlannedRunStretch,
  ReplacedStretch,
  SummarizerCallRecord,
  SummarizerCallTotals,
  UsageReport,
} from "./engine/run/report.ts";
export type {
  BeforeRunAnswer,
  BeforeRunInfo,
  RunFailure,
  RunHooks,
  SummarizerCallEvent,
} from "./engine/run/run-hooks.ts";
export { ConversationStore, type StoreOptions, type StoreSnapshot, type StoreView } from "./engine/store/store.ts";
export { type ShunBounds, UnshrinkableMemory } from "./engine/store/unshrinkable.ts";
export { requiredFacts } from "./engine/summarize/facts.ts";
export { type SummaryVerdict, validateSummary } from "./engine/summarize/validate-summary.ts";
export { type Truncated, type TruncateOptions, truncateToolOutput } from "./engine/tool-output/truncate.ts";
export { type CompactMessagesOptions, type CompactResult, compactMessages } from "./library/compact-messages.ts";
export {
  compactAnthropicMessages,
  compactOpenAIMessages,
  type RetriedCall,
  retryAnthropicCall,
  retryOpenAICall,
} from "./library/compact-wire.ts";
export { type OverflowRetry, OverflowRetryError } from "./library/overflow-retry.ts";
export type { ReportedUsage } from "./library/usage.ts";
export type { CallFailure, CallFailureKind, SummarizerFailure } from "./model/call-failure.ts";
export type { Config, ConfigInput, ProviderName } from "./model/config.ts";
export {
  type ContextOverflow,
  type OverflowProvider,
  overflowOfError,
  recognizeOverflow,
} from "./model/context-overflow.ts";
export {
  ConfigError,
  type ErrorKind,
  InputError,
  KernelBoundaryError,
  SafecutError,
  SummarizerError,
} from "./model/errors.ts";
export type { ItemMap, ItemSpan } from "./model/item-map.ts";
export type {
  AssistantMessage,
  Message,
  SummaryMessage,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from "./model/message.ts";
export { DEFAULT_PROMPT } from "./model/prompt-template.ts";
export type { Summarizer, SummaryRequest } from "./model/summarizer.ts";
export { bpeCounter, charCounter, type TokenCounter, tokenCounter } from "./model/tokens.ts";
export { type AnthropicSummarizerOptions, anthropicSummarizer } from "./providers/anthropic-summarizer.ts";
export { summarizerFromConfig } from "./providers/from-config.ts";
export { offlineSummarizer } from "./providers/offline-summarizer.ts";
export { type OpenAISummarizerOptions, openAISummarizer } from "./providers/openai-summarizer.ts";
export {
  compactAfterOverflow,
  type SessionCall,
  type SessionStep,
  sessionCall,
  sessionSettle,
  sessionStep,
} from "./session/agent-step.ts";
export {
  type BackgroundEvent,
  BackgroundSession,
  type BackgroundSessionOptions,
  type BackgroundSessionStep,
} from "./session/background-session.ts";
export { openSession } from "./session/open.ts";
export type { CallRef, ClearingRecord, CompactionRecord, RecordedCall, RestoreRecord } from "./session/record.ts";
export type { Session, SessionCompactOptions, SessionOptions } from "./session/session.ts";
export type { SessionStats } from "./session/session-stats.ts";

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
