// Reference for src/kernel/trigger.ts, read straight off the L1 row of docs/ARCHITECTURE.md and proofs/PROPERTIES.md.
import type { ReportedPrefix, ThresholdKind, Thresholds, TriggerKind } from "../kernel/trigger.ts";

/** Plain reference of hasThreshold. */
export function hasThreshold(th: Thresholds): boolean {
  return [th.tokenThreshold, th.messageThreshold, th.turnThreshold].some((t) => t !== 0);
}

/** Plain reference of isCompactionDue. */
export function isCompactionDue(tokens: number, messages: number, userTurns: number, th: Thresholds): boolean {
  const pairs: Array<[number, number]> = [
    [tokens, th.tokenThreshold],
    [messages, th.messageThreshold],
    [userTurns, th.turnThreshold],
  ];
  return pairs.some(([count, threshold]) => threshold !== 0 && count >= threshold);
}

/** Plain reference of isOverContextWindow. */
export function isOverContextWindow(tokens: number, contextWindow: number, reserveTokens: number): boolean {
  return tokens > contextWindow - reserveTokens;
}

/** Plain reference of triggerFired: either form of L1, thresholds named first. */
export function triggerFired(
  tokens: number,
  messages: number,
  userTurns: number,
  th: Thresholds,
  contextWindow: number,
  reserveTokens: number,
): TriggerKind {
  const byThreshold = hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th);
  const byWindow = contextWindow !== 0 && tokens > contextWindow - reserveTokens;
  if (byThreshold) return "threshold";
  return byWindow ? "window" : "notDue";
}

/** Plain reference of thresholdFired: the first of tokens, messages, turns whose configured threshold is reached. */
export function thresholdFired(tokens: number, messages: number, userTurns: number, th: Thresholds): ThresholdKind {
  const kinds: Array<[Exclude<ThresholdKind, "none">, number, number]> = [
    ["tokens", tokens, th.tokenThreshold],
    ["messages", messages, th.messageThreshold],
    ["turns", userTurns, th.turnThreshold],
  ];
  return kinds.find(([, count, threshold]) => threshold !== 0 && count >= threshold)?.[0] ?? "none";
}

/** Plain reference of usageTokens: the report plus every count after the reported prefix. */
export function usageTokens(u: ReportedPrefix, tokens: readonly number[]): number {
  return tokens.slice(u.end).reduce((a, b) => a + b, u.reported);
}

/** Plain reference of usageAfterSplice, case by case as the L1 row with usage states it. */
export function usageAfterSplice(
  u: ReportedPrefix,
  tokens: readonly number[],
  start: number,
  end: number,
  summaryTokens: number,
): ReportedPrefix {
  if (start >= u.end) return { ...u };
  const inside = tokens.slice(start, Math.min(end, u.end)).reduce((a, b) => a + b, 0);
  if (inside > u.reported) return { reported: 0, end: 0 };
  return end <= u.end
    ? { reported: u.reported - inside + summaryTokens, end: u.end - (end - start) + 1 }
    : { reported: u.reported - inside, end: start };
}

/** Plain reference of overByteBudget: a set budget, passed. */
export function overByteBudget(bytes: number, maxBytes: number): boolean {
  return maxBytes !== 0 && bytes - maxBytes > 0;
}

/** Plain reference of byteVerdict: fits unless over a set budget; over it, due unless the floor alone is over. */
export function byteVerdict(bytes: number, floorBytes: number, maxBytes: number): "fits" | "due" | "floorOver" {
  if (maxBytes === 0 || bytes <= maxBytes) return "fits";
  return floorBytes - maxBytes > 0 ? "floorOver" : "due";
}
