// The `safecut/adapters` entry: reading and writing conversations in the OpenAI and Anthropic
// wire shapes and as files, without loading the engine (no tokenizer, no config schema), for
// code that only converts conversations.

export type {
  Message,
  ToolCall,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  SummaryMessage,
} from "../engine/message.ts";
export { InputError, SafecutError } from "../engine/errors.ts";
export { readOpenAIMessages, writeOpenAIMessages, type FormatOptions } from "../adapters/openai.ts";
export { readAnthropicMessages, writeAnthropicMessages, type AnthropicConversation } from "../adapters/anthropic.ts";
export {
  readConversationFile,
  writeConversationFile,
  type ConversationFile,
  type ContainerName,
  type ReadOptions,
  type WriteOptions,
} from "../adapters/conversation-file.ts";
export { detectFormat, type FormatName } from "../adapters/detect.ts";
