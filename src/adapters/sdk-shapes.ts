// The message shapes the wire-format entry points accept, stated structurally so that the
// official SDKs' own types fit them (the `openai` package's ChatCompletionMessageParam, the
// `@anthropic-ai/sdk` package's MessageParam and TextBlockParam) without the core package
// depending on either SDK; test/adapters/sdk-types.typecheck.ts checks that they fit, and that
// one SDK's history is refused where the other's is expected. The readers still check every
// field at run time: these types only let the compiler catch a wrong shape early.

/** The content part kinds of OpenAI chat messages (user, assistant, system, tool). */
type OpenAIPartType = "text" | "image_url" | "input_audio" | "file" | "refusal";

/** One OpenAI chat message as the `openai` package types it (ChatCompletionMessageParam fits). */
export interface OpenAIChatMessageLike {
  readonly role: "system" | "developer" | "user" | "assistant" | "tool" | "function";
  readonly content?: string | null | readonly { readonly type: OpenAIPartType }[];
}

/** A summary as compactOpenAIMessages writes it: an assistant message (a ChatCompletionAssistantMessageParam). */
export interface OpenAISummaryMessage {
  role: "assistant";
  content: string;
}

/** One Anthropic message as the `@anthropic-ai/sdk` package types it (MessageParam fits). */
export interface AnthropicMessageLike {
  readonly role: "user" | "assistant" | "system";
  readonly content: string | readonly { readonly type: string }[];
}

/** Anthropic's top-level `system`: a string or text blocks (TextBlockParam[] fits). */
export type AnthropicSystemLike = string | readonly { readonly type: "text"; readonly text: string }[];

/** A content block of one of the messages `M`. */
type BlockOf<M extends AnthropicMessageLike> = Extract<M["content"], readonly unknown[]>[number];

/**
 * A message compactAnthropicMessages writes: the caller's own message, a summary (an assistant
 * message), or a user message rebuilt from the caller's blocks and new tool results or text.
 */
export type AnthropicWritten<M extends AnthropicMessageLike> =
  | M
  | { role: "assistant"; content: string }
  | {
      role: "user";
      content:
        | string
        | (
            | BlockOf<M>
            | { type: "text"; text: string }
            | { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean }
          )[];
    };
