// Settings for a CLI run: defaults, then the --config file, then flags (later wins). Numbers
// from flags are passed to the config parser as numbers (NaN included) so that a bad value
// gets the same field-naming error as in a config file.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "../engine/errors.ts";

/** Flag values as commander gives them (strings; repeated --anchor as an array). */
export type FlagValues = Readonly<Record<string, string | string[] | boolean | undefined>>;

// flag (camelCase as commander names it) -> config field, and how to read its value
const NUMERIC: Record<string, string> = {
  maxTokens: "max_tokens",
  tokenThreshold: "token_threshold",
  messageThreshold: "message_threshold",
  turnThreshold: "turn_threshold",
  retentionWindow: "retention_window",
  contextWindow: "context_window",
  reserveTokens: "reserve_tokens",
  keepRecentTokens: "keep_recent_tokens",
  timeoutMs: "timeout_ms",
};
const TEXT: Record<string, string> = {
  provider: "provider",
  model: "model",
  baseUrl: "base_url",
  summaryTag: "summary_tag",
  tokenizer: "tokenizer",
};

function numberOrUnset(v: string): number | null {
  const t = v.trim().toLowerCase();
  if (t === "none" || t === "null" || t === "unset") return null;
  return t === "" ? Number.NaN : Number(t);
}

/** The usage setting from --usage TOKENS[:MESSAGES] (numbers read as the numeric flags are, so bad ones get the setting's error). */
function usageFlag(v: string): { prompt_tokens: number | null; messages?: number | null } | null {
  const colon = v.indexOf(":");
  const tokens = numberOrUnset(colon < 0 ? v : v.slice(0, colon));
  if (colon < 0) return tokens === null ? null : { prompt_tokens: tokens };
  return { prompt_tokens: tokens, messages: numberOrUnset(v.slice(colon + 1)) };
}

/** Reads a JSON config file (throws ConfigError naming the file on bad JSON or a non-object). */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError("--config", `cannot read ${path}: ${(e as Error).message}`);
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ConfigError("--config", `${path} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new ConfigError("--config", `${path} must hold a JSON object of settings`);
  return v as Record<string, unknown>;
}

/** Merges the config file (if any, relative to cwd) and the flags into one settings object. */
export function settingsFromFlags(flags: FlagValues, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> =
    typeof flags.config === "string" ? { ...readConfigFile(resolve(cwd, flags.config)) } : {};
  for (const [flag, field] of Object.entries(NUMERIC)) {
    const v = flags[flag];
    if (typeof v === "string") out[field] = numberOrUnset(v);
  }
  for (const [flag, field] of Object.entries(TEXT)) {
    const v = flags[flag];
    if (typeof v === "string") out[field] = v;
  }
  if (typeof flags.promptFile === "string") {
    try {
      out.prompt = readFileSync(resolve(cwd, flags.promptFile), "utf8");
    } catch (e) {
      throw new ConfigError("--prompt-file", `cannot read ${flags.promptFile}: ${(e as Error).message}`);
    }
  }
  // --usage TOKENS[:MESSAGES] is the usage setting; "none" unsets one from the config file
  if (typeof flags.usage === "string") out.usage = usageFlag(flags.usage);
  const anchors = flags.anchor;
  if (Array.isArray(anchors) && anchors.length > 0) {
    const existing = Array.isArray(out.anchors) ? (out.anchors as unknown[]) : [];
    out.anchors = [...existing, ...anchors];
  }
  return out;
}
