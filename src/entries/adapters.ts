// The `safecut/adapters` entry: reading and writing conversations in the OpenAI and Anthropic
// wire shapes and as files, without loading the engine (no tokenizer, no config schema), for
// code that only converts conversations.

export { type AnthropicConversation, readAnthropicMessages, writeAnthropicMessages } from "../adapters/anthropic.ts";
export {
  type ContainerName,
  type ConversationFile,
  type ReadOptions,
  readConversationFile,
  type WriteOptions,
  writeConversationFile,
} from "../adapters/conversation-file.ts";
export { detectFormat, type FormatName } from "../adapters/detect.ts";
export { type FormatOptions, readOpenAIMessages, writeOpenAIMessages } from "../adapters/openai.ts";
export { InputError, SafecutError } from "../model/errors.ts";
export type {
  AssistantMessage,
  Message,
  SummaryMessage,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from "../model/message.ts";
