// JSON over HTTP with Node's built-in fetch: one request per call, a timeout combined with the
// caller's AbortSignal. A failure says what a retry needs to know (transient or not, the HTTP
// status, the server's Retry-After); whether and when to retry is the engine's one retry policy
// (src/engine/summarize/retry-policy.ts), so retries never stack.
import { ConfigError, SummarizerError } from "../model/errors.ts";
import type { Json } from "../model/json.ts";
import { SETTINGS } from "../model/settings-table.ts";
import type { SummaryRequest } from "../model/summarizer.ts";

/** Options of one JSON POST. */
export interface PostOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** the most bytes of an answer's body that are read; a longer answer is refused, unread past the limit */
  readonly maxAnswerBytes: number;
  /** status label in errors, e.g. "OpenAI" */
  readonly service: string;
}

/** Seconds from a Retry-After header (delta-seconds or HTTP date), if parseable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return s;
  const t = Date.parse(header);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, (t - now) / 1000);
}

/** Bytes an answer's body may take per token of max_tokens: a token is a few characters, JSON escapes at most six bytes each. */
export const ANSWER_BYTES_PER_TOKEN = 64;
/** Bytes every answer may take besides its text: the JSON envelope, ids, usage, a provider's extra fields. */
export const ANSWER_BYTES_BASE = 64 * 1024;

/** The most bytes read from the answer to a summary request of at most `maxTokens` tokens. */
export function maxAnswerBytes(maxTokens: number): number {
  return ANSWER_BYTES_BASE + maxTokens * ANSWER_BYTES_PER_TOKEN;
}

/**
 * Reads a body as text, chunk by chunk, and stops (cancelling the download) as soon as it passes
 * `max` bytes; a declared Content-Length above `max` is refused before reading anything.
 */
async function readCapped(res: Response, max: number, service: string): Promise<string> {
  const limit = `the ${max} bytes an answer within max_tokens may take`;
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw new SummarizerError(`${service} answer declares ${declared} bytes, more than ${limit}: refused unread`);
  }
  if (res.body === null) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel();
      throw new SummarizerError(`${service} answer is longer than ${limit}: refused, reading stopped there`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** POSTs JSON once and returns the parsed answer; a failure is a SummarizerError describing it. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: Json,
  o: PostOptions,
): Promise<Json> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
    text = await readCapped(res, o.maxAnswerBytes, o.service);
  } catch (e) {
    if (e instanceof SummarizerError) throw e;
    if (o.signal?.aborted) throw new SummarizerError(`${o.service} request aborted`);
    if (timeout.aborted) throw new SummarizerError(`${o.service} request timed out after ${o.timeoutMs} ms`, true);
    const c = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
    const cause = c?.code ?? c?.errors?.[0]?.code ?? c?.message ?? (e as Error).message;
    throw new SummarizerError(`${o.service} request failed: network error (${cause})`, true);
  }
  if (!res.ok) {
    const detail = text.slice(0, 200).replace(/\s+/g, " ");
    const transient = res.status === 429 || res.status >= 500;
    const wait = retryAfterSeconds(res.headers.get("retry-after"));
    throw new SummarizerError(`${o.service} answered HTTP ${res.status}: ${detail}`, transient, wait, res.status);
  }
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new SummarizerError(`${o.service} answered with invalid JSON: ${text.slice(0, 100)}`);
  }
}

/** Settings of an HTTP summarizer (the OpenAI-compatible and the Anthropic one take the same). */
export interface HttpSummarizerOptions {
  /** default: the provider's public endpoint */
  readonly baseUrl?: string;
  /** sent as the provider's API key header when present */
  readonly apiKey?: string;
  /** default: the timeout_ms setting's default */
  readonly timeoutMs?: number;
}

/** The base URL a summarizer is made with (`fallback` when none is given); refuses one that is not an http(s) URL. */
export function baseUrlOf(opts: HttpSummarizerOptions, fallback: string): string {
  const base = opts.baseUrl ?? fallback;
  const rule = SETTINGS.base_url.rule;
  if (!rule.holds(base)) throw new ConfigError("base_url", `${rule.says}, got ${JSON.stringify(base)}`);
  return base;
}

/**
 * POSTs one summary request: both APIs take the same body (the model, the summary's token limit
 * and the prompt as one user message); only the URL, the headers and the answer's shape differ.
 */
export function postSummaryRequest(
  url: string,
  headers: Record<string, string>,
  req: Pick<SummaryRequest, "prompt" | "maxTokens" | "model" | "signal">,
  opts: HttpSummarizerOptions,
  service: string,
): Promise<Json> {
  return postJson(
    url,
    headers,
    { model: req.model, max_tokens: req.maxTokens, messages: [{ role: "user", content: req.prompt }] },
    {
      timeoutMs: opts.timeoutMs ?? SETTINGS.timeout_ms.default,
      signal: req.signal,
      maxAnswerBytes: maxAnswerBytes(req.maxTokens),
      service,
    },
  );
}
