// The overflow retry of the agent's own model call, shared by the AI SDK hook, the wire helpers
// and the session helpers: when the provider answers that the prompt overflowed its window (or
// its request size), the conversation is compacted under the settings the answer implies and the
// call is made again, once; a second overflow is an OverflowRetryError naming what was tried.
// Nothing here decides whether compaction is due or what it replaces: the answer's counts become
// the settings the kernel's trigger judges (the window it reported as context_window, the prompt
// tokens it counted as the reported usage), and the engine's ordinary run compacts down to the
// target (clearing, then summarizing, as the strategy says).

import { gateOverByteBudget } from "../engine/boundary/kernel-gate.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config } from "../model/config.ts";
import {
  type ContextOverflow,
  type OverflowProvider,
  overflowOfError,
  PROVIDER_REQUEST_BYTES,
} from "../model/context-overflow.ts";
import { SafecutError } from "../model/errors.ts";
import type { Message } from "../model/message.ts";
import { messageTokens, type TokenCounter, tokenCounter } from "../model/tokens.ts";
import type { ReportedUsage } from "./usage.ts";

/** What the retry ran on an overflow: the provider's answer and the compaction's report. */
export interface OverflowRetry {
  readonly overflow: ContextOverflow;
  readonly report: CompactionReport;
}

/** The settings a compaction after an overflow runs under, and the usage it is given (none when the answer gave no counts). */
export interface OverflowSettings {
  readonly config: Config;
  readonly usage?: ReportedUsage;
}

/**
 * The settings an overflow implies, for a conversation the run's counter finds `counted` tokens
 * in. With the provider's counts (a prompt of M tokens over a window of N): context_window is N
 * (or the configured one, when smaller) and, with `reported` (a run that takes a usage report),
 * M is the reported usage; without it (a session's run counts its own tokens) the window is N in
 * the counter's units, N * counted / M. Without counts (an HTTP 413, a server that names none)
 * the refused prompt is taken as the window: context_window is `counted`. reserve_tokens is kept
 * when it fits the window, else 0 (at least 1 without counts, so the refused size itself is over
 * the window); a token_threshold, soft threshold or keep_recent_tokens that does not fit it is
 * unset. Whether the run is then due is the kernel's trigger's decision (the window form), and
 * the run compacts down to target_percent of the window less the reserve.
 */
export function overflowSettings(c: Config, o: ContextOverflow, counted: number, reported: boolean): OverflowSettings {
  const counts = o.promptTokens !== undefined && o.contextWindow !== undefined && o.promptTokens > 0;
  let window: number;
  if (!counts) window = Math.max(1, counted);
  else if (reported) window = o.contextWindow ?? 1;
  else window = Math.max(1, Math.floor(((o.contextWindow ?? 0) * counted) / (o.promptTokens ?? 1)));
  if (c.context_window !== null && c.context_window < window) window = c.context_window;
  let reserve = c.reserve_tokens < window ? c.reserve_tokens : 0;
  if (!counts && reserve === 0 && window > 1) reserve = 1;
  const room = window - reserve;
  const config: Config = {
    ...c,
    context_window: window,
    reserve_tokens: reserve,
    token_threshold: c.token_threshold !== null && c.token_threshold <= room ? c.token_threshold : null,
    soft_token_threshold: null,
    keep_recent_tokens: c.keep_recent_tokens !== null && c.keep_recent_tokens < room ? c.keep_recent_tokens : null,
    usage: null,
  };
  return counts && reported ? { config, usage: { promptTokens: o.promptTokens ?? 0 } } : { config };
}

/** The tokens the run's counter finds in these messages (what a store counts). */
export function countedTokens(messages: readonly Message[], c: Config, counter?: TokenCounter): number {
  const k = counter ?? tokenCounter(c.tokenizer);
  let n = 0;
  for (const m of messages) n += messageTokens(k, m);
  return n;
}

/** Whether a run changed the conversation (replaced a stretch or cleared a tool result). */
export const changedBy = (r: CompactionReport): boolean => r.stretches.length > 0 || (r.clearing?.results ?? 0) > 0;

/** The byte budget of a request to `provider`: max_request_bytes, else the provider's documented limit, else none (0). */
export function requestByteBudget(c: Config, provider: OverflowProvider): number {
  if (c.max_request_bytes !== null) return c.max_request_bytes;
  return provider === "openai" || provider === "anthropic" || provider === "google"
    ? PROVIDER_REQUEST_BYTES[provider]
    : 0;
}

/**
 * `c` with the byte budget of a request to `provider` as its max_request_bytes: when unset (null),
 * the provider's documented limit (PROVIDER_REQUEST_BYTES); `c` itself when it is set or the
 * provider documents none. The provider-specific helpers (the wire helpers, the Responses helper,
 * the AI SDK hook that knows its model's provider) compact under it, so a request the provider
 * would refuse for its size is due without any setting.
 */
export function withProviderBytes(c: Config, provider: OverflowProvider): Config {
  const max = requestByteBudget(c, provider);
  return c.max_request_bytes !== null || max === 0 ? c : { ...c, max_request_bytes: max };
}

/** The bytes of a request's conversation: its JSON text in UTF-8 (an image or file by its base64 text). */
export function requestBytes(conversation: unknown): number {
  return Buffer.byteLength(JSON.stringify(conversation), "utf8");
}

/** The byte budget a call is held to: its limit (0: none) and the provider it is sent to. */
export interface ByteBudget {
  readonly maxBytes: number;
  readonly provider: OverflowProvider;
}

/** A conversation over the byte budget, as the overflow it would be answered with (status 0: not sent). */
function budgetOverflow(bytes: number, b: ByteBudget): ContextOverflow {
  return {
    provider: b.provider,
    over: "bytes",
    status: 0,
    message: `the request's conversation is ${bytes} bytes, over max_request_bytes ${b.maxBytes}`,
  };
}

/** One overflow in words: provider, status, the counts it gave, its message. */
function overflowWords(o: ContextOverflow): string {
  if (o.status === 0) return `max_request_bytes (${o.message}; not sent)`;
  const counts =
    o.promptTokens !== undefined && o.contextWindow !== undefined
      ? ` (${o.promptTokens} tokens > ${o.contextWindow})`
      : o.over === "bytes"
        ? " (request too large)"
        : "";
  return `${o.provider} HTTP ${o.status}${counts}: "${o.message}"`;
}

/** What a compaction run did, in words: the tokens before and after, what it cleared and summarized. */
function compactionWords(r: CompactionReport): string {
  const cleared = r.clearing?.results ?? 0;
  const tokens =
    r.tokensBefore === null || r.tokensAfter === null
      ? ""
      : ` took it from ${r.tokensBefore} to ${r.tokensAfter} tokens,`;
  return `compaction${tokens} cleared ${cleared} tool result${cleared === 1 ? "" : "s"} and summarized ${r.stretches.length} stretch${r.stretches.length === 1 ? "" : "es"} (${r.outcome}: ${r.reason})`;
}

/** The agent's model call overflowed again after compaction, or compaction could not change the conversation. */
export class OverflowRetryError extends SafecutError {
  /** the first overflow */
  readonly overflow: ContextOverflow;
  /** the compaction run after it */
  readonly report: CompactionReport;
  /** the retry's overflow; undefined when compaction changed nothing and no retry was sent */
  readonly retryOverflow: ContextOverflow | undefined;
  constructor(overflow: ContextOverflow, report: CompactionReport, retryOverflow?: ContextOverflow) {
    super(
      "input",
      retryOverflow === undefined
        ? `the model call overflowed (${overflowWords(overflow)}) and ${compactionWords(report)}: nothing changed, so the call was not sent again`
        : `the model call overflowed twice: first ${overflowWords(overflow)}; ${compactionWords(report)}; the one retry overflowed again: ${overflowWords(retryOverflow)}`,
    );
    this.name = "OverflowRetryError";
    this.overflow = overflow;
    this.report = report;
    this.retryOverflow = retryOverflow;
  }
}

/** Whether a thrown value is the budget's own overflow (status 0, never a provider's answer). */
function isBudgetOverflow(e: unknown): e is ContextOverflow {
  return typeof e === "object" && e !== null && "over" in e && "status" in e && (e as ContextOverflow).status === 0;
}

/**
 * Makes `call` on `conversation`; when it throws a context overflow (overflowOfError), compacts
 * with `compact` and makes the call once more on the result. With `budget`, a conversation over
 * it (the kernel's overByteBudget) is compacted the same way before it is sent, and the one call
 * is made after. A second overflow, a compaction that changed nothing or left the conversation
 * over the budget, is an OverflowRetryError; any other error is thrown as it is.
 */
export async function callWithRetry<C, T>(
  conversation: C,
  call: (conversation: C) => Promise<T>,
  compact: (conversation: C, overflow: ContextOverflow) => Promise<{ conversation: C; report: CompactionReport }>,
  budget?: ByteBudget,
): Promise<{ result: T; conversation: C; retry?: OverflowRetry }> {
  let overflow: ContextOverflow;
  const overBudget = (conv: C): ContextOverflow | undefined => {
    if (budget === undefined) return undefined;
    const bytes = requestBytes(conv);
    return gateOverByteBudget(bytes, budget.maxBytes) ? budgetOverflow(bytes, budget) : undefined;
  };
  try {
    // over the byte budget (L1's byte form, the kernel's): compacted before it is sent at all
    const over = overBudget(conversation);
    if (over !== undefined) throw over;
    return { result: await call(conversation), conversation };
  } catch (e) {
    const o = isBudgetOverflow(e) ? e : overflowOfError(e);
    if (o === undefined) throw e;
    overflow = o;
  }
  const compacted = await compact(conversation, overflow);
  if (!changedBy(compacted.report)) throw new OverflowRetryError(overflow, compacted.report);
  const still = overBudget(compacted.conversation);
  if (still !== undefined) throw new OverflowRetryError(overflow, compacted.report, still);
  try {
    const result = await call(compacted.conversation);
    return { result, conversation: compacted.conversation, retry: { overflow, report: compacted.report } };
  } catch (e) {
    const again = overflowOfError(e);
    if (again === undefined) throw e;
    throw new OverflowRetryError(overflow, compacted.report, again);
  }
}
