// Configuration: the zod schema built from the table of settings (settings-table.ts). zod
// checks shapes and types (naming the field) and fills the defaults; the ranges and "at least
// one threshold" rule are the kernel's L12 decision (config-rules.ts), applied right after.
import { z } from "zod";
import { ConfigError } from "./errors.ts";
import {
  type Config,
  type ConfigInput,
  SAME_AS_AGENT,
  type SettingName,
  type SettingRule,
  type SettingSpec,
  settingRows,
} from "./settings-table.ts";

export {
  type Config,
  type ConfigInput,
  type ProviderName,
  SAME_AS_AGENT,
  type SettingName,
} from "./settings-table.ts";

/**
 * The model summaries are asked of: the configured `model`, or the agent's when it is "same as
 * agent" (undefined when the agent's model is unknown). The one reading of "same as agent".
 */
export function summaryModel(model: string, agentModel: string | undefined): string | undefined {
  return model === SAME_AS_AGENT ? agentModel : model;
}

/** A string, checked by the setting's schema rule when it has one. */
function ruled(rule: SettingRule | undefined): z.ZodType<string> {
  if (rule?.by !== "schema") return z.string();
  return z.string().refine(rule.holds, {
    error: (issue) => (rule.showsValue ? `${rule.says}, got ${JSON.stringify(issue.input)}` : rule.says),
  });
}

/** The schema of one setting: its type, its schema-checked rule, its default. */
function settingSchema(s: SettingSpec): z.ZodType {
  const count = z.number().int();
  switch (s.type) {
    case "count": {
      const least = s.min === undefined ? count : count.min(s.min);
      return (s.max === undefined ? least : least.max(s.max)).default(s.default);
    }
    case "count or unset": {
      const c = (s.min === undefined ? count : count.min(s.min)).nullable().default(s.default);
      return s.zeroIsUnset === true ? c.transform((v) => (v === 0 ? null : v)) : c;
    }
    case "text":
      return ruled(s.rule).default(s.default);
    case "text or unset":
      return ruled(s.rule).nullable().default(s.default);
    case "choice":
      return z.enum(s.choices).default(s.default);
    case "list":
      // a fresh array for each parse: a caller may push onto the one it is given
      return z.array(ruled(s.rule)).default(() => [...s.default]);
    case "switch":
      return z.boolean().default(s.default);
    case "reported usage":
      return z
        .strictObject({ prompt_tokens: count.min(0), messages: count.min(0).nullable().default(null) })
        .nullable()
        .default(s.default);
  }
}

type Shape = { [K in SettingName]: z.ZodType<Config[K], ConfigInput[K]> };

/** The schema of a configuration file (snake_case, every field optional). */
export const configSchema = z.strictObject(
  Object.fromEntries(settingRows().map(([name, s]) => [name, settingSchema(s)])) as Shape,
);

/** A value as an error message quotes it: JSON, or the value's kind when JSON cannot show it. */
function shown(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "a non-finite number";
  const s = JSON.stringify(v);
  if (s === undefined) return typeof v;
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** What each type zod expects is called in an error. */
const EXPECTED: Readonly<Record<string, string>> = {
  int: "a whole number",
  number: "a whole number",
  string: "a string",
  array: "a list of strings",
  object: "an object",
};

/** An issue of the schema as safecut's message (zod's own text only for issues not listed here). */
function issueMessage(issue: z.core.$ZodIssue): string {
  const got = `got ${shown(issue.input)}`;
  switch (issue.code) {
    case "invalid_type":
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, ${got}`;
    case "too_small":
      return `must be ${issue.inclusive === false ? ">" : ">="} ${issue.minimum}, ${got}`;
    case "too_big":
      return `must be a whole number of at most ${issue.maximum}, ${got}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, ${got}`;
    default:
      return issue.message.replace(/^Invalid input: /, "");
  }
}

/**
 * Settings are written snake_case everywhere (objects, files; flags are their kebab-case form);
 * the options of a call (agentModel, maxSteps...) are camelCase and are not settings. For an
 * unknown key that is a setting's camelCase spelling, the hint naming the setting, else "".
 */
function snakeHint(keys: readonly PropertyKey[]): string {
  const names = new Set<string>(settingRows().map(([name]) => name));
  const meant = keys.map((k) => String(k).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).filter((k) => names.has(k));
  return meant.length === 0 ? "" : `; settings are snake_case: did you mean ${meant.join(", ")}?`;
}

/** Parses and type-checks settings, filling defaults; throws ConfigError naming the field. */
export function parseConfigShape(input: unknown): Config {
  const r = configSchema.safeParse(input ?? {}, { reportInput: true });
  if (r.success) return r.data as Config;
  const issue = r.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    // a nested setting's unknown field is named with its path (usage.extra)
    throw new ConfigError(
      issue.keys.map((k) => [...issue.path, k].map(String).join(".")).join(", "),
      `unknown setting${issue.path.length === 0 ? snakeHint(issue.keys) : ""}`,
    );
  }
  const field = issue.path.map(String).join(".") || "(config)";
  throw new ConfigError(field, issueMessage(issue));
}

/** A frozen deep copy: what a compaction uses from start to end, whatever changes meanwhile. */
export function snapshotConfig(c: Config): Readonly<Config> {
  const copy: Record<string, unknown> = { ...c };
  for (const [name, v] of Object.entries(c)) if (Array.isArray(v)) copy[name] = Object.freeze([...v]);
  return Object.freeze(copy) as Readonly<Config>;
}
