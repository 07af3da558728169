// One summarization step: build the prompt (with the previous summary: rolling summary),
// ask the summarizer, validate; on failure retry once with the reason, then give up.
import type { Config } from "./config.ts";
import { SummarizerError } from "./errors.ts";
import { requiredFacts } from "./facts.ts";
import type { Message } from "./message.ts";
import { renderPrompt } from "./prompt-template.ts";
import type { TokenCounter } from "./tokens.ts";
import { renderTranscript } from "./transcript.ts";
import { validateSummary } from "./validate-summary.ts";
import type { Summarizer } from "../providers/summarizer.ts";

/** The result of a step: an accepted summary, or the reason none was accepted. */
export type StepResult =
  | { readonly ok: true; readonly text: string; readonly tokens: number; readonly attempts: number }
  | {
    readonly ok: false;
    readonly reason: string;
    readonly attempts: number;
    /** "rejected": the summarizer answered but no answer passed validation; "summarizer": it failed to answer */
    readonly failure: "rejected" | "summarizer";
  };

/** What a step needs besides the stretch. */
export interface StepContext {
  readonly config: Readonly<Config>;
  readonly summarizer: Summarizer;
  readonly counter: TokenCounter;
  readonly model: string;
  readonly signal?: AbortSignal;
}

const ATTEMPTS = 2;

/** Summarizes `stretch` (replacing replacedTokens tokens) and validates the answer. */
export async function summarizeStretch(stretch: readonly Message[], replacedTokens: number, ctx: StepContext): Promise<StepResult> {
  const c = ctx.config;
  const earlier = stretch.filter((m) => m.role === "summary").map((m) => m.content);
  const previousSummary = earlier.length === 0 ? undefined : earlier.join("\n\n");
  const fresh = stretch.filter((m) => m.role !== "summary");
  const facts = requiredFacts(stretch, c.anchors);
  const basePrompt = renderPrompt(c.prompt, {
    conversation: renderTranscript(fresh),
    previousSummary,
    requiredFacts: facts,
    maxTokens: c.max_tokens,
    summaryTag: c.summary_tag,
  });
  const reasons: string[] = [];
  let failure: "rejected" | "summarizer" = "summarizer";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const prompt = reasons.length === 0
      ? basePrompt
      : `${basePrompt}\n\nYour previous answer was rejected: ${reasons[reasons.length - 1]}. Fix that.`;
    let text: string;
    try {
      text = await ctx.summarizer.summarize({
        prompt, stretch: fresh, previousSummary, requiredFacts: facts, maxTokens: c.max_tokens,
        replacedTokens, summaryTag: c.summary_tag, model: ctx.model, signal: ctx.signal,
      });
    } catch (e) {
      if (!(e instanceof SummarizerError)) throw e;
      reasons.push(e.message);
      failure = "summarizer";
      if (ctx.signal?.aborted) break;
      continue;
    }
    const verdict = validateSummary(text, { replacedTokens, maxTokens: c.max_tokens, requiredFacts: facts, counter: ctx.counter });
    if (verdict.ok) return { ok: true, text, tokens: verdict.tokens, attempts: attempt };
    reasons.push(verdict.reason);
    failure = "rejected";
  }
  const unique = Array.from(new Set(reasons));
  return { ok: false, reason: unique.join("; then: "), attempts: reasons.length, failure };
}
