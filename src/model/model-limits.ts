// The limits of the models a run talks to, resolved in one place: the model catalogue
// (model-catalogue.ts, generated) read under the names users write (dated names, provider
// prefixes, local servers' tags), and each figure's setting, which overrides it. The agent's
// model gives context_window (the trigger's window form); the summarizer's model gives
// summarizer_window and summarizer_output_cap. Also the token field an OpenAI-style request
// names its output limit with (max_completion_tokens for OpenAI's reasoning models).

import { ConfigError } from "./errors.ts";
import { CATALOGUE, CATALOGUE_SOURCES } from "./model-catalogue.ts";
import { type Config, SAME_AS_AGENT } from "./settings-table.ts";

/** A model's figures in the catalogue, and the catalogue name they were found under. */
export interface CatalogueEntry {
  readonly entry: string;
  readonly window: number;
  readonly output: number;
  /** an OpenAI reasoning model: its chat completions take max_completion_tokens */
  readonly reasoning: boolean;
}

let index: Map<string, CatalogueEntry> | undefined;

function catalogue(): Map<string, CatalogueEntry> {
  index ??= new Map(
    CATALOGUE.map(([entry, window, output, r]) => [entry, { entry, window, output, reasoning: r === 1 }]),
  );
  return index;
}

// A date or version stamp at the end of a name: -2024-08-06, -20251001, -0125, -latest, @20250514.
const DATED = /(?:[-@](?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest))+$/;

/**
 * The spellings of a name to look up, most specific first: as written (lower case), without a
 * provider prefix ("openai/gpt-4o", "models/gemini-2.5-pro", "meta-llama/Llama-3.1-8B"), without
 * a local server's tag ("llama3.1:8b"), an OpenAI fine-tune's base ("ft:gpt-4o-mini:org::id"),
 * without a date stamp, and with "llama-3.1" / "qwen-2.5" written as local servers do.
 */
function spellings(model: string): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    if (s !== "" && !out.includes(s)) out.push(s);
  };
  let n = model.trim().toLowerCase();
  add(n);
  if (n.startsWith("ft:")) n = n.slice(3);
  n = n.slice(n.lastIndexOf("/") + 1);
  add(n);
  n = n.split(":")[0];
  add(n);
  n = n.replace(DATED, "");
  add(n);
  add(n.replace(/^(llama|qwen|gemma|phi)-(\d)/, "$1$2"));
  return out;
}

/** The longest catalogue name that `name` starts with, followed by "-" (a variant: gpt-4o-mini-search-preview). */
function byPrefix(name: string): CatalogueEntry | undefined {
  const cat = catalogue();
  for (let end = name.lastIndexOf("-"); end > 0; end = name.lastIndexOf("-", end - 1)) {
    const hit = cat.get(name.slice(0, end));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** The catalogue's figures for a model as users write it, or undefined when the catalogue does not know it. */
export function lookupModel(model: string): CatalogueEntry | undefined {
  const names = spellings(model);
  for (const n of names) {
    const hit = catalogue().get(n);
    if (hit !== undefined) return hit;
  }
  for (const n of names) {
    const hit = byPrefix(n);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** The field an OpenAI-style chat completions request names its output limit with. */
export type OutputTokenField = "max_tokens" | "max_completion_tokens";

// OpenAI's reasoning families by name, for a model the catalogue does not know yet
const OPENAI_REASONING = /^(o\d|gpt-[5-9])/;

/**
 * max_completion_tokens for an OpenAI reasoning model (o1, o3, o4-mini, the gpt-5 family...),
 * which refuses max_tokens; max_tokens for every other model (what OpenAI-compatible servers
 * read).
 */
export function outputTokenField(model: string): OutputTokenField {
  const known = lookupModel(model);
  if (known !== undefined) return known.reasoning ? "max_completion_tokens" : "max_tokens";
  return spellings(model).some((n) => OPENAI_REASONING.test(n)) ? "max_completion_tokens" : "max_tokens";
}

/** The settings the catalogue gives defaults for. */
export type LimitSetting = "context_window" | "summarizer_window" | "summarizer_output_cap";

/** One limit a run used and where it came from; `model`: whose figure it is (none when unset with no model). */
export type LimitUsed =
  | { readonly value: number; readonly source: "setting" }
  | { readonly value: number; readonly source: "catalogue"; readonly model: string; readonly entry: string }
  | { readonly value: null; readonly source: "unset"; readonly model?: string; readonly why: string };

/** The limits a run used, each with its source: the report's `modelLimits`. */
export type ModelLimitsReport = { readonly [K in LimitSetting]: LimitUsed } & {
  /** the packages the catalogue was generated from */
  readonly catalogue: string;
  /**
   * reserve_tokens as the run used it when the catalogue's context window is no larger than the
   * setting (a small model: llama3's 8k against the 16384 default): a quarter of that window
   * (RESERVE_SHARE_OF_SMALL_WINDOW); absent when reserve_tokens was used as set
   */
  readonly reserveScaled?: { readonly from: number; readonly to: number };
};

/**
 * The share of a catalogue window kept free when reserve_tokens does not fit in it: one
 * quarter, so an 8k model compacts at 6k and leaves its answer 2k.
 */
export const RESERVE_SHARE_OF_SMALL_WINDOW = 4;

/** What resolving the limits needs to know besides the settings. */
export interface LimitsContext {
  /** the agent's model (the file's "model", the agentModel option) */
  readonly agentModel?: string;
  /** whether the summarizer sends requests to a model (false for the offline summarizer, which has no limits) */
  readonly summarizerCallsModel: boolean;
}

function limitFrom(
  c: Config,
  setting: LimitSetting,
  model: string | undefined,
  figure: (e: CatalogueEntry) => number,
  noModel: string,
): LimitUsed {
  const set = c[setting];
  if (set !== null) return { value: set, source: "setting" };
  if (model === undefined) return { value: null, source: "unset", why: noModel };
  const e = lookupModel(model);
  if (e === undefined)
    return { value: null, source: "unset", model, why: `model ${JSON.stringify(model)} is not in the model catalogue` };
  return { value: figure(e), source: "catalogue", model, entry: e.entry };
}

/**
 * Whether the summarizer's limits must be known: its requests go to a provider's own public API
 * (anthropic, or openai without a base_url), which refuses a request over the model's output cap.
 * An OpenAI-compatible server at a base_url may serve any model name, and the offline summarizer
 * has no limits: there an unknown model leaves them unset, as before the catalogue.
 */
function summarizerLimitsNeeded(c: Config, o: LimitsContext): boolean {
  return o.summarizerCallsModel && (c.provider === "anthropic" || (c.provider === "openai" && c.base_url === null));
}

/**
 * The limits of a run: each of context_window, summarizer_window and summarizer_output_cap is
 * its setting when set, else the catalogue's figure for its model (the agent's for
 * context_window, the summarizer's for the other two), else unset. A summarizer model the
 * catalogue does not know is a ConfigError naming it and the setting to set when its limits are
 * needed (see summarizerLimitsNeeded); an unknown agent model leaves context_window unset.
 */
export function resolveModelLimits(c: Config, o: LimitsContext): ModelLimitsReport {
  const summarizer = c.model === SAME_AS_AGENT ? o.agentModel : c.model;
  const noSummarizer = o.summarizerCallsModel
    ? "the summarizer's model is unknown"
    : "the offline summarizer calls no model";
  const summarizerModel = o.summarizerCallsModel ? summarizer : undefined;
  const report: ModelLimitsReport = {
    context_window: limitFrom(c, "context_window", o.agentModel, (e) => e.window, "the agent's model is unknown"),
    summarizer_window: limitFrom(c, "summarizer_window", summarizerModel, (e) => e.window, noSummarizer),
    summarizer_output_cap: limitFrom(c, "summarizer_output_cap", summarizerModel, (e) => e.output, noSummarizer),
    catalogue: CATALOGUE_SOURCES,
    ...reserveFor(c, o.agentModel),
  };
  if (summarizerLimitsNeeded(c, o) && summarizer !== undefined) {
    for (const setting of ["summarizer_output_cap", "summarizer_window"] as const) {
      if (report[setting].source === "unset")
        throw new ConfigError(
          setting,
          `the summarizer's model ${JSON.stringify(summarizer)} is not in the model catalogue (${CATALOGUE_SOURCES}), so its ${setting === "summarizer_window" ? "context window" : "output cap"} is unknown and the ${c.provider} API refuses a request over it: set ${setting} (and ${setting === "summarizer_window" ? "summarizer_output_cap" : "summarizer_window"}) to the model's figures`,
        );
    }
  }
  return report;
}

/**
 * reserve_tokens scaled to a small catalogue window: when context_window is unset and the
 * agent's model's window from the catalogue is no larger than reserve_tokens, the window trigger
 * could never hold (reserve_tokens must lie below the window), so a quarter of the window is kept
 * free instead. A context_window the user set is checked against reserve_tokens as written.
 */
function reserveFor(c: Config, agentModel: string | undefined): Pick<ModelLimitsReport, "reserveScaled"> {
  if (c.context_window !== null || agentModel === undefined) return {};
  const e = lookupModel(agentModel);
  if (e === undefined || c.reserve_tokens < e.window) return {};
  return { reserveScaled: { from: c.reserve_tokens, to: Math.floor(e.window / RESERVE_SHARE_OF_SMALL_WINDOW) } };
}

/** The configuration with each limit the catalogue gave filled in (settings set are kept). */
export function withModelLimits(c: Config, limits: ModelLimitsReport): Config {
  return {
    ...c,
    reserve_tokens: limits.reserveScaled?.to ?? c.reserve_tokens,
    context_window: limits.context_window.value,
    summarizer_window: limits.summarizer_window.value,
    summarizer_output_cap: limits.summarizer_output_cap.value,
  };
}
