// What a failed summarizer call is reported as: the provider, the host it was sent to (never its
// credentials), the model, the HTTP status and the provider's own error code and message (cut to
// MESSAGE_CHARS, API keys and URL credentials masked), and what the user can do about it. The
// HTTP layer builds one from each failed request (providers/http.ts); a custom summarizer's thrown
// error becomes one here (callFailureOf). The run's report, its `calls`, the session's records and
// the failure hook all carry this one shape.

import type { CallFailure } from "./call-failure-shape.ts";
import { SummarizerError } from "./errors.ts";
import { isJsonObject, type Json } from "./json.ts";

export { CALL_FAILURE_KINDS, type CallFailure, type CallFailureKind } from "./call-failure-shape.ts";

/** A run's step that failed: its last call's failure, the calls it made and the waits between them, and what to do. */
export interface SummarizerFailure extends CallFailure {
  /** calls made for the step (the first and its retries) */
  readonly attempts: number;
  /** the waits before each retry, in milliseconds */
  readonly waitsMs: readonly number[];
  /** what the user can do, in a few words */
  readonly advice: string;
}

/** The most characters of a provider's message a report keeps. */
export const MESSAGE_CHARS = 300;

/** The environment variable each HTTP provider's API key is read from (the CLI's and the library's `env`). */
export const API_KEY_ENV = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;

/** Secrets a message may hold: provider keys (sk-..., sk-ant-..., AIza...), bearer tokens, key query parameters, URL credentials. */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{8,}/g, "$1***"],
  [/\bAIza[A-Za-z0-9_-]{20,}/g, "AIza***"],
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, "$1***"],
  [/([?&](?:key|api_key|api-key|token|access_token)=)[^&\s"']+/gi, "$1***"],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi, "$1***@"],
];

/** `text` with every secret masked: the given ones (an API key sent) wherever they appear, and anything shaped like a key. */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("***");
  for (const [re, by] of SECRET_PATTERNS) out = out.replace(re, by);
  return out;
}

/** A message as a report keeps it: whitespace collapsed, secrets masked, cut to MESSAGE_CHARS with an ellipsis. */
export function reportedMessage(text: string, secrets: readonly string[] = []): string {
  const one = maskSecrets(text.replace(/\s+/g, " ").trim(), secrets);
  return one.length <= MESSAGE_CHARS ? one : `${one.slice(0, MESSAGE_CHARS - 3)}...`;
}

/** host[:port] of a URL, never its user or password; "" when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/**
 * The provider's error code and message in an error answer's body: `{"error": {"message", "code"
 * or "type"}}` (OpenAI, Anthropic, Google, llama.cpp), `{"message", "type"}` (vLLM), `{"error":
 * "text"}` (Ollama); any other body is its own message (a proxy's HTML page, plain text).
 */
export function providerError(body: string): { readonly code?: string; readonly message: string } {
  let parsed: Json | undefined;
  try {
    parsed = JSON.parse(body) as Json;
  } catch {
    return { message: body };
  }
  if (!isJsonObject(parsed)) return { message: body };
  const e = parsed.error;
  if (typeof e === "string") return { message: e };
  const o = isJsonObject(e) ? e : parsed;
  const message = typeof o.message === "string" ? o.message : body;
  // OpenAI's code (invalid_api_key), else the type (Anthropic's authentication_error, OpenAI's server_error), else Google's status
  const code = [o.code, o.type, o.status].find((x): x is string => typeof x === "string" && x !== "");
  return code === undefined ? { message } : { code, message };
}

/** The status a thrown value carries: a SummarizerError's, or a numeric `status` of another error (an SDK's APIError). */
export function statusOf(e: unknown): number | undefined {
  if (e instanceof SummarizerError) return e.status;
  if (typeof e !== "object" || e === null || !("status" in e)) return undefined;
  const s = (e as { status: unknown }).status;
  return typeof s === "number" && Number.isInteger(s) ? s : undefined;
}

/** A thrown value as a message: a SummarizerError's own message, "Name: message" for other errors, the value otherwise. */
function thrown(e: unknown): string {
  if (e instanceof SummarizerError) return e.message;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/**
 * The failure of a call that threw `e`: the one an HTTP summarizer attached to its error, else
 * (a custom summarizer's error, an SDK's) one built from it for `provider` and `model`.
 */
export function callFailureOf(e: unknown, provider: string, model: string): CallFailure {
  if (e instanceof SummarizerError && e.call !== undefined) return e.call;
  const status = statusOf(e);
  return {
    kind: "thrown",
    provider,
    model,
    ...(status === undefined ? {} : { status }),
    message: reportedMessage(thrown(e)),
  };
}

/** What the user can do about a failure of this kind and status. */
export function adviceFor(f: CallFailure): string {
  const env = f.provider in API_KEY_ENV ? API_KEY_ENV[f.provider as keyof typeof API_KEY_ENV] : "the API key";
  switch (f.kind) {
    case "timeout":
      return `raise timeout_ms (--timeout-ms), or check that ${f.host || "the server"} answers`;
    case "network":
      return `check base_url (--base-url) and that ${f.host || "the server"} is reachable`;
    case "oversized-answer":
      return "check that the server honours max_tokens (base_url may point at another API)";
    case "bad-answer":
      return `check that base_url (--base-url) points at an ${f.provider}-compatible API`;
    case "aborted":
      return "the caller's signal aborted the run: nothing to fix";
    case "http":
    case "thrown":
      return adviceForStatus(f.status, env);
  }
}

/** The advice for an HTTP status (undefined: a custom summarizer's error without one). */
function adviceForStatus(status: number | undefined, env: string): string {
  if (status === undefined) return "see the summarizer's message";
  if (status === 401) return `check ${env}`;
  if (status === 403) return `check that ${env} may use this model`;
  if (status === 404) return "check model (--model) and base_url (--base-url)";
  if (status === 413) return "the request is too large for the server: lower batch_tokens";
  if (status === 429) return "rate limited: retry later, lower batch_calls, or raise max_retry_wait_ms";
  if (status >= 500) return "the provider failed: retry later, or raise max_attempts";
  return "the server refused the request: its message says why";
}

/** The step's failure: its last call's, with the calls made, the waits and the advice. */
export function summarizerFailure(last: CallFailure, attempts: number, waitsMs: readonly number[]): SummarizerFailure {
  return { ...last, attempts, waitsMs: [...waitsMs], advice: adviceFor(last) };
}

/**
 * One line saying what failed and what to do, e.g. "the summarizer at api.openai.com
 * (gpt-4o-mini) answered 401 invalid_api_key after 1 attempt: check OPENAI_API_KEY".
 */
export function failureLine(f: SummarizerFailure): string {
  const where = f.host === undefined || f.host === "" ? `"${f.provider}"` : `at ${f.host}`;
  const what = failedWhat(f);
  const tries = `${f.attempts} attempt${f.attempts === 1 ? "" : "s"}`;
  const waits = f.waitsMs.length === 0 ? "" : ` (waited ${f.waitsMs.join(" + ")} ms)`;
  // a status reads "answered 401 ... after 1 attempt"; a sentence of its own takes a comma first
  const sep = f.kind === "http" ? " " : ", ";
  return `the summarizer ${where} (${f.model}) ${what}${sep}after ${tries}${waits}: ${f.advice}`;
}

/** What the call did, as the line says it. */
function failedWhat(f: SummarizerFailure): string {
  switch (f.kind) {
    case "http":
      return `answered ${f.status}${f.code === undefined ? "" : ` ${f.code}`}`;
    case "timeout":
    case "network":
    case "oversized-answer":
    case "bad-answer":
    case "aborted":
      return f.message;
    case "thrown":
      return `threw ${f.status === undefined ? "" : `${f.status}: `}${f.message}`;
  }
}
