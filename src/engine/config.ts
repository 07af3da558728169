// Configuration: the settings (README's configuration table) with their defaults. zod checks shapes
// and types (naming the field); the ranges and "at least one threshold" rule are the
// kernel's L12 decision (see kernel-gate.ts), applied right after.
import { z } from "zod";
import { ConfigError } from "./errors.ts";
import { DEFAULT_PROMPT } from "./prompt-template.ts";

/** The model value meaning "summarize with the agent's own model". */
export const SAME_AS_AGENT = "same as agent";

const count = z.number().int();
const optionalCount = count.nullable();

/** The schema of a configuration file (snake_case, every field optional). */
export const configSchema = z.strictObject({
  max_tokens: count.default(2000),
  token_threshold: optionalCount.default(60000),
  message_threshold: optionalCount.default(null),
  turn_threshold: optionalCount.default(null),
  retention_window: count.default(6),
  model: z.string().default(SAME_AS_AGENT),
  prompt: z
    .string()
    .refine((p) => p.includes("{{conversation}}"), {
      message: "the prompt template must contain {{conversation}}",
    })
    .default(DEFAULT_PROMPT),
  summary_tag: z.string().default("summary"),
  context_window: optionalCount.default(null),
  reserve_tokens: count.default(16384),
  // 0 asks for no recent tokens to be kept: the same as no keep-recent constraint (null)
  keep_recent_tokens: optionalCount.default(null).transform((v) => (v === 0 ? null : v)),
  anchors: z.array(z.string()).default([]),
  provider: z.enum(["offline", "openai", "anthropic"]).default("offline"),
  base_url: z.string().nullable().default(null),
  timeout_ms: count.min(1).default(60000),
  tokenizer: z.enum(["bpe", "chars"]).default("bpe"),
  known_models: z.array(z.string()).default([]),
  // a provider-reported prompt token count for the first `messages` messages (null: all of them),
  // judged by the trigger instead of counting them (README, "Reported usage")
  usage: z
    .strictObject({ prompt_tokens: count.min(0), messages: count.min(0).nullable().default(null) })
    .nullable()
    .default(null),
});

/** A complete configuration (defaults filled in), not yet checked against L12. */
export type Config = z.output<typeof configSchema>;
/** What a user may write: any subset of the settings. */
export type ConfigInput = z.input<typeof configSchema>;
/** The summarizer providers. */
export type ProviderName = Config["provider"];

/** Parses and type-checks settings, filling defaults; throws ConfigError naming the field. */
export function parseConfigShape(input: unknown): Config {
  const r = configSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    // a nested setting's unknown field is named with its path (usage.extra)
    throw new ConfigError(
      issue.keys.map((k) => [...issue.path, k].map(String).join(".")).join(", "),
      "unknown setting",
    );
  }
  const field = issue.path.map(String).join(".") || "(config)";
  throw new ConfigError(field, issue.message.replace(/^Invalid input: /, ""));
}

/** A frozen deep copy: what a compaction uses from start to end, whatever changes meanwhile. */
export function snapshotConfig(c: Config): Readonly<Config> {
  return Object.freeze({
    ...c,
    anchors: Object.freeze([...c.anchors]) as string[],
    known_models: Object.freeze([...c.known_models]) as string[],
  });
}
