// L12: after zod has checked types, the kernel decides whether the settings are valid. This
// file builds the kernel's numeric view and turns the kernel's verdict into a message that
// names the field as the user wrote it.
import type { ConfigField, ConfigView } from "../kernel/config.ts";
import { type Config, parseConfigShape, SAME_AS_AGENT } from "./config.ts";
import { ConfigError } from "./errors.ts";
import { gateMaxTokensLimit, gateValidateConfig } from "./kernel-gate.ts";

// Model families each provider serves; an OpenAI-compatible server at a custom base_url may
// serve anything, and `known_models` extends the list.
const FAMILIES: Record<Config["provider"], RegExp> = {
  openai: /^(gpt-|chatgpt-|o\d|ft:)/,
  anthropic: /^claude-/,
  offline: /^(offline$|gpt-|chatgpt-|o\d|claude-)/,
};

/** Whether the configured model is "same as agent" or one the provider knows. */
export function modelKnown(c: Config): boolean {
  if (c.model === SAME_AS_AGENT || c.known_models.includes(c.model)) return true;
  if (c.provider === "openai" && c.base_url !== null && c.model.trim() !== "") return true;
  return FAMILIES[c.provider].test(c.model);
}

/** The numeric view of a configuration that the kernel's L12 function judges. */
export function configView(c: Config): ConfigView {
  return {
    maxTokens: c.max_tokens,
    tokenThresholdSet: c.token_threshold !== null,
    tokenThreshold: c.token_threshold ?? 0,
    messageThresholdSet: c.message_threshold !== null,
    messageThreshold: c.message_threshold ?? 0,
    turnThresholdSet: c.turn_threshold !== null,
    turnThreshold: c.turn_threshold ?? 0,
    retentionWindow: c.retention_window,
    summaryTagLength: c.summary_tag.length,
    modelKnown: modelKnown(c),
    contextWindowSet: c.context_window !== null,
    contextWindow: c.context_window ?? 0,
    reserveTokens: c.reserve_tokens,
    keepRecentTokensSet: c.keep_recent_tokens !== null,
    keepRecentTokens: c.keep_recent_tokens ?? 0,
  };
}

const MESSAGES: Record<Exclude<ConfigField, "none">, (c: Config) => [string, string]> = {
  maxTokens: (c) => ["max_tokens", `must be between 1 and ${gateMaxTokensLimit()}, got ${c.max_tokens}`],
  tokenThreshold: (c) => ["token_threshold", `must be > 0 when set (null unsets it), got ${c.token_threshold}`],
  messageThreshold: (c) => ["message_threshold", `must be > 0 when set (null unsets it), got ${c.message_threshold}`],
  turnThreshold: (c) => ["turn_threshold", `must be > 0 when set (null unsets it), got ${c.turn_threshold}`],
  trigger: () => [
    "token_threshold",
    "no trigger configured: set at least one of token_threshold, message_threshold, turn_threshold or context_window",
  ],
  retentionWindow: (c) => ["retention_window", `must be >= 1, got ${c.retention_window}`],
  summaryTag: () => ["summary_tag", "must not be empty"],
  model: (c) => [
    "model",
    `unknown model ${JSON.stringify(c.model)} for provider ${c.provider}: use "${SAME_AS_AGENT}", a ${c.provider} model, or list it in known_models`,
  ],
  contextWindow: (c) => ["context_window", `must be > 0 when set, got ${c.context_window}`],
  reserveTokens: (c) => ["reserve_tokens", `must be >= 0 and below context_window, got ${c.reserve_tokens}`],
  keepRecentTokens: (c) => [
    "keep_recent_tokens",
    `must be > 0 (0 or null: no keep-recent constraint) and fit in context_window - reserve_tokens, got ${c.keep_recent_tokens}`,
  ],
};

/** Throws a ConfigError naming the first setting the kernel rejects (L12). */
export function assertConfigValid(c: Config): Config {
  const bad = gateValidateConfig(configView(c));
  if (bad === "none") return c;
  const [field, message] = MESSAGES[bad](c);
  throw new ConfigError(field, message);
}

/** Parses settings (types by zod, rules by the kernel) into a valid configuration. */
export function parseConfig(input: unknown): Config {
  return assertConfigValid(parseConfigShape(input));
}
