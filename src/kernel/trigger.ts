// API: hasThreshold(th): boolean; isCompactionDue(tokens, messages, userTurns, th): boolean;
//      isOverContextWindow(tokens, contextWindow, reserveTokens): boolean;
//      triggerFired(tokens, messages, userTurns, th, contextWindow, reserveTokens): TriggerKind -- L1.

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
//@ ensures \result <==> tokens > contextWindow - reserveTokens
/** Compaction is due iff the history no longer leaves `reserveTokens` free in the window (L1, context-window form). */
export function isOverContextWindow(tokens: number, contextWindow: number, reserveTokens: number): boolean {
  // Written without subtraction so the runtime never forms a negative intermediate.
  return tokens + reserveTokens > contextWindow;
}

/** Which form of L1 makes compaction due: a configured threshold, the context window, or neither. */
export type TriggerKind = "threshold" | "window" | "notDue";

//@ verify
//@ requires tokens >= 0 && messages >= 0 && userTurns >= 0
//@ requires th.tokenThreshold >= 0 && th.messageThreshold >= 0 && th.turnThreshold >= 0
//@ requires contextWindow === 0 || (reserveTokens >= 0 && contextWindow > reserveTokens)
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
