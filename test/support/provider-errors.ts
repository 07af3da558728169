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
