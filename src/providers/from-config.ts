// Builds the summarizer a configuration names. API keys come from the environment only
// (OPENAI_API_KEY, ANTHROPIC_API_KEY), never from config files that get committed.
import { API_KEY_ENV } from "../model/call-failure.ts";
import type { Config } from "../model/config.ts";
import { SAME_AS_AGENT, summaryModel } from "../model/config.ts";
import { ConfigError } from "../model/errors.ts";
import type { Summarizer } from "../model/summarizer.ts";
import type { TokenCounter } from "../model/tokens.ts";
import { anthropicSummarizer } from "./anthropic-summarizer.ts";
import { offlineSummarizer } from "./offline-summarizer.ts";
import { openAISummarizer } from "./openai-summarizer.ts";

/** Environment variables read for API keys. */
export type KeyEnv = Readonly<Record<string, string | undefined>>;

/** The summarizer for `c.provider`; throws ConfigError when a key or model is missing. */
export function summarizerFromConfig(c: Config, counter: TokenCounter, env: KeyEnv, agentModel?: string): Summarizer {
  if (c.provider === "offline") return offlineSummarizer(counter);
  if (summaryModel(c.model, agentModel) === undefined) {
    throw new ConfigError(
      "model",
      `"${SAME_AS_AGENT}" but the agent's model is unknown: set model (--model) or use a conversation file that names its model`,
    );
  }
  const baseUrl = c.base_url ?? undefined;
  if (c.provider === "openai") {
    const apiKey = env[API_KEY_ENV.openai];
    if (!apiKey && baseUrl === undefined)
      throw new ConfigError(API_KEY_ENV.openai, "is not set (needed for provider openai at api.openai.com)");
    return openAISummarizer({ baseUrl, apiKey, timeoutMs: c.timeout_ms });
  }
  const apiKey = env[API_KEY_ENV.anthropic];
  if (!apiKey && baseUrl === undefined)
    throw new ConfigError(API_KEY_ENV.anthropic, "is not set (needed for provider anthropic at api.anthropic.com)");
  return anthropicSummarizer({ baseUrl, apiKey, timeoutMs: c.timeout_ms });
}
