// The one retry policy of summarizer calls: after a failed call, whether to call again and how
// long to wait first. HTTP summarizers make one request per call and never retry on their own,
// so every request is an attempt the engine counts (max_attempts per stretch, honouring the
// server's Retry-After up to max_retry_wait_ms, never retrying what cannot succeed).
import type { Config } from "../../model/config.ts";
import { SummarizerError } from "../../model/errors.ts";

/** What the policy decided after a failed call. */
export type RetryVerdict =
  | { readonly retry: true; readonly waitMs: number }
  | {
      readonly retry: false /** why not, for the step's reason; absent when the attempts ran out */;
      readonly why?: string;
    };

/** HTTP statuses of the 4xx class that a retry may still get past (timeout, conflict, too early, rate limit). */
const RETRIED_4XX: ReadonlySet<number> = new Set([408, 409, 425, 429]);

/** The HTTP status a failure carries: a SummarizerError's, or a numeric `status` of another error (an SDK's APIError). */
function statusOf(e: unknown): number | undefined {
  if (e instanceof SummarizerError) return e.status;
  if (typeof e !== "object" || e === null || !("status" in e)) return undefined;
  const s = (e as { status: unknown }).status;
  return typeof s === "number" && Number.isInteger(s) ? s : undefined;
}

/**
 * Decides the next step after the `attempt`-th call (1-based) of a stretch failed with `e`: a
 * 4xx other than 408/409/425/429 is never retried; otherwise a retry follows after the server's
 * Retry-After (refused when it exceeds max_retry_wait_ms), or else after retry_delay_ms doubled at
 * each retry, until max_attempts calls were made.
 */
export function retryVerdict(
  e: unknown,
  attempt: number,
  c: Pick<Config, "max_attempts" | "retry_delay_ms" | "max_retry_wait_ms">,
): RetryVerdict {
  const status = statusOf(e);
  if (status !== undefined && status >= 400 && status < 500 && !RETRIED_4XX.has(status)) {
    return { retry: false, why: `not retried: HTTP ${status} cannot succeed on a retry` };
  }
  if (attempt >= c.max_attempts) return { retry: false };
  const after = e instanceof SummarizerError ? e.retryAfterSeconds : undefined;
  if (after === undefined) return { retry: true, waitMs: c.retry_delay_ms * 2 ** (attempt - 1) };
  const waitMs = Math.ceil(after * 1000);
  if (waitMs > c.max_retry_wait_ms) {
    return {
      retry: false,
      why: `not retried: the server asked to wait ${Math.round(after)} s (Retry-After), more than max_retry_wait_ms (${c.max_retry_wait_ms} ms)`,
    };
  }
  return { retry: true, waitMs };
}

/** Waits `ms`, or rejects with a SummarizerError as soon as `signal` is aborted. */
export function waitToRetry(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SummarizerError("aborted while waiting to retry"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}
