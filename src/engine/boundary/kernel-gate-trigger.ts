// The kernel gate, the judging stage (one of the engine's doors into the kernel; kernel-gate.ts
// re-exports them all): is compaction due (L1, thresholds, the byte budget, reported usage), the
// retention window's cut (L3), the settings' validation and the cap on max_tokens, and tool-output
// truncation's kept lines. Input: counts and settings as the kernel's types; output: the kernel's
// answer. Every function here calls its kernel function after checking the kernel's `//@ requires` with the guard generated from them (kernel-requires.ts); stateless: it keeps nothing between calls and changes nothing it is given, and decides nothing itself (the kernel does).

import { type ConfigField, type ConfigView, maxTokensLimit, validateConfig } from "../../kernel/config.ts";
import { retentionCutoff } from "../../kernel/retention.ts";
import {
  type ByteVerdict,
  byteVerdict,
  overByteBudget,
  type ReportedPrefix,
  type ThresholdKind,
  type Thresholds,
  type TriggerKind,
  thresholdFired,
  triggerFired,
  usageAfterSplice,
  usageTokens,
} from "../../kernel/trigger.ts";
import { keepHeadLines, keepTailLines } from "../../kernel/truncate.ts";
import {
  guardByteVerdict,
  guardKeepHeadLines,
  guardKeepTailLines,
  guardOverByteBudget,
  guardRetentionCutoff,
  guardThresholdFired,
  guardTriggerFired,
  guardUsageAfterSplice,
  guardUsageTokens,
  guardValidateConfig,
} from "./kernel-requires.ts";

/** L1, both forms: which trigger makes compaction due (contextWindow 0 = no window). */
export function gateTriggerFired(
  tokens: number,
  messages: number,
  userTurns: number,
  th: Thresholds,
  contextWindow: number,
  reserveTokens: number,
): TriggerKind {
  guardTriggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens);
  return triggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens);
}

/** L1, byte form: whether a request of `bytes` passes the byte budget (max_request_bytes; 0 = none). */
export function gateOverByteBudget(bytes: number, maxBytes: number): boolean {
  guardOverByteBudget(bytes, maxBytes);
  return overByteBudget(bytes, maxBytes);
}

/** L1, byte form with its floor: whether a request fits, is due, or has a byte floor over the budget itself. */
export function gateByteVerdict(bytes: number, floorBytes: number, maxBytes: number): ByteVerdict {
  guardByteVerdict(bytes, floorBytes, maxBytes);
  return byteVerdict(bytes, floorBytes, maxBytes);
}

/** L1, threshold form: which configured threshold is reached (tokens first), for the report. */
export function gateThresholdFired(tokens: number, messages: number, userTurns: number, th: Thresholds): ThresholdKind {
  guardThresholdFired(tokens, messages, userTurns, th);
  return thresholdFired(tokens, messages, userTurns, th);
}

/** L1 with reported usage: the token count the trigger judges (the report for a prefix plus the counts after it). */
export function gateUsageTokens(u: ReportedPrefix, tokens: readonly number[]): number {
  guardUsageTokens(u, tokens);
  return usageTokens(u, tokens);
}

/** L1 with reported usage, after a compaction step replaced [start, end) by a summary of summaryTokens. */
export function gateUsageAfterSplice(
  u: ReportedPrefix,
  tokens: readonly number[],
  start: number,
  end: number,
  summaryTokens: number,
): ReportedPrefix {
  guardUsageAfterSplice(u, tokens, start, end, summaryTokens);
  return usageAfterSplice(u, tokens, start, end, summaryTokens);
}

/** L3: index of the first message of the retention window. */
export function gateRetentionCutoff(n: number, window: number): number {
  guardRetentionCutoff(n, window);
  return retentionCutoff(n, window);
}

/** L12: the first invalid setting of a configuration's numeric view, or "none". */
export function gateValidateConfig(view: ConfigView): ConfigField {
  guardValidateConfig(view);
  return validateConfig(view);
}

/** L12: the largest accepted max_tokens (for error messages). */
export function gateMaxTokensLimit(): number {
  return maxTokensLimit();
}

/** L11: how many whole lines of the head (or tail) fit both budgets. */
export function gateKeepLines(
  lineBytes: readonly number[],
  maxLines: number,
  maxBytes: number,
  from: "head" | "tail",
): number {
  if (from === "head") guardKeepHeadLines(lineBytes, maxLines, maxBytes);
  else guardKeepTailLines(lineBytes, maxLines, maxBytes);
  return from === "head" ? keepHeadLines(lineBytes, maxLines, maxBytes) : keepTailLines(lineBytes, maxLines, maxBytes);
}
