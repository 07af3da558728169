// Several stretches summarized together (a batch): each stretch's request is built as for one
// step (stretchAsk) with its tag numbered, their values are rendered into one batch prompt (the
// built-in prompt's shared instructions stated once: renderBatchPrompt), and
// the summarizer's summarizeBatch answers one summary per stretch, each validated on its own. A
// call that fails as a whole is retried as the retry policy says, and then fails every stretch of
// it; a stretch whose summary is missing or rejected is asked for alone (summarizeStretch), so it
// costs only its own stretch. A summarizer without summarizeBatch, or a batch of one, is asked
// stretch by stretch. A summarizer that fails to answer (after its retries) or the stop rule
// leaves the stretches after it in its call untried.
import { callFailureOf, type SummarizerFailure, summarizerFailure } from "../../model/call-failure.ts";
import { SummarizerError } from "../../model/errors.ts";
import type { Message } from "../../model/message.ts";
import { batchPartTag, batchPromptPieces, type PromptValues, renderBatchPrompt } from "../../model/prompt-template.ts";
import type { SummaryRequest } from "../../model/summarizer.ts";
import {
  gateMaxTokensLimit,
  gatePlanCalls,
  gateRejectionStreak,
  gateStopAfterRejections,
} from "../boundary/kernel-gate.ts";
import { callLimitsOf, FRAMING_TOKENS } from "./call-limits.ts";
import { retryVerdict, waitToRetry } from "./retry-policy.ts";
import { failedCallReason, type StepContext, type StepResult, stretchAsk, summarizeStretch } from "./summarize-step.ts";
import { validateSummary } from "./validate-summary.ts";

/** One stretch of a batch: its messages, the tokens they hold, and for an aged summary its budget. */
export interface BatchStretch {
  readonly messages: readonly Message[];
  readonly replacedTokens: number;
  /** an aged summary's budget (aging.ts), below its size, asked for instead of max_tokens */
  readonly agedBudget?: number;
}

/** The answers of one batch call, or why the call failed, and the calls it took. */
type BatchAnswers =
  | { readonly ok: true; readonly answers: readonly (string | undefined)[]; readonly attempts: number }
  | { readonly ok: false; readonly reason: string; readonly attempts: number; readonly failed: SummarizerFailure };

/** Waits before a retry; the reason it could not (an abort), or undefined once waited. */
async function waited(ms: number, signal: AbortSignal | undefined): Promise<string | undefined> {
  try {
    await waitToRetry(ms, signal);
    return undefined;
  } catch (w) {
    return w instanceof Error ? w.message : String(w);
  }
}

/** The answer tokens a batch call asks: each part's own cap, summed, within the request limit. */
function batchMaxTokens(parts: readonly SummaryRequest[]): number {
  return Math.min(
    gateMaxTokensLimit(),
    parts.reduce((t, p) => t + p.maxTokens, 0),
  );
}

/** What one call of a batch would send (a dry run's plan): its prompt's tokens by the run's counter, and the answer tokens it asks. */
export interface CallSize {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * The size of the call that would send `stretches` together (as summarizeBatch sends them): the
 * batch prompt and the summed caps, or one stretch's own prompt and cap.
 */
export function callSize(stretches: readonly BatchStretch[], ctx: StepContext): CallSize {
  const one = stretches.length === 1 || ctx.summarizer.summarizeBatch === undefined;
  const asks = stretches.map((s, i) =>
    stretchAsk(
      s.messages,
      s.replacedTokens,
      ctx,
      one ? ctx.config.summary_tag : batchPartTag(ctx.config.summary_tag, i + 1),
      s.agedBudget,
    ),
  );
  if (one)
    return {
      inputTokens: asks.reduce((t, a) => t + ctx.counter.count(a.request.prompt), 0),
      outputTokens: asks.reduce((t, a) => t + a.request.maxTokens, 0),
    };
  return {
    inputTokens: ctx.counter.count(
      renderBatchPrompt(
        ctx.config.prompt,
        asks.map((a) => a.values),
      ),
    ),
    outputTokens: batchMaxTokens(asks.map((a) => a.request)),
  };
}

/** One batch call for the stretches' requests, retried as the retry policy says. */
async function callBatch(
  parts: readonly SummaryRequest[],
  values: readonly PromptValues[],
  ctx: StepContext,
): Promise<BatchAnswers> {
  const c = ctx.config;
  const batch = ctx.summarizer.summarizeBatch;
  if (batch === undefined) throw new Error("internal: callBatch needs a summarizer with summarizeBatch");
  const request = {
    prompt: renderBatchPrompt(c.prompt, values),
    parts,
    // each part's own cap (max_tokens, or an aged summary's tighter budget, at most the output
    // cap), summed: the call plan (planCallsOf) keeps the sum within summarizer_output_cap and,
    // with the prompt, within summarizer_window; each part's prompt states its own budget
    // (summaryBudget), a request within that cap
    maxTokens: batchMaxTokens(parts),
    summaryTag: c.summary_tag,
    model: ctx.model,
    signal: ctx.signal,
  };
  const reasons: string[] = [];
  const waits: number[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      const answers = await batch.call(ctx.summarizer, request);
      if (!Array.isArray(answers) || answers.length !== parts.length)
        throw new SummarizerError(
          `the batch answer holds ${Array.isArray(answers) ? answers.length : "no"} summaries for ${parts.length} stretches`,
        );
      return { ok: true, answers: answers.map((a) => (typeof a === "string" ? a : undefined)), attempts: attempt };
    } catch (e) {
      const verdict = ctx.signal?.aborted ? { retry: false as const } : retryVerdict(e, attempt, c);
      reasons.push(failedCallReason(e, verdict));
      if (verdict.retry) waits.push(verdict.waitMs);
      const unwaited = verdict.retry ? await waited(verdict.waitMs, ctx.signal) : undefined;
      if (unwaited !== undefined) reasons.push(unwaited);
      if (!verdict.retry || unwaited !== undefined)
        return {
          ok: false,
          reason: Array.from(new Set(reasons)).join("; then: "),
          attempts: attempt,
          failed: summarizerFailure(callFailureOf(e, ctx.summarizer.name, ctx.model), attempt, waits),
        };
    }
  }
}

/** Tokens each part of a batch prompt may take beyond its own count: its joining line break, and a tokenizer that splits the joined prompt a little differently. */
const PART_SLACK = 4;

/**
 * How a group of stretches is sent: the kernel's call plan (planCalls) over each stretch's part
 * of the batch prompt (its tokens, and the answer it asks: max_tokens or an aged summary's budget,
 * at most summarizer_output_cap) and the prompt's head (the shared instructions and the message
 * framing), so that each call's prompt and answers fit summarizer_window and its answers
 * summarizer_output_cap; a stretch that fits not even alone is a call of its own, sent on its own
 * request, which cuts its excerpt to fit (stretchAsk). The calls in order, as index lists. Without
 * limits, or for a summarizer without summarizeBatch (asked stretch by stretch, each request
 * fitting on its own), the group is one call of summarizeBatch.
 */
export function planCallsOf(stretches: readonly BatchStretch[], ctx: StepContext): number[][] {
  const limits = callLimitsOf(ctx.config);
  // one by one, in order (summarizeBatch asks them so, and stops at a summarizer that failed), or
  // together with no limit to keep to
  if (ctx.summarizer.summarizeBatch === undefined || (limits.window === null && limits.outputCap === null))
    return [stretches.map((_, i) => i)];
  const asks = stretches.map((s, i) =>
    stretchAsk(s.messages, s.replacedTokens, ctx, batchPartTag(ctx.config.summary_tag, i + 1), s.agedBudget),
  );
  const pieces = batchPromptPieces(
    ctx.config.prompt,
    asks.map((a) => a.values),
  );
  const input = pieces.parts.map((p) => ctx.counter.count(p) + PART_SLACK);
  const output = asks.map((a) => a.request.maxTokens);
  const overhead = ctx.counter.count(pieces.head) + FRAMING_TOKENS;
  const unbounded = Number.MAX_SAFE_INTEGER;
  const flat = gatePlanCalls(input, output, overhead, limits.window ?? unbounded, limits.outputCap ?? unbounded);
  const calls: number[][] = [];
  for (let k = 0; k + 1 < flat.length; k += 2)
    calls.push(Array.from({ length: flat[k + 1] - flat[k] }, (_, i) => flat[k] + i));
  return calls;
}

/**
 * The results of one batch call's stretches, in order: each answer validated on its own, a
 * missing or rejected one asked for alone. The run's rejection streak is carried through in order;
 * once the kernel's stop rule fires, the stretches after it are left untried.
 */
export async function summarizeBatch(stretches: readonly BatchStretch[], ctx: StepContext): Promise<StepResult[]> {
  let streak = ctx.rejectedInARow ?? 0;
  if (stretches.length === 1 || ctx.summarizer.summarizeBatch === undefined) {
    const out: StepResult[] = [];
    for (const s of stretches) {
      const res = await summarizeStretch(
        s.messages,
        s.replacedTokens,
        { ...ctx, rejectedInARow: streak },
        s.agedBudget,
      );
      out.push(res);
      streak = res.rejectedInARow;
      // a summarizer that failed to answer, or the stop rule: the stretches after it are not asked
      if (!res.ok && (res.stopsRun || res.failure === "summarizer")) break;
    }
    return out;
  }
  const asks = stretches.map((s, i) =>
    stretchAsk(s.messages, s.replacedTokens, ctx, batchPartTag(ctx.config.summary_tag, i + 1), s.agedBudget),
  );
  const parts = asks.map((a) => a.request);
  const call = await callBatch(
    parts,
    asks.map((a) => a.values),
    ctx,
  );
  if (!call.ok)
    return stretches.map((_, i) => ({
      ok: false,
      reason: call.reason,
      failure: "summarizer",
      stopsRun: false,
      cannotShrink: false,
      attempts: i === 0 ? call.attempts : 0,
      rejectedInARow: streak,
      failed: call.failed,
    }));
  const out: StepResult[] = [];
  for (let i = 0; i < stretches.length; i++) {
    const s = stretches[i];
    const answer = call.answers[i];
    // the batch call is counted once, with the first stretch
    const shared = i === 0 ? call.attempts : 0;
    if (answer !== undefined) {
      const verdict = validateSummary(answer, {
        replacedTokens: s.replacedTokens,
        maxTokens: ctx.config.max_tokens,
        requiredFacts: parts[i].requiredFacts,
        counter: ctx.counter,
      });
      if (verdict.ok) {
        streak = gateRejectionStreak(streak, true);
        out.push({ ok: true, text: answer, tokens: verdict.tokens, attempts: shared, rejectedInARow: streak });
        continue;
      }
      // an aged summary rejected in the batch cannot shrink that far: it is not asked again, and
      // (as in a step) does not count toward the stop rule
      if (s.agedBudget !== undefined) {
        out.push({
          ok: false,
          reason: verdict.reason,
          failure: "rejected",
          stopsRun: false,
          cannotShrink: true,
          attempts: shared,
          rejectedInARow: streak,
        });
        continue;
      }
      // a rejected summary counts toward the stop rule as in a step (not one that is only not shorter)
      if (!verdict.notShorter) streak = gateRejectionStreak(streak, false);
      if (gateStopAfterRejections(streak, ctx.config.max_rejected_summaries)) {
        out.push({
          ok: false,
          reason: verdict.reason,
          failure: "rejected",
          stopsRun: true,
          cannotShrink: false,
          attempts: shared,
          rejectedInARow: streak,
        });
        break;
      }
    }
    // missing or rejected: this stretch alone, as one step asks for it
    const alone = await summarizeStretch(
      s.messages,
      s.replacedTokens,
      { ...ctx, rejectedInARow: streak },
      s.agedBudget,
    );
    streak = alone.rejectedInARow;
    out.push({ ...alone, attempts: alone.attempts + shared });
    if (!alone.ok && (alone.stopsRun || alone.failure === "summarizer")) break;
  }
  return out;
}
