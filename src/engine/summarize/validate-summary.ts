// Validation of a summary before it may replace a stretch: not empty, within max_tokens and
// strictly shorter than what it replaces (the kernel's L8 decision), and keeping every
// required fact verbatim.

import { summaryMessage } from "../../model/message.ts";
import { messageTokens, type TokenCounter } from "../../model/tokens.ts";
import { gateAcceptSummary, gateNotShrinkable } from "../boundary/kernel-gate.ts";
import { missingFacts } from "./facts.ts";

/** The verdict on one summary. */
export type SummaryVerdict =
  | { readonly ok: true; readonly tokens: number }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly tokens: number;
      /** rejected only for not being shorter than what it replaces (within max_tokens: L8's length rule alone) */
      readonly notShorter: boolean;
    };

/** What a summary is checked against. */
export interface SummaryLimits {
  readonly replacedTokens: number;
  readonly maxTokens: number;
  readonly requiredFacts: readonly string[];
  readonly counter: TokenCounter;
}

function listSome(xs: readonly string[]): string {
  const shown = xs
    .slice(0, 5)
    .map((x) => JSON.stringify(x))
    .join(", ");
  return xs.length > 5 ? `${shown} and ${xs.length - 5} more` : shown;
}

/** Checks a summary text against the limits of its stretch. */
export function validateSummary(text: string, lim: SummaryLimits): SummaryVerdict {
  const tokens = messageTokens(lim.counter, summaryMessage(text));
  if (text.trim() === "") return { ok: false, reason: "the summary is empty", tokens, notShorter: false };
  if (!gateAcceptSummary(tokens, lim.replacedTokens, lim.maxTokens)) {
    const why =
      tokens >= lim.replacedTokens
        ? `is not shorter than what it replaces (${tokens} >= ${lim.replacedTokens} tokens)`
        : `exceeds max_tokens (${tokens} > ${lim.maxTokens})`;
    return {
      ok: false,
      reason: `the summary ${why}`,
      tokens,
      notShorter: gateNotShrinkable(tokens, lim.replacedTokens) && tokens <= lim.maxTokens,
    };
  }
  const missing = missingFacts(text, lim.requiredFacts);
  if (missing.length > 0)
    return {
      ok: false,
      reason: `the summary dropped required facts: ${listSome(missing)}`,
      tokens,
      notShorter: false,
    };
  return { ok: true, tokens };
}
