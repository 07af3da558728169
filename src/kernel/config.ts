// API: validateConfig(c: ConfigView): ConfigField; configOk(c): boolean; maxTokensLimit(): number;
//      one rule per field: maxTokensOk, tokenThresholdOk, messageThresholdOk, turnThresholdOk,
//      thresholdsOk, retentionWindowOk, summaryTagOk, modelOk, contextWindowOk, reserveTokensOk,
//      keepRecentTokensOk, softTokenThresholdOk (each (c: ConfigView) => boolean) -- L12.

/** The numeric/boolean view of a configuration that L12 constrains; "...Set" is false for an unset optional setting. */
export interface ConfigView {
  maxTokens: number;
  tokenThresholdSet: boolean;
  tokenThreshold: number;
  messageThresholdSet: boolean;
  messageThreshold: number;
  turnThresholdSet: boolean;
  turnThreshold: number;
  retentionWindow: number;
  /** length of the summary tag string */
  summaryTagLength: number;
  /** the model is "same as agent" or one the provider knows */
  modelKnown: boolean;
  contextWindowSet: boolean;
  contextWindow: number;
  reserveTokens: number;
  keepRecentTokensSet: boolean;
  keepRecentTokens: number;
  softTokenThresholdSet: boolean;
  softTokenThreshold: number;
}

/** The first invalid setting, in the order below, or "none" when the configuration is valid. */
export type ConfigField =
  | "none"
  | "maxTokens"
  | "tokenThreshold"
  | "messageThreshold"
  | "turnThreshold"
  | "trigger"
  | "retentionWindow"
  | "summaryTag"
  | "model"
  | "contextWindow"
  | "reserveTokens"
  | "keepRecentTokens"
  | "softTokenThreshold";

//@ verify
//@ ensures \result === 100000
/** Largest accepted max_tokens: a summary longer than this is no longer a summary. */
export function maxTokensLimit(): number {
  return 100000;
}

//@ verify
//@ ensures \result <==> (1 <= c.maxTokens && c.maxTokens <= maxTokensLimit())
/** max_tokens lies in 1..maxTokensLimit(). */
export function maxTokensOk(c: ConfigView): boolean {
  if (c.maxTokens < 1) return false;
  return c.maxTokens <= maxTokensLimit();
}

//@ verify
//@ ensures \result <==> (c.tokenThresholdSet ==> c.tokenThreshold > 0)
/** token_threshold, when set, is positive. */
export function tokenThresholdOk(c: ConfigView): boolean {
  return !c.tokenThresholdSet || c.tokenThreshold >= 1;
}

//@ verify
//@ ensures \result <==> (c.messageThresholdSet ==> c.messageThreshold > 0)
/** message_threshold, when set, is positive. */
export function messageThresholdOk(c: ConfigView): boolean {
  return !c.messageThresholdSet || c.messageThreshold >= 1;
}

//@ verify
//@ ensures \result <==> (c.turnThresholdSet ==> c.turnThreshold > 0)
/** turn_threshold, when set, is positive. */
export function turnThresholdOk(c: ConfigView): boolean {
  return !c.turnThresholdSet || c.turnThreshold >= 1;
}

//@ verify
//@ ensures \result <==> (c.tokenThresholdSet || c.messageThresholdSet || c.turnThresholdSet || c.contextWindowSet)
/** Some trigger is configured: one of the three thresholds, or the context-window form. */
export function thresholdsOk(c: ConfigView): boolean {
  if (c.tokenThresholdSet || c.messageThresholdSet) return true;
  return c.turnThresholdSet || c.contextWindowSet;
}

//@ verify
//@ ensures \result <==> c.retentionWindow >= 1
/** retention_window keeps at least the newest message. */
export function retentionWindowOk(c: ConfigView): boolean {
  return c.retentionWindow > 0;
}

//@ verify
//@ ensures \result <==> c.summaryTagLength >= 1
/** summary_tag is not empty. */
export function summaryTagOk(c: ConfigView): boolean {
  return c.summaryTagLength > 0;
}

//@ verify
//@ ensures \result <==> c.modelKnown
/** The model is known or "same as agent". */
export function modelOk(c: ConfigView): boolean {
  return c.modelKnown;
}

//@ verify
//@ ensures \result <==> (c.contextWindowSet ==> c.contextWindow > 0)
/** context_window, when set, is positive. */
export function contextWindowOk(c: ConfigView): boolean {
  return !c.contextWindowSet || c.contextWindow >= 1;
}

//@ verify
//@ ensures \result <==> (c.reserveTokens >= 0 && (c.contextWindowSet ==> c.reserveTokens < c.contextWindow))
/** reserve_tokens is >= 0 and leaves room in the context window. */
export function reserveTokensOk(c: ConfigView): boolean {
  if (c.reserveTokens < 0) return false;
  if (c.contextWindowSet) return c.reserveTokens < c.contextWindow;
  return true;
}

//@ verify
//@ requires -9007199254740991 <= c.keepRecentTokens && c.keepRecentTokens <= 9007199254740991 && -9007199254740991 <= c.reserveTokens && c.reserveTokens <= 9007199254740991 && -9007199254740991 <= c.contextWindow && c.contextWindow <= 9007199254740991
//@ ensures \result <==> (c.keepRecentTokensSet ==> (c.keepRecentTokens > 0 && (c.contextWindowSet ==> c.keepRecentTokens < c.contextWindow - c.reserveTokens)))
/** keep_recent_tokens, when set, is positive and below what the window holds after the reserve (else nothing could be cut). */
export function keepRecentTokensOk(c: ConfigView): boolean {
  if (!c.keepRecentTokensSet) return true;
  if (c.keepRecentTokens <= 0) return false;
  if (!c.contextWindowSet) return true;
  // keep < window - reserve, computed where every result is a safe integer (all three are)
  if (c.reserveTokens < 0) return c.keepRecentTokens + c.reserveTokens < c.contextWindow;
  if (c.contextWindow < 0) return false;
  return c.keepRecentTokens < c.contextWindow - c.reserveTokens;
}

//@ verify
//@ requires -9007199254740991 <= c.softTokenThreshold && c.softTokenThreshold <= 9007199254740991 && -9007199254740991 <= c.reserveTokens && c.reserveTokens <= 9007199254740991 && -9007199254740991 <= c.contextWindow && c.contextWindow <= 9007199254740991
//@ ensures \result <==> (c.softTokenThresholdSet ==> (c.softTokenThreshold > 0 && (c.tokenThresholdSet ==> c.softTokenThreshold < c.tokenThreshold) && (c.contextWindowSet ==> c.softTokenThreshold < c.contextWindow - c.reserveTokens)))
/** soft_token_threshold, when set, is positive and below both triggers it precedes: token_threshold and what the window holds after the reserve (else background compaction starts no earlier than a blocking one). */
export function softTokenThresholdOk(c: ConfigView): boolean {
  if (!c.softTokenThresholdSet) return true;
  if (c.softTokenThreshold <= 0) return false;
  if (c.tokenThresholdSet && c.softTokenThreshold >= c.tokenThreshold) return false;
  if (!c.contextWindowSet) return true;
  // soft < window - reserve, computed where every result is a safe integer (all three are)
  if (c.reserveTokens < 0) return c.softTokenThreshold + c.reserveTokens < c.contextWindow;
  if (c.contextWindow < 0) return false;
  return c.softTokenThreshold < c.contextWindow - c.reserveTokens;
}

//@ verify
//@ requires -9007199254740991 <= c.keepRecentTokens && c.keepRecentTokens <= 9007199254740991 && -9007199254740991 <= c.reserveTokens && c.reserveTokens <= 9007199254740991 && -9007199254740991 <= c.contextWindow && c.contextWindow <= 9007199254740991 && -9007199254740991 <= c.softTokenThreshold && c.softTokenThreshold <= 9007199254740991
//@ ensures \result <==> (maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c) && summaryTagOk(c) && modelOk(c) && contextWindowOk(c) && reserveTokensOk(c) && keepRecentTokensOk(c) && softTokenThresholdOk(c))
/** Every L12 rule holds. */
export function configOk(c: ConfigView): boolean {
  return (
    maxTokensOk(c) &&
    tokenThresholdOk(c) &&
    messageThresholdOk(c) &&
    turnThresholdOk(c) &&
    thresholdsOk(c) &&
    retentionWindowOk(c) &&
    summaryTagOk(c) &&
    modelOk(c) &&
    contextWindowOk(c) &&
    reserveTokensOk(c) &&
    keepRecentTokensOk(c) &&
    softTokenThresholdOk(c)
  );
}

//@ verify
//@ requires -9007199254740991 <= c.keepRecentTokens && c.keepRecentTokens <= 9007199254740991 && -9007199254740991 <= c.reserveTokens && c.reserveTokens <= 9007199254740991 && -9007199254740991 <= c.contextWindow && c.contextWindow <= 9007199254740991 && -9007199254740991 <= c.softTokenThreshold && c.softTokenThreshold <= 9007199254740991
//@ ensures \result === "none" <==> configOk(c)
//@ ensures \result === "maxTokens" ==> !maxTokensOk(c)
//@ ensures \result === "tokenThreshold" ==> !tokenThresholdOk(c) && maxTokensOk(c)
//@ ensures \result === "messageThreshold" ==> !messageThresholdOk(c) && maxTokensOk(c) && tokenThresholdOk(c)
//@ ensures \result === "turnThreshold" ==> !turnThresholdOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c)
//@ ensures \result === "trigger" ==> !thresholdsOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c)
//@ ensures \result === "retentionWindow" ==> !retentionWindowOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c)
//@ ensures \result === "summaryTag" ==> !summaryTagOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c)
//@ ensures \result === "model" ==> !modelOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c) && summaryTagOk(c)
//@ ensures \result === "contextWindow" ==> !contextWindowOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c) && summaryTagOk(c) && modelOk(c)
//@ ensures \result === "reserveTokens" ==> !reserveTokensOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c) && summaryTagOk(c) && modelOk(c) && contextWindowOk(c)
//@ ensures \result === "keepRecentTokens" ==> !keepRecentTokensOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c) && summaryTagOk(c) && modelOk(c) && contextWindowOk(c) && reserveTokensOk(c)
//@ ensures \result === "softTokenThreshold" ==> !softTokenThresholdOk(c) && maxTokensOk(c) && tokenThresholdOk(c) && messageThresholdOk(c) && turnThresholdOk(c) && thresholdsOk(c) && retentionWindowOk(c) && summaryTagOk(c) && modelOk(c) && contextWindowOk(c) && reserveTokensOk(c) && keepRecentTokensOk(c)
/** The first setting that breaks its L12 rule, in declaration order, or "none" (total: every input gets an answer). */
export function validateConfig(c: ConfigView): ConfigField {
  if (!maxTokensOk(c)) return "maxTokens";
  if (!tokenThresholdOk(c)) return "tokenThreshold";
  if (!messageThresholdOk(c)) return "messageThreshold";
  if (!turnThresholdOk(c)) return "turnThreshold";
  if (!thresholdsOk(c)) return "trigger";
  if (!retentionWindowOk(c)) return "retentionWindow";
  if (!summaryTagOk(c)) return "summaryTag";
  if (!modelOk(c)) return "model";
  if (!contextWindowOk(c)) return "contextWindow";
  if (!reserveTokensOk(c)) return "reserveTokens";
  if (!keepRecentTokensOk(c)) return "keepRecentTokens";
  if (!softTokenThresholdOk(c)) return "softTokenThreshold";
  return "none";
}
