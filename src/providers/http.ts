// JSON over HTTP with Node's built-in fetch: one request per call, a timeout combined with the
// caller's AbortSignal. A failure says what a retry needs to know (transient or not, the HTTP
// status, the server's Retry-After); whether and when to retry is the engine's one retry policy
// (src/engine/summarize/retry-policy.ts), so retries never stack.
import {
  type CallFailure,
  type CallFailureKind,
  hostOf,
  providerError,
  reportedMessage,
} from "../model/call-failure.ts";
import { ConfigError, SummarizerError } from "../model/errors.ts";
import type { Json } from "../model/json.ts";
import type { OutputTokenField } from "../model/model-limits.ts";
import { SETTINGS } from "../model/settings-table.ts";
import type { SummaryRequest } from "../model/summarizer.ts";

/** Options of one JSON POST. */
export interface PostOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** the most bytes of an answer's body that are read; a longer answer is refused, unread past the limit */
  readonly maxAnswerBytes: number;
  /** status label in errors, e.g. "OpenAI"; its lower case is the provider's name in reports ("openai") */
  readonly service: string;
  /** the model asked, for the failure's report */
  readonly model?: string;
}

/** Where a request went, for its failure's report: the provider, the host (no credentials), the model, the secrets its headers carry. */
interface CallSite {
  readonly service: string;
  readonly provider: string;
  readonly host: string;
  readonly model: string;
  readonly secrets: readonly string[];
}

/** The header values that are secrets (API keys, bearer tokens): masked wherever an answer repeats them. */
function secretsOf(headers: Record<string, string>, url: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (name === "authorization") out.push(v.replace(/^Bearer\s+/i, ""), v);
    else if (name === "x-api-key" || name === "api-key") out.push(v);
  }
  try {
    const u = new URL(url);
    if (u.password !== "") out.push(u.password);
  } catch {
    // not a URL: fetch refuses it, and there is nothing to mask
  }
  return out;
}

/** A SummarizerError naming the call site: `what` failed (the message says where), with the report's failure attached. */
function failed(
  site: CallSite,
  kind: CallFailureKind,
  what: string,
  more: { transient?: boolean; wait?: number; status?: number; code?: string; message?: string } = {},
): SummarizerError {
  const message = reportedMessage(more.message ?? what, site.secrets);
  const call: CallFailure = {
    kind,
    provider: site.provider,
    host: site.host,
    model: site.model,
    ...(more.status === undefined ? {} : { status: more.status }),
    ...(more.code === undefined ? {} : { code: more.code }),
    message,
  };
  const said =
    kind === "http"
      ? ` ${what}${more.code === undefined ? "" : ` ${more.code}`}: ${message}`
      : kind === "bad-answer"
        ? `: ${message}`
        : ` ${message}`;
  return new SummarizerError(
    `${site.service} at ${site.host}${said}`,
    more.transient ?? false,
    more.wait,
    more.status,
    call,
  );
}

/**
 * Runs `read` on an answer: a SummarizerError it throws without a call site (an answer of the
 * wrong shape, no summary tag) gets this request's, as a "bad-answer" failure.
 */
export function readAnswer<T>(url: string, o: Pick<PostOptions, "service" | "model">, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof SummarizerError) || e.call !== undefined) throw e;
    throw failed(siteOf(url, {}, o), "bad-answer", e.message);
  }
}

function siteOf(url: string, headers: Record<string, string>, o: Pick<PostOptions, "service" | "model">): CallSite {
  return {
    service: o.service,
    provider: o.service.toLowerCase(),
    host: hostOf(url),
    model: o.model ?? "",
    secrets: secretsOf(headers, url),
  };
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
async function readCapped(res: Response, max: number, site: CallSite): Promise<string> {
  const limit = `the ${max} bytes an answer within max_tokens may take`;
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw failed(
      site,
      "oversized-answer",
      `answered more than ${limit}: refused unread (it declares ${declared} bytes)`,
    );
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
      throw failed(site, "oversized-answer", `answered more than ${limit}: refused, reading stopped there`);
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
  const site = siteOf(url, headers, o);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
    text = await readCapped(res, o.maxAnswerBytes, site);
  } catch (e) {
    if (e instanceof SummarizerError) throw e;
    if (o.signal?.aborted) throw failed(site, "aborted", "request aborted");
    if (timeout.aborted)
      throw failed(site, "timeout", `timed out after ${o.timeoutMs} ms without answering`, { transient: true });
    const c = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
    const cause = c?.code ?? c?.errors?.[0]?.code ?? c?.message ?? (e as Error).message;
    throw failed(site, "network", `could not be reached (${cause}): request failed, network error`, {
      transient: true,
    });
  }
  if (!res.ok) {
    const transient = res.status === 429 || res.status >= 500;
    const wait = retryAfterSeconds(res.headers.get("retry-after"));
    const said = providerError(text);
    throw failed(site, "http", `answered HTTP ${res.status}`, {
      transient,
      ...(wait === undefined ? {} : { wait }),
      status: res.status,
      ...(said.code === undefined ? {} : { code: said.code }),
      message: said.message,
    });
  }
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw failed(site, "bad-answer", `answered with invalid JSON: ${text.slice(0, 100)}`);
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
 * and the prompt as one user message); only the URL, the headers, the answer's shape and the
 * name of the token limit differ (`tokenField`: max_completion_tokens for OpenAI's reasoning
 * models, model-limits.ts outputTokenField).
 */
export function postSummaryRequest(
  url: string,
  headers: Record<string, string>,
  req: Pick<SummaryRequest, "prompt" | "maxTokens" | "model" | "signal">,
  opts: HttpSummarizerOptions,
  service: string,
  tokenField: OutputTokenField = "max_tokens",
): Promise<Json> {
  return postJson(
    url,
    headers,
    { model: req.model, [tokenField]: req.maxTokens, messages: [{ role: "user", content: req.prompt }] },
    {
      timeoutMs: opts.timeoutMs ?? SETTINGS.timeout_ms.default,
      signal: req.signal,
      maxAnswerBytes: maxAnswerBytes(req.maxTokens),
      service,
      model: req.model,
    },
  );
}
