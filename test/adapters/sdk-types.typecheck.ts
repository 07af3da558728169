// Type-level tests, checked by `tsc --noEmit` (npm run typecheck) and never run: histories
// typed with the official SDK packages' own types go into safecut's wire-format entry points
// without casts, what comes back goes straight into the SDK calls, and a history of another
// SDK's shape is refused by the compiler. Each `@ts-expect-error` fails the type check if the
// line under it ever compiles.
import type { MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import {
  type LanguageModel,
  type ModelMessage,
  type PrepareStepFunction,
  streamText,
  ToolLoopAgent,
  type ToolSet,
} from "ai";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions/completions";
import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { compactBeforeStep, compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";

export async function openAIChat(
  history: ChatCompletionMessageParam[],
): Promise<ChatCompletionCreateParamsNonStreaming> {
  const r = await compactOpenAIMessages(history, { token_threshold: 1000 });
  return { model: "gpt-4o", messages: r.messages };
}

export async function openAIChatReadonly(
  history: readonly ChatCompletionMessageParam[],
): Promise<ChatCompletionMessageParam[]> {
  return (await compactOpenAIMessages(history)).messages;
}

export async function anthropic(
  system: string | TextBlockParam[],
  messages: MessageParam[],
): Promise<{ system?: string | TextBlockParam[]; messages: MessageParam[] }> {
  const r = await compactAnthropicMessages({ system, messages });
  return { system: r.system, messages: r.messages };
}

export async function responses(input: ResponseInputItem[]): Promise<ResponseCreateParamsNonStreaming> {
  const r = await compactResponsesItems(input);
  return { model: "gpt-5", input: r.input };
}

export async function aiSdk(messages: ModelMessage[]): Promise<ModelMessage[]> {
  return (await compactModelMessages(messages)).messages;
}

// the hook is a prepareStep for any tool set, in streamText and in an agent
export const hook: PrepareStepFunction<ToolSet> = compactBeforeStep({ token_threshold: 50_000 });

export function inAgentLoops(model: LanguageModel, messages: ModelMessage[]): unknown[] {
  const stream = streamText({ model, messages, prepareStep: compactBeforeStep() });
  const agent = new ToolLoopAgent({ model, prepareStep: compactBeforeStep({ retention_window: 4 }) });
  return [stream, agent];
}

export async function refused(
  anthropicMessages: MessageParam[],
  chat: ChatCompletionMessageParam[],
  model: ModelMessage[],
): Promise<void> {
  // @ts-expect-error an Anthropic history is not an OpenAI chat history
  await compactOpenAIMessages(anthropicMessages);
  // @ts-expect-error an OpenAI chat history (role "tool" with tool_call_id) is not an Anthropic one
  await compactAnthropicMessages({ messages: chat });
  // @ts-expect-error AI SDK messages are not Responses items
  await compactResponsesItems(model);
  // @ts-expect-error OpenAI chat messages are not AI SDK messages
  await compactModelMessages(chat);
}
