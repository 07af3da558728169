// L12: after zod has checked types, the kernel decides whether the settings are valid. This
// file builds the kernel's numeric view from the table of settings (settings-table.ts) and
// turns the kernel's verdict into a message that names the field as the user wrote it.
import type { ConfigField, ConfigView } from "../../kernel/config.ts";
import { type Config, parseConfigShape, SAME_AS_AGENT } from "../../model/config.ts";
import { ConfigError } from "../../model/errors.ts";
import {
  type LimitsContext,
  type ModelLimitsReport,
  resolveModelLimits,
  withModelLimits,
} from "../../model/model-limits.ts";
import { type SETTINGS, type SettingName, type SettingSpec, settingRows } from "../../model/settings-table.ts";
import { gateMaxTokensLimit, gateValidateConfig } from "./kernel-gate.ts";

// Model families each provider serves; an OpenAI-compatible server at a custom base_url may
// serve anything, and `known_models` extends the list.
const FAMILIES: Record<Config["provider"], RegExp> = {
  openai: /^(gpt-|chatgpt-|o\d|ft:)/,
  anthropic: /^claude-/,
  offline: /^(offline$|gpt-|chatgpt-|o\d|claude-)/,
};

/** The names each provider's family accepts, as an error message suggests them. */
const FAMILY_NAMES: Record<Config["provider"], string> = {
  openai: "an OpenAI model name (gpt-..., o1...)",
  anthropic: "an Anthropic model name (claude-...)",
  offline: '"offline", an OpenAI or Anthropic model name',
};

/** Whether the configured model is "same as agent" or one the provider knows. */
export function modelKnown(c: Config): boolean {
  if (c.model === SAME_AS_AGENT || c.known_models.includes(c.model)) return true;
  if (c.provider === "openai" && c.base_url !== null && c.model.trim() !== "") return true;
  return FAMILIES[c.provider].test(c.model);
}

// The kernel's names, derived from the table's: a setting with a kernel rule is seen by the
// kernel under its camelCase name (a count), with a "...Set" flag when it may be unset, or as
// "...Length" (a text); the kernel's verdict for it has the camelCase name too.
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type KernelRuled = {
  [K in SettingName]: (typeof SETTINGS)[K] extends { readonly rule: { readonly by: "kernel" } } ? K : never;
}[SettingName];
type ViewKeys<K extends SettingName> = (typeof SETTINGS)[K] extends { readonly type: "count or unset" }
  ? Camel<K> | `${Camel<K>}Set`
  : (typeof SETTINGS)[K] extends { readonly type: "text" }
    ? `${Camel<K>}Length`
    : Camel<K>;
/** The part of the kernel's view that comes straight from the settings (all but modelKnown). */
export type SettingsView = Omit<ConfigView, "modelKnown">;
// Checked by tsc: the table's kernel rules give exactly the kernel's view and verdicts, so a
// row added or changed on one side only does not compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const viewMatches: Same<{ [K in KernelRuled]: ViewKeys<K> }[KernelRuled], keyof SettingsView> = true;
const verdictsMatch: Same<Camel<KernelRuled> | "trigger" | "model", Exclude<ConfigField, "none">> = true;
void [viewMatches, verdictsMatch];

function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase());
}

/**
 * The settings as the kernel sees them: a number for each count, and for a setting that may be
 * unset a "...Set" flag with 0 standing for unset (the kernel has no null); a text's length.
 */
export function settingsView(c: Config): SettingsView {
  const view: Record<string, number | boolean> = {};
  for (const [name, s] of settingRows()) {
    if (s.rule?.by !== "kernel") continue;
    const key = camel(name);
    const v = c[name];
    if (typeof v === "string") view[`${key}Length`] = v.length;
    else if (typeof v === "number") view[key] = v;
    else if (v === null) view[key] = 0;
    if (s.type === "count or unset") view[`${key}Set`] = v !== null;
  }
  return view as unknown as SettingsView;
}

/** The numeric view of a configuration that the kernel's L12 function judges. */
export function configView(c: Config): ConfigView {
  return { ...settingsView(c), modelKnown: modelKnown(c) };
}

// The verdicts that concern several settings at once; the others are the table's rules.
const CROSS_FIELD: Record<"trigger" | "model", (c: Config) => [SettingName, string]> = {
  trigger: () => [
    "token_threshold",
    "no trigger configured: set at least one of token_threshold, message_threshold, turn_threshold or context_window",
  ],
  model: (c) => [
    "model",
    `unknown model ${JSON.stringify(c.model)} for provider ${c.provider}: use "${SAME_AS_AGENT}", ${FAMILY_NAMES[c.provider]}, or list it in known_models`,
  ],
};

/** The setting whose kernel rule has this verdict, and its rule. */
function ruledSetting(verdict: string): readonly [SettingName, SettingSpec] {
  const row = settingRows().find(([name, s]) => s.rule?.by === "kernel" && camel(name) === verdict);
  // unreachable: tsc checks above that every verdict has its row
  if (row === undefined) throw new Error(`no setting has the kernel verdict ${verdict}`);
  return row;
}

// The kernel constants a kernel rule's text may name in braces.
const KERNEL_CONSTANTS: Readonly<Record<string, () => number>> = { maxTokensLimit: gateMaxTokensLimit };

/** A setting's rule as users read it (errors, README), kernel constants filled in; "" when it has none. */
export function ruleText(s: SettingSpec): string {
  if (s.rule === undefined) return "";
  if (s.rule.by === "schema") return s.rule.says;
  return s.rule.says.replace(/\{(\w+)\}/g, (m, name: string) => String(KERNEL_CONSTANTS[name]?.() ?? m));
}

/** Throws a ConfigError naming the first setting the kernel rejects (L12). */
export function assertConfigValid(c: Config): Config {
  const bad = gateValidateConfig(configView(c));
  if (bad === "none") return c;
  if (bad === "trigger" || bad === "model") {
    const [field, message] = CROSS_FIELD[bad](c);
    throw new ConfigError(field, message);
  }
  const [field, s] = ruledSetting(bad);
  const v = c[field];
  throw new ConfigError(field, `${ruleText(s)}${typeof v === "number" ? `, got ${v}` : ""}`);
}

/** Parses settings (types by zod, rules by the kernel) into a valid configuration. */
export function parseConfig(input: unknown): Config {
  return assertConfigValid(parseConfigShape(input));
}

/** Whether a value has the shape a parsed configuration gives a setting of this type. */
function hasSettingShape(s: SettingSpec, v: unknown): boolean {
  switch (s.type) {
    case "count":
      return typeof v === "number";
    case "count or unset":
      return typeof v === "number" || v === null;
    case "text":
      return typeof v === "string";
    case "text or unset":
      return typeof v === "string" || v === null;
    case "choice":
      return typeof v === "string" && s.choices.includes(v);
    case "list":
      return Array.isArray(v);
    case "switch":
      return typeof v === "boolean";
    default:
      return v === null || (typeof v === "object" && !Array.isArray(v));
  }
}

/**
 * A configuration parseConfig returned, taken without parsing it again: every setting present
 * with its parsed shape (else a ConfigError naming it: raw settings go through parseConfig or
 * compactMessages), and the kernel's L12 verdict on the values (a ConfigError naming the first
 * setting it rejects).
 */
export function assertParsedConfig(c: unknown): Config {
  if (typeof c !== "object" || c === null || Array.isArray(c))
    throw new ConfigError("(config)", "expected a configuration object (from parseConfig)");
  const given = c as Record<string, unknown>;
  for (const [name, s] of settingRows()) {
    if (!hasSettingShape(s, given[name]))
      throw new ConfigError(
        name,
        `${given[name] === undefined ? "missing" : `got ${JSON.stringify(given[name])}`}: not a parsed configuration (pass settings through parseConfig, or to compactMessages)`,
      );
  }
  return assertConfigValid(c as Config);
}

/**
 * The configurations configWithLimits checked, each with the limits filled into it: a run handed
 * one of them with those limits (CompactOptions.limits) takes it as it is, without the rules again.
 */
const checkedWithLimits = new WeakMap<Config, ModelLimitsReport>();

/** A parsed configuration with the resolved model limits filled in (model-limits.ts), checked again by the kernel (L12). */
export function configWithLimits(c: Config, limits: ModelLimitsReport): Config {
  const out = assertConfigValid(withModelLimits(c, limits));
  checkedWithLimits.set(out, limits);
  return out;
}

/**
 * Whether `c` is a configuration configWithLimits (or configForRun) returned for exactly these
 * limits: parsed, its limits filled in and checked by the kernel's rules, so a run takes it as it is.
 */
export function checkedFor(c: Config, limits: ModelLimitsReport): boolean {
  return checkedWithLimits.get(c) === limits;
}

/**
 * The configuration a run uses and the limits it used: `c` (parsed) with each model limit
 * resolved (resolveModelLimits: the setting, else the model catalogue) and the whole checked by
 * the kernel again. A window from the catalogue that the other settings do not fit even with
 * reserve_tokens scaled to it (model-limits.ts reserveFor: a keep_recent_tokens larger than the
 * window leaves) is left unset, as it was before the catalogue, and the report says why and what to set. The one place a run's limits are decided.
 */
export function configForRun(c: Config, o: LimitsContext): { config: Config; limits: ModelLimitsReport } {
  const limits = resolveModelLimits(c, o);
  const window = limits.context_window;
  if (window.source !== "catalogue") return { config: configWithLimits(c, limits), limits };
  try {
    return { config: configWithLimits(c, limits), limits };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const why = `the model catalogue's window for ${JSON.stringify(window.model)}, ${window.value}, does not fit the other settings (${e.message}): set context_window, or change ${e.field}`;
    // without the window, reserve_tokens is used as set (reserveScaled fitted it to that window)
    const { reserveScaled: _, ...rest } = limits;
    const unset: ModelLimitsReport = {
      ...rest,
      context_window: { value: null, source: "unset", model: window.model, why },
    };
    return { config: configWithLimits(c, unset), limits: unset };
  }
}
