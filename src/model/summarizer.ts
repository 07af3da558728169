// The summarizer contract: given a rendered prompt and the stretch, return the summary text
// (already taken out of its tag) or throw a SummarizerError. Validation is the engine's job.
import type { Message } from "./message.ts";

/** Everything a summarizer may use to summarize one stretch. */
export interface SummaryRequest {
  /** the rendered prompt (stretch, previous summary, facts to keep) for LLM summarizers */
  readonly prompt: string;
  /** the messages being replaced, without the earlier summary they may start with */
  readonly stretch: readonly Message[];
  /** the earlier summary this stretch continues from (rolling summary) */
  readonly previousSummary: string | undefined;
  /** facts the summary must contain verbatim */
  readonly requiredFacts: readonly string[];
  /** max_tokens: the most tokens the summary may have (passed to the model); an aged summary's budget for an aged one */
  readonly maxTokens: number;
  /**
   * the tokens the prompt asks the summary to fit in (at most maxTokens): a share of the stretch
   * (summary_percent, at least its facts' tokens plus summary_floor_tokens), or an aged summary's budget. A request: a
   * summary over it is still accepted when strictly shorter than the stretch and within maxTokens.
   * The engine always sets it; absent (a request built by hand) it is maxTokens
   */
  readonly budgetTokens?: number;
  /** tokens the whole summary message must stay strictly under (what it replaces) */
  readonly replacedTokens: number;
  readonly summaryTag: string;
  /** the model to ask (already resolved from "same as agent") */
  readonly model: string;
  readonly signal?: AbortSignal;
  /**
   * A summarizer that learns what its provider counted for this call (the HTTP summarizers read
   * the answer's usage) reports it here, once per call, before it returns or throws; optional.
   */
  readonly onUsage?: (usage: SummarizerUsage) => void;
}

/** Tokens a provider reported for one summarizer call; a count it did not report is absent. */
export interface SummarizerUsage {
  /** prompt tokens, the cached ones (read or written) included */
  readonly inputTokens?: number;
  /** tokens of the answer */
  readonly outputTokens?: number;
  /** prompt tokens read from the provider's prompt cache */
  readonly cacheReadTokens?: number;
  /** prompt tokens written to the provider's prompt cache */
  readonly cacheWriteTokens?: number;
  /** the provider's own server-side compaction steps in the call (Anthropic's `usage.iterations` of type compaction) */
  readonly compactionSteps?: number;
  /** the prompt tokens of those steps (counted in inputTokens too) */
  readonly compactionInputTokens?: number;
  /** the tokens those steps wrote (counted in outputTokens too) */
  readonly compactionOutputTokens?: number;
}

/** Several stretches summarized in one call: one request per stretch, and the prompt that asks for all of them. */
export interface BatchSummaryRequest {
  /**
   * renderBatchPrompt of the stretches, the k-th (1-based) answered inside batchPartTag(summaryTag,
   * k): with the built-in prompt its instructions once and per stretch only what differs, with a
   * custom template each stretch's whole prompt
   */
  readonly prompt: string;
  /** the stretches' own requests, in order (each prompt whole, as the stretch would be asked alone) */
  readonly parts: readonly SummaryRequest[];
  /** the most tokens the whole answer may have */
  readonly maxTokens: number;
  readonly summaryTag: string;
  readonly model: string;
  readonly signal?: AbortSignal;
  /** as SummaryRequest's: the provider's usage for the one call */
  readonly onUsage?: (usage: SummarizerUsage) => void;
}

/** A source of summaries. */
export interface Summarizer {
  readonly name: string;
  /**
   * Returns the summary text for a request, or throws a SummarizerError. The engine treats any
   * other thrown value, or an answer that is not a string, as a failed attempt too (retried as the
   * engine's retry policy says, then a degraded run with the reason); after the request's signal
   * is aborted it does not retry. One call should make one request: the engine does the retrying.
   */
  summarize(request: SummaryRequest): Promise<string>;
  /**
   * Optional: the summaries of several stretches from one call, in order; undefined for a stretch
   * the answer holds no summary for (the engine then asks for that one alone). Throws as
   * `summarize` does when the call fails as a whole. Without it, every stretch is its own call.
   */
  summarizeBatch?(request: BatchSummaryRequest): Promise<(string | undefined)[]>;
}
