// Settings for a CLI run: defaults, then the --config file, then flags (later wins). The flags,
// their --help lines and how each is read all come from the table of settings. Numbers from
// flags are passed to the config parser as numbers when written in decimal digits, as the text
// otherwise, so that a bad value gets the same field-naming error as in a config file.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Option } from "commander";
import { JsonSyntaxError, lineColumn, parseJsonText } from "../adapters/json-text.ts";
import { ConfigError } from "../model/errors.ts";
import {
  defaultShown,
  type SettingGroup,
  type SettingName,
  type SettingSpec,
  settingRows,
} from "../model/settings-table.ts";

/** Flag values as commander gives them (strings; repeated --anchor as an array). */
export type FlagValues = Readonly<Record<string, string | string[] | boolean | undefined>>;

/** A setting's --help line: its help text and its default. */
function helpLine(s: SettingSpec): string {
  const unsetBy = s.type === "count or unset" && s.default !== null ? "; none unsets it" : "";
  const repeatable = s.type === "list" ? "; repeatable" : "";
  return `${s.help} (default ${defaultShown(s)}${unsetBy}${repeatable})`;
}

function collect(v: string, prev: string[] | undefined): string[] {
  return [...(prev ?? []), v];
}

/** The heading of each group of settings in --help. */
export const GROUP_HEADINGS: Readonly<Record<SettingGroup, string>> = {
  triggers: "When to compact, and how far:",
  kept: "What is never summarized:",
  summarizer: "Summarizer (the model that writes summaries, and how it is asked):",
  clearing: "Clearing old tool results:",
};

/** The heading of the run's own flags (input, output, report, plan, progress) in --help. */
export const OUTPUT_HEADING = "Input and output:";

/** The commander option of each setting that has a flag, in its --help group (groups in order, the table's order within one). */
export function settingOptions(): {
  readonly name: SettingName;
  readonly spec: SettingSpec;
  readonly option: Option;
}[] {
  // grouped in the order of GROUP_HEADINGS (--help lists the groups in the order it meets them)
  const order = Object.keys(GROUP_HEADINGS);
  const rows = [...settingRows()].sort((a, b) => order.indexOf(a[1].group) - order.indexOf(b[1].group));
  return rows.flatMap(([name, spec]) => {
    if (spec.flag === undefined) return [];
    const option = new Option(spec.flag, helpLine(spec)).helpGroup(GROUP_HEADINGS[spec.group]);
    if (spec.type === "choice") option.choices(spec.choices);
    if (spec.type === "list") option.argParser(collect);
    return [{ name, spec, option }];
  });
}

/**
 * A count flag's value: a number when written in decimal digits (a sign allowed, so a negative
 * count gets its rule's message), null for none/null/unset, else the text itself, which the
 * schema refuses quoting it (`0x10`, `1e3` and `lots` are not counts).
 */
function numberOrUnset(v: string): number | string | null {
  const t = v.trim().toLowerCase();
  if (t === "none" || t === "null" || t === "unset") return null;
  return /^[+-]?\d+$/.test(t) ? Number(t) : v;
}

/** The usage setting from --usage TOKENS[:MESSAGES] (numbers read as the numeric flags are, so bad ones get the setting's error). */
function usageFlag(v: string): { prompt_tokens: number | string | null; messages?: number | string | null } | null {
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
    v = parseJsonText(text, new Map()).value;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const at = lineColumn(text, e.offset);
    throw new ConfigError(
      "--config",
      `${path} is not valid JSON at line ${at.line}, column ${at.column}: ${e.message}`,
    );
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new ConfigError("--config", `${path} must hold a JSON object of settings`);
  return v as Record<string, unknown>;
}

/** A flag's value as the setting's value: a number (or null) for a count, a file's text, the string itself. */
function flagValue(spec: SettingSpec, flag: string, v: string, cwd: string): unknown {
  if (spec.flagNamesFile === true) {
    try {
      return readFileSync(resolve(cwd, v), "utf8");
    } catch (e) {
      throw new ConfigError(flag, `cannot read ${v}: ${(e as Error).message}`);
    }
  }
  if (spec.type === "reported usage") return usageFlag(v);
  return spec.type === "count" || spec.type === "count or unset" ? numberOrUnset(v) : v;
}

/** Merges the config file (if any, relative to cwd) and the flags into one settings object. */
export function settingsFromFlags(flags: FlagValues, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> =
    typeof flags.config === "string" ? { ...readConfigFile(resolve(cwd, flags.config)) } : {};
  for (const { name, spec, option } of settingOptions()) {
    const v = flags[option.attributeName()];
    if (typeof v === "string") out[name] = flagValue(spec, option.long ?? option.flags, v, cwd);
    else if (typeof v === "boolean" && spec.type === "switch") out[name] = v;
    else if (Array.isArray(v) && v.length > 0) {
      // a repeated flag adds to the config file's list
      const existing = Array.isArray(out[name]) ? (out[name] as unknown[]) : [];
      out[name] = [...existing, ...v];
    }
  }
  return out;
}
