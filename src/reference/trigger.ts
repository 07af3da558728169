// Reference for src/kernel/trigger.ts, read straight off the L1 row of docs/ARCHITECTURE.md and proofs/PROPERTIES.md.
import type { Thresholds, TriggerKind } from "../kernel/trigger.ts";

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
