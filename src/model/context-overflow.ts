// The one recogniser of a provider's context-overflow answer to the agent's own model call: the
// request was refused because the prompt is larger than the model's window (in tokens) or than
// the provider's request size (in bytes). OpenAI (400, code context_length_exceeded), Anthropic
// (400 invalid_request_error "prompt is too long: M tokens > N maximum"; 413 request_too_large),
// Google Gemini (400 INVALID_ARGUMENT "The input token count (M) exceeds the maximum number of
// tokens allowed (N)."), OpenAI-compatible servers (vLLM's "This model's maximum context length
// is N tokens. However, you requested M tokens (...)", llama.cpp's exceed_context_size_error with
// n_prompt_tokens and n_ctx) and any HTTP 413. It reads a status and a body (or a thrown SDK
// error holding them) and gives a typed answer: which provider, tokens or bytes, the counts the
// text reports. It decides nothing: the retry (library/overflow-retry.ts) and the kernel's
// trigger do.
import { providerError, reportedMessage, statusOf } from "./call-failure.ts";
import { isJsonObject, type Json } from "./json.ts";

/** Whose overflow answer it is, by its wording and codes. */
export type OverflowProvider = "openai" | "anthropic" | "google" | "openai-compatible" | "unknown";

/** A context-overflow answer, recognised. */
export interface ContextOverflow {
  readonly provider: OverflowProvider;
  /** "tokens": over the model's window; "bytes": over the provider's request size (HTTP 413) */
  readonly over: "tokens" | "bytes";
  readonly status: number;
  /** the prompt's tokens as the provider counted them, when its text says */
  readonly promptTokens?: number;
  /** the model's window as the provider states it, when its text says */
  readonly contextWindow?: number;
  /** the provider's message, as a report keeps it (secrets masked, cut) */
  readonly message: string;
}

const int = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const n = Number(s.replace(/,/g, ""));
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/** The counts a wording gives: [prompt tokens, window]. */
type Counts = { readonly promptTokens?: number; readonly contextWindow?: number };

const withCounts = (c: Counts): Counts => ({
  ...(c.promptTokens === undefined ? {} : { promptTokens: c.promptTokens }),
  ...(c.contextWindow === undefined ? {} : { contextWindow: c.contextWindow }),
});

/** OpenAI's and vLLM's wording: the window, then "your messages resulted in M" or "you requested T tokens (M in the messages, ...)". */
function maximumContextLength(message: string): Counts | undefined {
  const w = /maximum context length is ([\d,]+) tokens/i.exec(message);
  if (w === null) return undefined;
  const inMessages = /\(([\d,]+) in the messages/i.exec(message);
  const resulted = /messages resulted in ([\d,]+) tokens/i.exec(message);
  const requested = /you requested ([\d,]+) tokens/i.exec(message);
  const prompt = inMessages?.[1] ?? resulted?.[1] ?? requested?.[1];
  return withCounts({ contextWindow: int(w[1]), promptTokens: int(prompt) });
}

/** The body's top-level error object, if any (`{"error": {...}}`). */
function errorObject(body: string): { readonly [k: string]: Json } | undefined {
  try {
    const parsed = JSON.parse(body) as Json;
    if (!isJsonObject(parsed)) return undefined;
    return isJsonObject(parsed.error) ? parsed.error : parsed;
  } catch {
    return undefined;
  }
}

/**
 * Recognises an error answer (its HTTP status and body) as a context overflow; undefined for any
 * other answer (a 400 for another reason, a 401, a 429 ...).
 */
export function recognizeOverflow(status: number, body: string): ContextOverflow | undefined {
  const { code, message } = providerError(body);
  const o = errorObject(body);
  const kept = reportedMessage(message);
  const base = { status, message: kept };
  // llama.cpp: its own type, with the counts as fields (some versions answer 500, some 400)
  if (code === "exceed_context_size_error" || /exceeds the available context size/i.test(message)) {
    const n = typeof o?.n_prompt_tokens === "number" ? o.n_prompt_tokens : undefined;
    const w = typeof o?.n_ctx === "number" ? o.n_ctx : undefined;
    return {
      provider: "openai-compatible",
      over: "tokens",
      ...base,
      ...withCounts({ promptTokens: n, contextWindow: w }),
    };
  }
  if (status === 413) {
    const provider: OverflowProvider =
      code === "request_too_large" ? "anthropic" : code === "context_length_exceeded" ? "openai" : "unknown";
    return { provider, over: "bytes", ...base };
  }
  const anthropic = /prompt is too long: ([\d,]+) tokens > ([\d,]+) maximum/i.exec(message);
  if (anthropic !== null)
    return {
      provider: "anthropic",
      over: "tokens",
      ...base,
      ...withCounts({ promptTokens: int(anthropic[1]), contextWindow: int(anthropic[2]) }),
    };
  if (/prompt is too long/i.test(message)) return { provider: "anthropic", over: "tokens", ...base };
  const google = /input token count \(([\d,]+)\) exceeds the maximum number of tokens allowed \(([\d,]+)\)/i.exec(
    message,
  );
  if (google !== null)
    return {
      provider: "google",
      over: "tokens",
      ...base,
      ...withCounts({ promptTokens: int(google[1]), contextWindow: int(google[2]) }),
    };
  const counts = maximumContextLength(message);
  if (code === "context_length_exceeded") return { provider: "openai", over: "tokens", ...base, ...(counts ?? {}) };
  // vLLM and other servers speaking OpenAI's wording without its code (vLLM: type BadRequestError, code 400)
  if (counts !== undefined) return { provider: "openai-compatible", over: "tokens", ...base, ...counts };
  return undefined;
}

/** A field of an object, when it is one. */
const field = (e: object, k: string): unknown => (k in e ? (e as Record<string, unknown>)[k] : undefined);

/**
 * Recognises a thrown error of the agent's model call as a context overflow: the AI SDK's
 * APICallError (`statusCode`, `responseBody`), the OpenAI and Anthropic SDKs' APIError (`status`,
 * `error`: the parsed body), or an error whose message holds the provider's answer (a plain fetch
 * wrapper's `HTTP 400: {...}`); undefined for anything else.
 */
export function overflowOfError(e: unknown): ContextOverflow | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const sc = field(e, "statusCode");
  const status = typeof sc === "number" ? sc : statusOf(e);
  const rb = field(e, "responseBody");
  const parsed = field(e, "error");
  const body =
    typeof rb === "string"
      ? rb
      : parsed !== undefined && typeof parsed === "object" && parsed !== null
        ? // the OpenAI SDK keeps the body's `error` object, the Anthropic SDK the whole body
          JSON.stringify("error" in parsed ? parsed : { error: parsed })
        : undefined;
  const msg = e instanceof Error ? e.message : "";
  if (status !== undefined) {
    const r = recognizeOverflow(status, body ?? msg);
    if (r !== undefined || body !== undefined) return r;
  }
  // no status: a message naming one ("HTTP 413 ...", "400 {...}") and holding the body
  const m = /\b(4\d\d|5\d\d)\b\D*?(\{[\s\S]*\})?\s*$/.exec(msg);
  if (m === null) return undefined;
  return recognizeOverflow(Number(m[1]), m[2] ?? msg);
}

/**
 * The largest request each provider documents accepting, in bytes, for the default of
 * max_request_bytes (the retry helpers' budget when it is null). Sources, as their docs say:
 * Anthropic's API overview, "Request size limits": 32 MB for the standard endpoints (Messages,
 * Token Counting), refused with 413 request_too_large by Cloudflare before the API (Batch 256 MB
 * and Files 500 MB do not apply to a model call); Google's Gemini API: 20 MB for a request with
 * inline data, the whole request; OpenAI documents no general request size for chat
 * completions: its vision guide's "up to 50 MB total payload size per request" is about a
 * request's images, the one figure it gives, taken as the whole request's; none for an
 * OpenAI-compatible server (each sets its own).
 */
export const PROVIDER_REQUEST_BYTES: Readonly<Record<"openai" | "anthropic" | "google", number>> = {
  openai: 50 * 1024 * 1024,
  anthropic: 32 * 1024 * 1024,
  google: 20 * 1024 * 1024,
};

/** The provider of an AI SDK model by its `provider` name ("openai.chat", "anthropic.messages", "google.generative-ai"); "unknown" for any other. */
export function providerNamed(name: string): OverflowProvider {
  for (const p of ["openai", "anthropic", "google"] as const) if (name === p || name.startsWith(`${p}.`)) return p;
  return "unknown";
}
