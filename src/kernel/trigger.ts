// API: hasThreshold(th): boolean; isCompactionDue(tokens, messages, userTurns, th): boolean;
//      isOverContextWindow(tokens, contextWindow, reserveTokens): boolean;
//      triggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens): TriggerKind;
//      thresholdFired(tokens, messages, userTurns, th): ThresholdKind;
//      usageTokens(u, tokens): number; usageAfterSplice(u, tokens, start, end, summaryTokens): ReportedPrefix;
//      overByteBudget(bytes, maxBytes): boolean;
//      byteVerdict(bytes, floorBytes, maxBytes): ByteVerdict -- L1.

import { suffixTokens } from "./keeprecent.ts";
import { rangeTokens, sumTokens } from "./progress.ts";

/** Trigger thresholds as the kernel sees them: 0 means "not configured". */
export interface Thresholds {
  tokenThreshold: number;
  messageThreshold: number;
  turnThreshold: number;
}

//@ verify
//@ ensures \result <==> (th.tokenThreshold > 0 || th.messageThreshold > 0 || th.turnThreshold > 0)
/** True when at least one threshold is configured (L1 requires one). */
export function hasThreshold(th: Thresholds): boolean {
  return th.tokenThreshold > 0 || th.messageThreshold > 0 || th.turnThreshold > 0;
}

//@ verify
//@ requires tokens >= 0 && messages >= 0 && userTurns >= 0
//@ requires th.tokenThreshold >= 0 && th.messageThreshold >= 0 && th.turnThreshold >= 0
//@ requires hasThreshold(th)
//@ ensures \result <==> ((th.tokenThreshold > 0 && tokens >= th.tokenThreshold) || (th.messageThreshold > 0 && messages >= th.messageThreshold) || (th.turnThreshold > 0 && userTurns >= th.turnThreshold))
/** Compaction is due iff some configured threshold is reached (L1, threshold form). */
export function isCompactionDue(tokens: number, messages: number, userTurns: number, th: Thresholds): boolean {
  // An unset threshold (0) must never fire, even though every count is >= 0.
  if (th.tokenThreshold > 0 && tokens >= th.tokenThreshold) return true;
  if (th.messageThreshold > 0 && messages >= th.messageThreshold) return true;
  if (th.turnThreshold > 0 && userTurns >= th.turnThreshold) return true;
  return false;
}

//@ verify
//@ requires tokens >= 0 && reserveTokens >= 0 && contextWindow > reserveTokens
//@ requires contextWindow <= 9007199254740991
//@ ensures \result <==> tokens > contextWindow - reserveTokens
/** Compaction is due iff the history no longer leaves `reserveTokens` free in the window (L1, context-window form). */
export function isOverContextWindow(tokens: number, contextWindow: number, reserveTokens: number): boolean {
  // What the window leaves after the reserve lies in [1, contextWindow]: a safe integer, where
  // tokens + reserveTokens could pass 2^53 - 1.
  return tokens > contextWindow - reserveTokens;
}

//@ verify
//@ requires bytes >= 0 && maxBytes >= 0
//@ ensures \result <==> (maxBytes > 0 && bytes > maxBytes)
/**
 * Compaction is due iff the request's bytes pass the byte budget (L1, byte form;
 * max_request_bytes, 0 = no budget): a provider refuses a request over its size whatever its
 * tokens, and images and files count here by their bytes.
 */
export function overByteBudget(bytes: number, maxBytes: number): boolean {
  // an unset budget (0) never fires, even for an empty request
  if (maxBytes === 0) return false;
  return bytes > maxBytes;
}

/**
 * What the byte budget says of a request: it fits; it is over and compaction is due; or it is
 * over and even its lawful byte floor (what no law lets compaction shrink) is over, so no run
 * can bring it under.
 */
export type ByteVerdict = "fits" | "due" | "floorOver";

//@ verify
//@ requires bytes >= 0 && floorBytes >= 0 && maxBytes >= 0 && floorBytes <= bytes
//@ ensures \result === "fits" <==> !overByteBudget(bytes, maxBytes)
//@ ensures \result === "due" <==> (overByteBudget(bytes, maxBytes) && floorBytes <= maxBytes)
//@ ensures \result === "floorOver" <==> (overByteBudget(bytes, maxBytes) && floorBytes > maxBytes)
/**
 * L1, byte form with its lawful floor: a request over max_request_bytes makes compaction due,
 * unless its floor bytes (user and system messages with their images and files, the retention
 * window, summaries that cannot shrink) are over the budget by themselves: then no run can bring
 * the request under it, and the engine must say so once rather than pay for runs that cannot.
 */
export function byteVerdict(bytes: number, floorBytes: number, maxBytes: number): ByteVerdict {
  if (!overByteBudget(bytes, maxBytes)) return "fits";
  // at the budget exactly the floor fits: a run that frees every other byte brings the request under
  if (floorBytes > maxBytes) return "floorOver";
  return "due";
}

/** Which form of L1 makes compaction due: a configured threshold, the context window, or neither. */
export type TriggerKind = "threshold" | "window" | "notDue";

//@ verify
//@ requires tokens >= 0 && messages >= 0 && userTurns >= 0
//@ requires th.tokenThreshold >= 0 && th.messageThreshold >= 0 && th.turnThreshold >= 0
//@ requires contextWindow === 0 || (reserveTokens >= 0 && contextWindow > reserveTokens)
//@ requires contextWindow <= 9007199254740991
//@ requires hasThreshold(th) || contextWindow > 0
//@ ensures \result === "threshold" <==> (hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th))
//@ ensures \result === "window" <==> (!(hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th)) && contextWindow > 0 && tokens > contextWindow - reserveTokens)
//@ ensures \result === "notDue" <==> (!(hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th)) && !(contextWindow > 0 && tokens > contextWindow - reserveTokens))
/** L1 in full: compaction is due iff a configured threshold is reached or the context window is over (0 = no window). */
export function triggerFired(
  tokens: number,
  messages: number,
  userTurns: number,
  th: Thresholds,
  contextWindow: number,
  reserveTokens: number,
): TriggerKind {
  // Thresholds are reported first: either form makes compaction due, the report names one.
  if (hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th)) return "threshold";
  if (contextWindow > 0 && isOverContextWindow(tokens, contextWindow, reserveTokens)) return "window";
  return "notDue";
}

/** Which configured threshold is reached, the token threshold first, then messages, then turns. */
export type ThresholdKind = "tokens" | "messages" | "turns" | "none";

//@ verify
//@ requires tokens >= 0 && messages >= 0 && userTurns >= 0
//@ requires th.tokenThreshold >= 0 && th.messageThreshold >= 0 && th.turnThreshold >= 0
//@ ensures \result === "tokens" <==> (th.tokenThreshold > 0 && tokens >= th.tokenThreshold)
//@ ensures \result === "messages" <==> (!(th.tokenThreshold > 0 && tokens >= th.tokenThreshold) && th.messageThreshold > 0 && messages >= th.messageThreshold)
//@ ensures \result === "turns" <==> (!(th.tokenThreshold > 0 && tokens >= th.tokenThreshold) && !(th.messageThreshold > 0 && messages >= th.messageThreshold) && th.turnThreshold > 0 && userTurns >= th.turnThreshold)
//@ ensures \result === "none" <==> !(hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th))
/** Which threshold makes compaction due (L1, threshold form), for the report: "none" exactly when isCompactionDue does not hold. */
export function thresholdFired(tokens: number, messages: number, userTurns: number, th: Thresholds): ThresholdKind {
  if (th.tokenThreshold > 0 && tokens >= th.tokenThreshold) return "tokens";
  if (th.messageThreshold > 0 && messages >= th.messageThreshold) return "messages";
  if (th.turnThreshold > 0 && userTurns >= th.turnThreshold) return "turns";
  return "none";
}

/**
 * A token count the provider reported for the first `end` messages (the prompt of the request
 * that ended there). {reported: 0, end: 0} stands for no report: every message is counted.
 */
export interface ReportedPrefix {
  reported: number;
  end: number;
}

//@ verify
//@ requires u.reported >= 0 && 0 <= u.end && u.end <= tokens.length && tokens.length <= 9007199254740991
//@ requires forall(k: nat, u.end <= k && k < tokens.length ==> tokens[k] >= 0) && u.reported + sumTokens(tokens, u.end, tokens.length) <= 9007199254740991
//@ ensures \result === u.reported + sumTokens(tokens, u.end, tokens.length)
/** The token count L1 judges when the provider reported `u`: the report for messages [0, u.end) plus the counts of the messages after it. */
export function usageTokens(u: ReportedPrefix, tokens: readonly number[]): number {
  // only the messages after the reported prefix are counted: that is the point of a report
  const after = suffixTokens(tokens, u.end);
  //@ use SumTokensNonNeg(tokens, u.end, tokens.length)
  return u.reported + after;
}

//@ verify
//@ requires u.reported >= 0 && 0 <= u.end && u.end <= tokens.length
//@ requires 0 <= start && start < end && end <= tokens.length && summaryTokens >= 0
//@ requires tokens.length <= 9007199254740991 && summaryTokens <= 9007199254740991 - u.reported
//@ requires forall(k: nat, start <= k && k < end ==> tokens[k] >= 0) && sumTokens(tokens, start, end) <= 9007199254740991
//@ ensures u.end <= start ==> \result.reported === u.reported && \result.end === u.end
//@ ensures start < u.end && end <= u.end && sumTokens(tokens, start, end) <= u.reported ==> \result.reported === u.reported - sumTokens(tokens, start, end) + summaryTokens && \result.end === u.end - (end - start) + 1
//@ ensures start < u.end && u.end < end && sumTokens(tokens, start, u.end) <= u.reported ==> \result.reported === u.reported - sumTokens(tokens, start, u.end) && \result.end === start
//@ ensures start < u.end && sumTokens(tokens, start, Math.min(end, u.end)) > u.reported ==> \result.reported === 0 && \result.end === 0
//@ ensures \result.reported >= 0 && 0 <= \result.end && \result.end <= tokens.length - (end - start) + 1
//@ ensures !(start < u.end && sumTokens(tokens, start, Math.min(end, u.end)) > u.reported) ==> \result.reported + sumTokens(splicedTokens(tokens, start, end, summaryTokens), \result.end, tokens.length - (end - start) + 1) === u.reported + sumTokens(tokens, u.end, tokens.length) - sumTokens(tokens, start, end) + summaryTokens
/**
 * The report carried across a splice of messages [start, end) by a summary of summaryTokens
 * (L1 after a compaction step): a stretch after the reported prefix leaves it as it is; one
 * inside it takes its counted tokens out of the report and puts the summary's in, so the
 * judged total moves by exactly what the step changed; one that reaches past the prefix's end
 * takes out the part inside and ends the prefix at `start` (the summary is counted after it).
 * When the report holds fewer tokens than the counter finds in the part taken out, the report
 * and the counter disagree too much to adjust one by the other: the report is dropped and every
 * message is counted from then on.
 */
export function usageAfterSplice(
  u: ReportedPrefix,
  tokens: readonly number[],
  start: number,
  end: number,
  summaryTokens: number,
): ReportedPrefix {
  //@ use SuffixAfterSplice(tokens, start, end, summaryTokens, u.end)
  if (u.end <= start) return { reported: u.reported, end: u.end };
  const cut = Math.min(end, u.end);
  //@ use SumTokensSplit(tokens, start, cut, end)
  //@ use SumTokensNonNeg(tokens, cut, end)
  const removed = rangeTokens(tokens, start, cut);
  //@ use SumTokensNonNeg(tokens, start, cut)
  if (removed > u.reported) return { reported: 0, end: 0 };
  if (end <= u.end) return { reported: u.reported - removed + summaryTokens, end: u.end - (end - start) + 1 };
  return { reported: u.reported - removed, end: start };
}
