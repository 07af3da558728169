// The error answers real providers give, as loopback servers send them: each provider's JSON
// error body (shape, type, code and wording as the provider documents and sends them), its
// status and headers, per failure kind. The fault tests script http-imitation.ts with them.
import type { Behavior } from "./http-imitation.ts";

/** The providers whose error bodies are imitated. */
export type ErrorApi = "openai" | "anthropic";

/** The failures a summarizer call meets: an HTTP error answer, or none at all. */
export type FailureKind = "401" | "404" | "429" | "500" | "timeout" | "reset" | "oversized";

/** An OpenAI error body: `{"error": {message, type, param, code}}`. */
function openAIError(message: string, type: string, code: string | null, param: string | null = null): string {
  return JSON.stringify({ error: { message, type, param, code } });
}

/** An Anthropic error body: `{"type": "error", "error": {type, message}, "request_id"}`. */
function anthropicError(type: string, message: string): string {
  return JSON.stringify({ type: "error", error: { type, message }, request_id: "req_011CSHoEeqs5C35K2UUqR7Fy" });
}

/** The API key the tests send; a report must never show it. */
export const TEST_KEY = "sk-proj-TESTKEY0123456789abcdefABCDEF";

/** OpenAI's answers: its 401 shows a masked key, as OpenAI does. */
const OPENAI: Record<"401" | "404" | "429" | "500", Behavior> = {
  "401": {
    kind: "raw",
    status: 401,
    body: openAIError(
      "Incorrect API key provided: sk-proj-********************************CDEF. You can find your API key at https://platform.openai.com/account/api-keys.",
      "invalid_request_error",
      "invalid_api_key",
    ),
  },
  "404": {
    kind: "raw",
    status: 404,
    body: openAIError(
      "The model `gpt-4o-mini` does not exist or you do not have access to it.",
      "invalid_request_error",
      "model_not_found",
    ),
  },
  "429": {
    kind: "raw",
    status: 429,
    headers: { "retry-after": "1" },
    body: openAIError(
      "Rate limit reached for gpt-4o-mini in organization org-abc123 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.",
      "requests",
      "rate_limit_exceeded",
    ),
  },
  "500": {
    kind: "raw",
    status: 500,
    body: openAIError("The server had an error while processing your request. Sorry about that!", "server_error", null),
  },
};

/** Anthropic's answers. */
const ANTHROPIC: Record<"401" | "404" | "429" | "500", Behavior> = {
  "401": { kind: "raw", status: 401, body: anthropicError("authentication_error", "invalid x-api-key") },
  "404": { kind: "raw", status: 404, body: anthropicError("not_found_error", "model: claude-haiku-4-5") },
  "429": {
    kind: "raw",
    status: 429,
    headers: { "retry-after": "1" },
    body: anthropicError(
      "rate_limit_error",
      "This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.",
    ),
  },
  "500": { kind: "raw", status: 500, body: anthropicError("api_error", "Internal server error") },
};

/** The provider's answer for `kind`: its error body, a hang, a dropped connection, or a 200 far longer than any summary. */
export function failureBehavior(api: ErrorApi, kind: FailureKind): Behavior {
  if (kind === "timeout") return { kind: "hang" };
  if (kind === "reset") return { kind: "destroy" };
  if (kind === "oversized")
    return { kind: "raw", status: 200, body: `{"id":"x","pad":"${"a".repeat(8 * 1024 * 1024)}"}` };
  return (api === "openai" ? OPENAI : ANTHROPIC)[kind];
}

/** The limit answers a model's server gives: a request over its output cap or its context window. */
export type LimitRefusal =
  | { readonly kind: "output-cap"; readonly asked: number; readonly cap: number; readonly param: string }
  | { readonly kind: "prompt-too-long"; readonly input: number; readonly window: number }
  | { readonly kind: "prompt-and-answer"; readonly input: number; readonly asked: number; readonly window: number };

/** OpenAI's 400 for a request over gpt-4o-mini's (or another model's) limits, as OpenAI words it. */
export function openAILimitError(r: LimitRefusal): Behavior {
  const body =
    r.kind === "output-cap"
      ? openAIError(
          `${r.param} is too large: ${r.asked}. This model supports at most ${r.cap} completion tokens, whereas you provided ${r.asked}.`,
          "invalid_request_error",
          null,
          r.param,
        )
      : r.kind === "prompt-too-long"
        ? openAIError(
            `This model's maximum context length is ${r.window} tokens. However, your messages resulted in ${r.input} tokens. Please reduce the length of the messages.`,
            "invalid_request_error",
            "context_length_exceeded",
            "messages",
          )
        : openAIError(
            `This model's maximum context length is ${r.window} tokens. However, you requested ${r.input + r.asked} tokens (${r.input} in the messages, ${r.asked} in the completion). Please reduce the length of the messages or completion.`,
            "invalid_request_error",
            "context_length_exceeded",
            "messages",
          );
  return { kind: "raw", status: 400, body };
}

/** Anthropic's 400 for a request over a model's limits (`modelId`: the dated id its message names). */
export function anthropicLimitError(r: LimitRefusal, modelId: string): Behavior {
  const message =
    r.kind === "output-cap"
      ? `max_tokens: ${r.asked} > ${r.cap}, which is the maximum allowed number of output tokens for ${modelId}`
      : r.kind === "prompt-too-long"
        ? `prompt is too long: ${r.input} tokens > ${r.window} maximum`
        : `input length and \`max_tokens\` exceed context limit: ${r.input} + ${r.asked} > ${r.window}, decrease input length or \`max_tokens\` and try again`;
  return { kind: "raw", status: 400, body: anthropicError("invalid_request_error", message) };
}

/**
 * llama.cpp's server (llama-server, an OpenAI-compatible endpoint) refusing a prompt longer than
 * its context (n_ctx): HTTP 400 with its own error type and the two counts.
 */
export function llamaCppContextError(input: number, window: number): Behavior {
  return {
    kind: "raw",
    status: 400,
    body: JSON.stringify({
      error: {
        code: 400,
        message: `request (${input} tokens) exceeds the available context size (${window} tokens), try increasing it`,
        type: "exceed_context_size_error",
        n_prompt_tokens: input,
        n_ctx: window,
      },
    }),
  };
}

/**
 * OpenAI's answer to a chat completions request that names its output limit `max_tokens` for a
 * reasoning model (o1, o3, o4-mini, the gpt-5 family), which takes `max_completion_tokens` only.
 */
export const OPENAI_MAX_TOKENS_UNSUPPORTED: Behavior = {
  kind: "raw",
  status: 400,
  body: openAIError(
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    "invalid_request_error",
    "unsupported_parameter",
    "max_tokens",
  ),
};
