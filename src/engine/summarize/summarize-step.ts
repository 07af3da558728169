// One summarization step: build the prompt (with the previous summary: rolling summary),
// ask the summarizer, validate. A failed call (an error thrown, an answer that is not text) is
// retried as the one retry policy says (retry-policy.ts: max_attempts calls, Retry-After honoured
// up to a cap, never a 400/401/403/404); a summary that fails validation is asked for again once
// with the reason, within the same max_attempts, unless the kernel's stop rule says the run has
// had max_rejected_summaries in a row; an abort of the caller's signal gives up at once.

import {
  type CallFailure,
  callFailureOf,
  type SummarizerFailure,
  summarizerFailure,
} from "../../model/call-failure.ts";
import type { Config } from "../../model/config.ts";
import { SummarizerError } from "../../model/errors.ts";
import type { Message } from "../../model/message.ts";
import { type PromptValues, renderPrompt } from "../../model/prompt-template.ts";
import type { Summarizer, SummaryRequest } from "../../model/summarizer.ts";
import type { TokenCounter } from "../../model/tokens.ts";
import { gateRejectionStreak, gateStopAfterRejections, gateSummaryBudget } from "../boundary/kernel-gate.ts";
import { askedOutput, callLimitsOf, cutExcerpt, inputRoom } from "./call-limits.ts";
import { factsLeftToSummary, ledgerCaps } from "./evidence-ledger.ts";
import { factTokens, requiredFacts } from "./facts.ts";
import { type RetryVerdict, retryVerdict, waitToRetry } from "./retry-policy.ts";
import { renderTranscript } from "./transcript.ts";
import { validateSummary } from "./validate-summary.ts";

/** The result of a step: an accepted summary, or the reason none was accepted. */
export type StepResult = (
  | { readonly ok: true; readonly text: string; readonly tokens: number }
  | {
      readonly ok: false;
      readonly reason: string;
      /** "rejected": the summarizer answered but no answer passed validation; "summarizer": it failed to answer */
      readonly failure: "rejected" | "summarizer";
      /** the kernel's stop rule fired: max_rejected_summaries summaries in a row failed validation */
      readonly stopsRun: boolean;
      /** rejected, every answer only for not being shorter than the stretch: the stretch did not shrink, nothing failed */
      readonly cannotShrink: boolean;
      /** failure "summarizer": the last failed call, the calls made, the waits between them, what to do */
      readonly failed?: SummarizerFailure;
    }
) & {
  /** summarizer calls made (HTTP requests for the HTTP summarizers) */
  readonly attempts: number;
  /** summaries in a row that failed validation, the run's count carried through this step */
  readonly rejectedInARow: number;
};

/** What a step needs besides the stretch. */
export interface StepContext {
  readonly config: Readonly<Config>;
  readonly summarizer: Summarizer;
  readonly counter: TokenCounter;
  readonly model: string;
  readonly signal?: AbortSignal;
  /** summaries in a row that failed validation before this step (default 0) */
  readonly rejectedInARow?: number;
  /**
   * what a run already derived from each stretch it asks for (stretchBase), by the stretch's
   * array: a batch is sized into calls (planCallsOf) and then sent, or shown by a dry run
   * (callSize), from the same arrays, which no one changes once planned; absent: derived each time
   */
  readonly bases?: StretchBases;
}

/** What a stretch's request takes from the stretch alone under one run's settings: its parts, facts and transcript. */
interface StretchBase {
  readonly previousSummary: string | undefined;
  readonly fresh: readonly Message[];
  readonly facts: string[];
  readonly factTokens: number;
  readonly conversation: string;
}

/** A run's stretch bases by stretch array (StepContext.bases). */
export type StretchBases = WeakMap<readonly Message[], StretchBase>;

/** A fresh, empty StretchBases for one run. */
export function stretchBases(): StretchBases {
  return new WeakMap();
}

/** The stretch's base (its parts, facts, their tokens and its transcript), from ctx.bases when derived before. */
function stretchBase(stretch: readonly Message[], ctx: StepContext): StretchBase {
  const known = ctx.bases?.get(stretch);
  if (known !== undefined) return known;
  const c = ctx.config;
  const { previousSummary, fresh } = stretchParts(stretch);
  // with the ledger on, what the ledger of the stretch holds counts as kept (docs/ledger.md)
  const all = requiredFacts(stretch, c.anchors);
  const facts = c.ledger ? factsLeftToSummary(stretch, all, ledgerCaps(c)) : all;
  const base = {
    previousSummary,
    fresh,
    facts,
    factTokens: factTokens(facts, ctx.counter),
    conversation: renderTranscript(fresh),
  };
  ctx.bases?.set(stretch, base);
  return base;
}

/** Summaries of one stretch that may be rejected: a rejected one is asked for again once, with the reason. */
const ANSWERS = 2;

/** What a stretch's request holds of it: its earlier summaries (joined, the summary it continues) and its other messages. */
export function stretchParts(stretch: readonly Message[]): {
  readonly previousSummary: string | undefined;
  readonly fresh: readonly Message[];
} {
  const earlier = stretch.filter((m) => m.role === "summary").map((m) => m.content);
  return {
    previousSummary: earlier.length === 0 ? undefined : earlier.join("\n\n"),
    fresh: stretch.filter((m) => m.role !== "summary"),
  };
}

/** A stretch's request and the values its prompt was rendered from (a batch prompt renders them again in its own form). */
export interface StretchAsk {
  readonly request: SummaryRequest;
  readonly values: PromptValues;
  /**
   * the request fits the summarizer's window (summarizer_window), its excerpt cut to fit when
   * needed; false: not even with its excerpt cut (its facts and earlier summary fill the window)
   */
  readonly fits: boolean;
  /** the excerpt was cut to fit the window (the summarizer's input only) */
  readonly cut: boolean;
}

/** Rounds of cutting an excerpt: each re-counts the prompt and cuts by what is still over. */
const CUT_ROUNDS = 4;

/**
 * The request for one stretch's summary: its prompt (the template with the transcript, the
 * earlier summary it starts with, the facts to keep), asking for the summary inside `tag`. An
 * ordinary stretch's prompt states the kernel's summaryBudget of its tokens (summary_percent, at
 * least its facts' tokens by the run's counter plus summary_floor_tokens, at most max_tokens)
 * while the model's cap stays max_tokens: the budget is a request, validation stays L8's. An
 * aged summary's (agedBudget set) states its tighter budget, which is its cap too. Also returns
 * the prompt's values. The summarizer's limits (call-limits.ts) bound it: it asks at most
 * summarizer_output_cap tokens, and a prompt that would leave no room for that answer in
 * summarizer_window (less `reserve` tokens, kept for a note added to the prompt later) has its
 * excerpt cut to fit (cutExcerpt), the summarizer's input only.
 */
export function stretchAsk(
  stretch: readonly Message[],
  replacedTokens: number,
  ctx: StepContext,
  tag = ctx.config.summary_tag,
  agedBudget?: number,
  reserve = 0,
): StretchAsk {
  const c = ctx.config;
  const limits = callLimitsOf(c);
  const base = stretchBase(stretch, ctx);
  const { previousSummary, fresh, facts, conversation } = base;
  const maxTokens = askedOutput(agedBudget ?? c.max_tokens, limits);
  const budgetTokens =
    agedBudget === undefined
      ? gateSummaryBudget(replacedTokens, base.factTokens, c.summary_percent, c.summary_floor_tokens, maxTokens)
      : maxTokens;
  let values: PromptValues = {
    conversation,
    previousSummary,
    requiredFacts: facts,
    maxTokens: budgetTokens,
    summaryTag: tag,
  };
  let prompt = renderPrompt(c.prompt, values);
  const room = inputRoom(maxTokens, limits) - reserve;
  let over = Number.isFinite(room) ? ctx.counter.count(prompt) - room : 0;
  let cut = false;
  // what the excerpt may take: its own tokens less what the prompt is over, then less again
  let target = over > 0 ? ctx.counter.count(conversation) - over : 0;
  for (let round = 0; over > 0 && target > 0 && round < CUT_ROUNDS; round++) {
    values = { ...values, conversation: cutExcerpt(conversation, target, ctx.counter) };
    prompt = renderPrompt(c.prompt, values);
    cut = true;
    over = ctx.counter.count(prompt) - room;
    target -= Math.max(over, 0) + 1;
  }
  const request: SummaryRequest = {
    prompt,
    stretch: fresh,
    previousSummary,
    requiredFacts: facts,
    maxTokens,
    budgetTokens,
    replacedTokens,
    summaryTag: tag,
    model: ctx.model,
    signal: ctx.signal,
  };
  return { request, values, fits: over <= 0, cut };
}

/**
 * Summarizes `stretch` (replacing replacedTokens tokens) and validates the answer; an aged
 * summary (agedBudget set) is asked for within its budget, below its size, and validated as any
 * summary is (strictly shorter than what it replaces, within max_tokens: L8).
 */
export async function summarizeStretch(
  stretch: readonly Message[],
  replacedTokens: number,
  ctx: StepContext,
  agedBudget?: number,
): Promise<StepResult> {
  const c = ctx.config;
  const ask = stretchAsk(stretch, replacedTokens, ctx, c.summary_tag, agedBudget);
  if (!ask.fits) return doesNotFit(ctx, ask.request.maxTokens);
  let request = ask.request;
  const facts = request.requiredFacts;
  const reasons: string[] = [];
  let failure: "rejected" | "summarizer" = "summarizer";
  let rejected = 0;
  let attempt = 0;
  let streak = ctx.rejectedInARow ?? 0;
  let stopsRun = false;
  let cannotShrink = true;
  let rejection: string | undefined; // why the last answer was rejected
  let lastFailure: CallFailure | undefined; // the last call that failed to answer
  const waits: number[] = [];
  while (attempt < c.max_attempts) {
    attempt++;
    // a retry after a failed call sends the same request; only a rejected answer is named in the
    // prompt, and a prompt the note would push over the window is built again with room for it
    const note = rejection === undefined ? "" : `\n\nYour previous answer was rejected: ${rejection}. Fix that.`;
    if (note !== "" && c.summarizer_window !== null) {
      const room = inputRoom(request.maxTokens, callLimitsOf(c));
      if (ctx.counter.count(request.prompt + note) > room) {
        const again = stretchAsk(stretch, replacedTokens, ctx, c.summary_tag, agedBudget, ctx.counter.count(note));
        if (again.fits) request = again.request;
      }
    }
    const prompt = request.prompt + note;
    let answer: unknown;
    try {
      answer = await ctx.summarizer.summarize({ ...request, prompt });
    } catch (e) {
      // Whatever a summarizer throws (a SummarizerError, or a custom summarizer's own error such as
      // an SDK's APIError) is a failed attempt: a failure leaves the conversation as
      // it was and says why, so it becomes the step's reason rather than a rejection of the run.
      failure = "summarizer";
      cannotShrink = false;
      lastFailure = callFailureOf(e, ctx.summarizer.name, ctx.model);
      if (ctx.signal?.aborted) {
        // The caller gave up: no retry, and the reason says it was an abort whatever was thrown.
        const what = thrownMessage(e);
        reasons.push(/abort/i.test(what) ? what : `aborted by the caller's signal (the summarizer threw: ${what})`);
        break;
      }
      const verdict = retryVerdict(e, attempt, c);
      reasons.push(failedCallReason(e, verdict));
      if (!verdict.retry) break;
      waits.push(verdict.waitMs);
      try {
        await waitToRetry(verdict.waitMs, ctx.signal);
      } catch (w) {
        reasons.push(thrownMessage(w));
        break;
      }
      continue;
    }
    if (typeof answer !== "string") {
      // The interface promises a string, but a JavaScript caller's summarizer may pass on e.g. an
      // LLM client's `message.content`, which is null on a refusal: an empty answer, so retry.
      rejection = `the summarizer returned ${describeNonText(answer)}, not text`;
      reasons.push(rejection);
      lastFailure = { kind: "bad-answer", provider: ctx.summarizer.name, model: ctx.model, message: rejection };
      failure = "summarizer";
      cannotShrink = false;
      continue;
    }
    const text = answer;
    const verdict = validateSummary(text, {
      replacedTokens,
      maxTokens: c.max_tokens,
      requiredFacts: facts,
      counter: ctx.counter,
    });
    // An answer rejected only for not being shorter says the stretch cannot shrink, not that the
    // summarizer is unusable: it leaves the streak as it is (a run of small stretches must not
    // stop a healthy run; the stop rule is for answers that fail validation otherwise).
    // an aged summary's rejection (not shorter, over its budget, a fact that does not fit it) says
    // the summary cannot shrink that far: like "not shorter", it leaves the streak as it is
    const cannot = verdict.ok ? false : verdict.notShorter || agedBudget !== undefined;
    if (verdict.ok || !cannot) streak = gateRejectionStreak(streak, verdict.ok);
    if (verdict.ok) return { ok: true, text, tokens: verdict.tokens, attempts: attempt, rejectedInARow: streak };
    rejection = verdict.reason;
    reasons.push(rejection);
    failure = "rejected";
    cannotShrink &&= cannot;
    rejected++;
    stopsRun = gateStopAfterRejections(streak, c.max_rejected_summaries);
    // an aged summary is asked for once: it is already a summary, kept as it is when it cannot shrink
    if (stopsRun || rejected >= ANSWERS || agedBudget !== undefined) break;
  }
  const unique = Array.from(new Set(reasons));
  return {
    ok: false,
    reason: unique.join("; then: "),
    attempts: attempt,
    failure,
    stopsRun,
    cannotShrink: failure === "rejected" && cannotShrink,
    rejectedInARow: streak,
    ...(failure === "summarizer" && lastFailure !== undefined
      ? { failed: summarizerFailure(lastFailure, attempt, waits) }
      : {}),
  };
}

/**
 * A stretch whose prompt fits not even with its excerpt cut (its facts and earlier summary fill
 * the summarizer's window): no call is made; it is left as it is and, like a stretch that cannot
 * shrink, not asked again.
 */
function doesNotFit(ctx: StepContext, maxTokens: number): StepResult {
  return {
    ok: false,
    reason: `its prompt does not fit the summarizer's context window (summarizer_window ${ctx.config.summarizer_window}) with room for a ${maxTokens}-token answer, even with its excerpt cut: its required facts and earlier summary alone fill it; no call was made`,
    failure: "rejected",
    stopsRun: false,
    cannotShrink: true,
    attempts: 0,
    rejectedInARow: ctx.rejectedInARow ?? 0,
  };
}

/** Why a call failed, as the step's reason: what was thrown, and why it is not retried when the policy says so. */
export function failedCallReason(e: unknown, verdict: RetryVerdict): string {
  const said = e instanceof SummarizerError ? e.message : `the summarizer threw ${thrownMessage(e)}`;
  return verdict.retry || verdict.why === undefined ? said : `${said}; ${verdict.why}`;
}

/** A thrown value as a message: a SummarizerError's own message, "Name: message" for other errors, the value otherwise. */
function thrownMessage(e: unknown): string {
  if (e instanceof SummarizerError) return e.message;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return describeNonText(e);
}

/** Names a value that is not a string, briefly (never its whole content: it may be huge or throw on toString). */
function describeNonText(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return `a ${typeof v} (${String(v)})`;
  if (typeof v === "string") return JSON.stringify(v.length > 100 ? `${v.slice(0, 100)}...` : v);
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}
