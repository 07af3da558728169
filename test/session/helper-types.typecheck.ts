// Type-level tests of the wire helpers' `session` option, checked by `tsc --noEmit` and never
// run: an openSession session goes into each helper with histories typed by the SDK packages'
// own types, what comes back goes straight into the SDK calls, and an option that is not a
// session is refused by the compiler.
import type { MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions/completions";
import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import type { Session } from "../../src/session/session.ts";

export async function openAIChat(
  session: Session,
  history: ChatCompletionMessageParam[],
): Promise<ChatCompletionCreateParamsNonStreaming> {
  const r = await compactOpenAIMessages(history, { token_threshold: 1000 }, { session });
  return { model: "gpt-4o", messages: r.messages };
}

export async function anthropic(
  session: Session,
  system: string | TextBlockParam[],
  messages: MessageParam[],
): Promise<{ system?: string | TextBlockParam[]; messages: MessageParam[] }> {
  const r = await compactAnthropicMessages({ system, messages }, {}, { session });
  return { system: r.system, messages: r.messages };
}

export async function responses(
  session: Session,
  input: ResponseInputItem[],
): Promise<ResponseCreateParamsNonStreaming> {
  const r = await compactResponsesItems(input, {}, { session });
  return { model: "gpt-4o", input: r.input };
}

export async function notASession(history: ChatCompletionMessageParam[]): Promise<void> {
  // @ts-expect-error a location is not a session: open it first
  await compactOpenAIMessages(history, {}, { session: "agent.session.jsonl" });
}
