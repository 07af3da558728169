// The table of settings: one row per setting, the single source of its name, type, default,
// CLI flag, help text and rule. The configuration schema (config.ts), the kernel's view of a
// configuration and its error messages (config-rules.ts), the CLI's options and --help
// (cli/settings.ts), the settings table of docs/settings.md and the doc comments editors show
// (setting-docs.ts; both written by scripts/readme-settings.ts) are all derived from it. It
// loads neither zod nor the kernel, so `safecut --help` and the light adapters entry can read it
// and stay quick to load.
import { isHttpUrl } from "./base-url.ts";
import { DEFAULT_PROMPT } from "./prompt-template.ts";
import type { SettingDocs } from "./setting-docs.ts";

/** The model value meaning "summarize with the agent's own model". */
export const SAME_AS_AGENT = "same as agent";

/**
 * What a setting's value is. "count": an integer; "text": a string; "choice": one of
 * `choices`; "list": an array of strings; "switch": a boolean (its flag takes no value and sets it). "... or unset" adds `null`, the one spelling of
 * "not set" (a flag says `none`); the kernel, which has no null, sees a "...Set" flag and 0.
 * "reported usage": `{ prompt_tokens, messages }` (a provider-reported prompt token count for
 * the first `messages` messages, null: all of them) or null; its flag reads `TOKENS[:MESSAGES]`.
 */
export type SettingType =
  | "count"
  | "count or unset"
  | "text"
  | "text or unset"
  | "choice"
  | "list"
  | "switch"
  | "reported usage";

/**
 * A rule a valid value satisfies. "kernel": judged by the kernel's L12 function for this
 * setting (config-rules.ts builds its view); `says` opens the error message, followed by
 * ", got <value>" for a number, and may name a kernel constant in braces ({maxTokensLimit}).
 * "schema": checked when the value is parsed; `says` is the whole error message.
 */
export type SettingRule =
  | { readonly by: "kernel"; readonly says: string }
  | {
      readonly by: "schema";
      readonly says: string;
      readonly holds: (value: string) => boolean;
      /** the error adds ", got <value>" (for short values: a prompt template is not repeated back) */
      readonly showsValue?: true;
    };

/** The groups `safecut compact --help` shows the settings in (cli/settings.ts gives their headings). */
export type SettingGroup = "triggers" | "kept" | "summarizer" | "clearing";

interface Row {
  /** the --help group the setting is listed in */
  readonly group: SettingGroup;
  /** one line for `--help`, docs/settings.md and the setting's doc comment, in the user's words (the kernel's vocabulary stays in docs/) */
  readonly help: string;
  /** docs/settings.md and the doc comment only: what does not fit in a help line, appended to `help` as written (with its own leading " " or ";") */
  readonly more?: string;
  /** the flag with its argument ("--max-tokens <n>"); none: a config-file setting only */
  readonly flag?: string;
  /** the flag names a file whose text is the value (instead of the value itself) */
  readonly flagNamesFile?: true;
  /** how docs/settings.md and --help show the default, where the value itself says little */
  readonly defaultText?: string;
  readonly rule?: SettingRule;
}

/**
 * One row of the table; the type fixes what the default and the extra fields may be: `min` is
 * the least value and `max` the greatest, checked when the value is parsed; `zeroIsUnset` reads 0 as null; `choices`
 * are the values a "choice" may take.
 */
export type SettingSpec = Row &
  (
    | { readonly type: "count"; readonly default: number; readonly min?: number; readonly max?: number }
    | {
        readonly type: "count or unset";
        readonly default: number | null;
        readonly min?: number;
        readonly zeroIsUnset?: true;
      }
    | { readonly type: "text"; readonly default: string }
    | { readonly type: "text or unset"; readonly default: string | null }
    | { readonly type: "choice"; readonly default: string; readonly choices: readonly [string, ...string[]] }
    | { readonly type: "list"; readonly default: readonly string[] }
    | { readonly type: "switch"; readonly default: boolean }
    | { readonly type: "reported usage"; readonly default: null }
  );

const THRESHOLD_RULE = { by: "kernel", says: "must be > 0 when set (null unsets it)" } as const satisfies SettingRule;

/**
 * The settings, in the order the schema checks them (a configuration with several bad
 * fields is refused naming the first). Adding a setting is adding a row here, then
 * regenerating docs/settings.md's table and setting-docs.ts (`npx tsx scripts/readme-settings.ts`).
 * A row whose rule is the kernel's needs the kernel's view and verdict for it too (config-rules.ts does not compile
 * until they match).
 */
export const SETTINGS = {
  max_tokens: {
    group: "summarizer",
    type: "count",
    default: 2000,
    flag: "--max-tokens <n>",
    help: "most tokens a summary may have; passed to the model",
    rule: { by: "kernel", says: "must be between 1 and {maxTokensLimit}" },
  },
  token_threshold: {
    group: "triggers",
    type: "count or unset",
    default: 60000,
    flag: "--token-threshold <n>",
    help: "compact at this many tokens",
    rule: THRESHOLD_RULE,
  },
  soft_token_threshold: {
    group: "triggers",
    type: "count or unset",
    default: null,
    // no flag: every CLI run is one-shot (no agent goes on while it compacts), so it has no use for it
    help: "background mode of an agent's hooks: start compacting at this many tokens while the agent goes on; wait only when a trigger fires",
    more: " (compactBeforeStep, BackgroundCompaction, and on a session sessionStep, sessionBeforeStep and BackgroundSession, one background run per session across processes; a one-shot run and the CLI ignore it, so it has no flag)",
    rule: {
      by: "kernel",
      says: "must be > 0 when set (null unsets it), below token_threshold and below context_window - reserve_tokens",
    },
  },
  message_threshold: {
    group: "triggers",
    type: "count or unset",
    default: null,
    flag: "--message-threshold <n>",
    help: "compact at this many messages",
    rule: THRESHOLD_RULE,
  },
  turn_threshold: {
    group: "triggers",
    type: "count or unset",
    default: null,
    flag: "--turn-threshold <n>",
    help: "compact at this many user turns",
    rule: THRESHOLD_RULE,
  },
  retention_window: {
    group: "kept",
    type: "count",
    default: 6,
    flag: "--retention-window <n>",
    help: "never touch the last n messages",
    more: " (the file's own messages: an Anthropic message counts once)",
    rule: { by: "kernel", says: "must be >= 1" },
  },
  model: {
    group: "summarizer",
    type: "text",
    default: SAME_AS_AGENT,
    flag: "--model <name>",
    help: 'summarizer model; "same as agent" uses the file\'s "model" (or the agentModel option)',
    more: "; any other name must be one the provider serves or be listed in known_models",
  },
  prompt: {
    group: "summarizer",
    type: "text",
    default: DEFAULT_PROMPT,
    defaultText: "built in",
    flag: "--prompt-file <file>",
    flagNamesFile: true,
    help: "prompt template with {{conversation}} (required), {{previous_summary}}, {{required_facts}}, {{max_tokens}}, {{summary_tag}}; the flag names a file holding it",
    rule: {
      by: "schema",
      says: "the prompt template must contain {{conversation}}",
      holds: (p) => p.includes("{{conversation}}"),
    },
  },
  summary_tag: {
    group: "summarizer",
    type: "text",
    default: "summary",
    flag: "--summary-tag <tag>",
    help: "the tag the answer's summary is taken from, and that marks summaries in files",
    rule: { by: "kernel", says: "must not be empty" },
  },
  context_window: {
    group: "triggers",
    type: "count or unset",
    default: null,
    defaultText: "the agent's model's context window (model catalogue)",
    flag: "--context-window <n>",
    help: "also compact when tokens > context_window - reserve_tokens",
    more: "; unset, and the agent's model not in the catalogue: no window trigger",
    rule: { by: "kernel", says: "must be > 0 when set" },
  },
  max_request_bytes: {
    group: "triggers",
    type: "count or unset",
    default: null,
    min: 1,
    flag: "--max-request-bytes <n>",
    defaultText: "the provider's",
    help: "also compact when the request's bytes (each message's JSON; images and files by their base64 text) pass this many",
    more: "; null (flag `none`): where the provider is known, its documented limit (Anthropic 32 MB, Google 20 MB, OpenAI 50 MB; none for another server): the overflow retry of the AI SDK hook, the wire helpers and the session helpers (which also compact and retry once on an HTTP 413), compactAnthropicMessages, compactOpenAIMessages, compactResponsesItems and compactBeforeStep (its step's model's provider); elsewhere (compactMessages, sessions' compact, the CLI) no byte trigger. When the bytes no law lets compaction shrink (user and system messages with their images, the retention window, summaries) are over it by themselves, the run says so once and makes no call. Leave room under the provider's limit for the request's other fields (model, tools, system)",
  },
  reserve_tokens: {
    group: "triggers",
    type: "count",
    default: 16384,
    flag: "--reserve-tokens <n>",
    help: "tokens to keep free in the context window",
    rule: { by: "kernel", says: "must be >= 0 and below context_window" },
  },
  keep_recent_tokens: {
    group: "kept",
    type: "count or unset",
    default: null,
    // 0 asks for no recent tokens to be kept: the same as no keep-recent constraint
    zeroIsUnset: true,
    flag: "--keep-recent-tokens <n>",
    help: "keep at least this many of the newest tokens out of any summary; 0 is the same as unset",
    rule: {
      by: "kernel",
      says: "must be > 0 (0 or null: no keep-recent constraint) and fit in context_window - reserve_tokens",
    },
  },
  target_percent: {
    group: "triggers",
    type: "count",
    default: 30,
    min: 1,
    max: 100,
    flag: "--target-percent <n>",
    help: "once a run is due, it compacts down to this percentage of token_threshold (or of context_window - reserve_tokens when only that is set), not just under the trigger",
    more: "; the run still starts only when due (L1), and stops early when no stretch worth a call is left",
  },
  target_tokens: {
    group: "triggers",
    type: "count or unset",
    default: null,
    min: 1,
    defaultText: "target_percent of the trigger",
    flag: "--target-tokens <n>",
    help: "once a run is due, it compacts down to this many tokens (instead of target_percent of the trigger)",
  },
  min_stretch_tokens: {
    group: "kept",
    type: "count",
    default: 64,
    min: 0,
    flag: "--min-stretch-tokens <n>",
    help: "a run of messages of at most this many tokens is never sent to the summarizer: no useful summary of it is shorter",
  },
  batch_tokens: {
    group: "summarizer",
    type: "count",
    default: 80000,
    min: 0,
    flag: "--batch-tokens <n>",
    help: "a run plans every part of the conversation it needs to summarize to reach its target and asks for their summaries together, one call per this many tokens of them (0: one call per part, one after another)",
    more: "; each summary is validated on its own, a rejected or missing one is asked for alone, and the summaries are committed in order",
  },
  batch_calls: {
    group: "summarizer",
    type: "count",
    default: 4,
    min: 1,
    flag: "--batch-calls <n>",
    help: "most summarizer calls of one batch in flight at once",
  },
  summarizer_window: {
    group: "summarizer",
    type: "count or unset",
    default: null,
    min: 1,
    defaultText: "the summarizer model's context window (model catalogue)",
    flag: "--summarizer-window <n>",
    help: "most tokens one summarizer call may hold, its prompt and its answer together; a batch is cut into calls that fit",
  },
  summarizer_output_cap: {
    group: "summarizer",
    type: "count or unset",
    default: null,
    min: 1,
    defaultText: "the summarizer model's output cap (model catalogue)",
    flag: "--summarizer-output-cap <n>",
    help: "most output tokens one summarizer call may ask for; a batch is cut into calls whose summaries fit",
  },
  summary_percent: {
    group: "summarizer",
    type: "count",
    default: 3,
    min: 0,
    max: 100,
    flag: "--summary-percent <n>",
    help: "the length a summary is asked to fit in: this percentage of the tokens it replaces, at least the facts it must keep verbatim plus summary_floor_tokens, at most max_tokens (0: max_tokens for every summary)",
    more: "; stated in the prompt ({{max_tokens}} of the template) as a request, not a rule: a summary is accepted when strictly shorter than its stretch and within max_tokens (L8), which stays the model's cap; an aged summary states its own budget (age_percent)",
  },
  summary_floor_tokens: {
    group: "summarizer",
    type: "count",
    default: 40,
    min: 1,
    flag: "--summary-floor-tokens <n>",
    help: "the room a short summary is asked to have beyond the facts it must keep verbatim (paths, identifiers, error messages): its stated length is at least those facts' tokens plus this",
  },
  age_percent: {
    group: "summarizer",
    type: "count",
    default: 50,
    min: 0,
    max: 99,
    flag: "--age-percent <n>",
    help: "a run that cannot reach its target otherwise shortens the oldest summaries in place, each to this percentage of its size (0: summaries are never shortened)",
    more: "; only in batches (batch_tokens > 0), only summaries before the retention window and above age_floor_tokens, each validated as strictly shorter (L8), one message for one (the order around user messages is kept, L2)",
  },
  age_floor_tokens: {
    group: "summarizer",
    type: "count",
    default: 24,
    min: 0,
    flag: "--age-floor-tokens <n>",
    help: "a summary of at most this many tokens is never shortened (one summary stays between two user messages: this is the least each one costs)",
  },
  age_share_percent: {
    group: "summarizer",
    type: "count",
    default: 30,
    min: 0,
    max: 100,
    flag: "--age-share-percent <n>",
    help: "summaries are shortened only while they hold at least this percentage of the context's tokens, judged on what the run's planned summaries leave",
  },
  floor_free_tokens: {
    group: "triggers",
    type: "count",
    default: 500,
    min: 1,
    flag: "--floor-free-tokens <n>",
    help: "when the token trigger is at or below the lawful floor (what no run can shrink: user and system messages, the retention window and keep-recent tail, summaries that cannot shrink), a due run starts only if at least this many tokens lie above that floor",
    more: "; the report then says the trigger is below what compaction can reach, with the figures. The same holds for a due run whose plan would leave the count at or over token_threshold: it goes only when it frees at least this many tokens (each run re-writes the provider's prompt cache from its first change)",
  },
  floor_run_every: {
    group: "triggers",
    type: "count",
    default: 10,
    min: 1,
    flag: "--floor-run-every <n>",
    help: "when the token trigger is at or below the lawful floor, at most one run per this many calls (counted as assistant messages after the newest summary beyond those its marker says were there when the last run ended; no summary yet: a run may start); likewise for a due run whose plan would leave the count at or over token_threshold",
  },
  strategy: {
    group: "clearing",
    type: "choice",
    choices: ["summarize", "clear", "clear-then-summarize"],
    default: "clear-then-summarize",
    flag: "--strategy <name>",
    help: "summarize; clear (replace old tool results by a placeholder, no model call); or clear-then-summarize (clear first; a run that was due then summarizes down to its target if clearing stopped above it)",
  },
  clear_keep: {
    group: "clearing",
    type: "count",
    default: 3,
    min: 0,
    flag: "--clear-keep <n>",
    help: "clearing keeps the results of the last n tool uses",
  },
  clear_at_least: {
    group: "clearing",
    type: "count",
    default: 2000,
    min: 0,
    flag: "--clear-at-least <n>",
    help: "a clearing run frees at least this many tokens or clears nothing (each run changes the prompt prefix: a cache miss)",
  },
  clear_exclude_tools: {
    group: "clearing",
    type: "list",
    default: [],
    flag: "--clear-exclude-tool <name>",
    help: "tools whose results are never cleared",
  },
  clear_placeholder: {
    group: "clearing",
    type: "text",
    default: "[tool result cleared: {chars} chars]",
    flag: "--clear-placeholder <text>",
    help: "what a cleared result's content becomes; {chars} is the cleared length in characters",
  },
  clear_inputs: {
    group: "clearing",
    type: "switch",
    default: false,
    flag: "--clear-inputs",
    help: "clearing a result also replaces its call's arguments by {} (the call's id and name stay)",
  },
  ledger: {
    group: "kept",
    type: "switch",
    default: false,
    flag: "--ledger",
    help: "keep an evidence ledger beside the summaries: files read and modified, commands with exit status, open errors, from the tool steps a run replaced (docs/ledger.md)",
  },
  ledger_files: {
    group: "kept",
    type: "count",
    default: 20,
    min: 0,
    flag: "--ledger-files <n>",
    help: "the ledger lists at most n files read and n files modified, newest first",
  },
  ledger_commands: {
    group: "kept",
    type: "count",
    default: 12,
    min: 0,
    flag: "--ledger-commands <n>",
    help: "the ledger lists at most n commands (tool calls) with their exit status, newest first",
  },
  ledger_errors: {
    group: "kept",
    type: "count",
    default: 8,
    min: 0,
    flag: "--ledger-errors <n>",
    help: "the ledger lists at most n open error lines, newest first",
  },
  ledger_steps: {
    group: "kept",
    type: "count",
    default: 0,
    min: 0,
    flag: "--ledger-steps <n>",
    help: "the ledger also holds the last n replaced tool steps verbatim (each cut to ledger_step_chars)",
  },
  ledger_step_chars: {
    group: "kept",
    type: "count",
    default: 400,
    min: 1,
    flag: "--ledger-step-chars <n>",
    help: "characters kept of each tool step the ledger holds verbatim, and of each of its lines",
  },
  memory_candidates: {
    group: "kept",
    type: "count",
    default: 0,
    min: 0,
    flag: "--memory-candidates <n>",
    help: "at most n memory flush candidates (user preferences, boundaries, facts) from the user messages a compaction covered; 0: none (docs/memory-candidates.md)",
  },
  memory_candidate_bytes: {
    group: "kept",
    type: "count",
    default: 300,
    min: 1,
    flag: "--memory-candidate-bytes <n>",
    help: "each memory flush candidate's text is cut to n UTF-8 bytes",
  },
  pin: {
    group: "kept",
    type: "list",
    default: [],
    flag: "--pin <what>",
    help: "content that stays verbatim whatever is cleared or summarized: file:<path> (the tool results of calls naming that file, e.g. file:AGENTS.md) or text:<text> (every message containing that text)",
    more: "; each pinned message is kept as it is, with its tool call, and a run checks that every one is in the result (docs/pins.md)",
    rule: {
      by: "schema",
      says: "each pin is file:<path> or text:<text> with something after the colon",
      holds: (v) => /^(file|text):./s.test(v),
      showsValue: true,
    },
  },
  anchors: {
    group: "kept",
    type: "list",
    default: [],
    flag: "--anchor <phrase>",
    help: "phrases a summary must keep whenever the messages it replaces contain them",
  },
  provider: {
    group: "summarizer",
    type: "choice",
    choices: ["offline", "openai", "anthropic"],
    default: "offline",
    flag: "--provider <name>",
    help: "summarizer: offline, openai (any OpenAI-compatible API) or anthropic",
  },
  base_url: {
    group: "summarizer",
    type: "text or unset",
    default: null,
    defaultText: "the provider's",
    flag: "--base-url <url>",
    help: "API base URL (OpenAI-compatible servers, proxies, tests), with or without the /v1 version",
    more: "; see [Summarizer providers](#summarizer-providers) for the URL each provider posts to",
    rule: { by: "schema", says: "must be an http:// or https:// URL", holds: isHttpUrl, showsValue: true },
  },
  timeout_ms: {
    group: "summarizer",
    type: "count",
    default: 60000,
    min: 1,
    flag: "--timeout-ms <n>",
    help: "per-request timeout of the HTTP summarizers, in milliseconds",
  },
  max_attempts: {
    group: "summarizer",
    type: "count",
    default: 3,
    min: 1,
    flag: "--max-attempts <n>",
    help: "most summarizer calls (HTTP requests) per summary: the first and its retries",
    more: "; a failure is retried after a wait (the server's `Retry-After`, else retry_delay_ms doubling each time), except HTTP 400/401/403/404 and other 4xx but 408/409/425/429, which cannot succeed on a retry; a rejected summary is asked again once, with the reason",
  },
  retry_delay_ms: {
    group: "summarizer",
    type: "count",
    default: 1000,
    min: 0,
    flag: "--retry-delay-ms <n>",
    help: "wait before the first retry when the server gave no Retry-After, in milliseconds; doubles at each retry",
  },
  max_retry_wait_ms: {
    group: "summarizer",
    type: "count",
    default: 30000,
    min: 0,
    flag: "--max-retry-wait-ms <n>",
    help: "longest Retry-After wait a run accepts, in milliseconds; a longer one ends the step at once, naming the wait",
  },
  max_rejected_summaries: {
    group: "summarizer",
    type: "count",
    default: 4,
    min: 1,
    flag: "--max-rejected-summaries <n>",
    help: "stop the run after this many summaries in a row failed validation (a summarizer whose answers are not usable; an answer rejected only for not being shorter than the messages it replaces, which cannot shrink, does not count)",
    more: "; the run ends degraded, the conversation as the accepted steps left it",
  },
  tokenizer: {
    group: "triggers",
    type: "choice",
    choices: ["bpe", "chars"],
    default: "bpe",
    flag: "--tokenizer <name>",
    help: "token counter: bpe (o200k_base) or chars (ceil(chars / 4))",
    more: "; bpe counts runs of more than 500 characters without whitespace in 500-character pieces, so counting stays linear, within 2 tokens per piece of the exact count",
  },
  known_models: {
    group: "summarizer",
    type: "list",
    default: [],
    help: "extra model names to accept besides each provider's families",
  },
  usage: {
    group: "triggers",
    type: "reported usage",
    default: null,
    flag: "--usage <tokens[:messages]>",
    help: "a prompt token count your provider reported (TOKENS[:MESSAGES]: for the first MESSAGES messages, all by default); the trigger judges it instead of counting",
    more: '; in a config file `{ "prompt_tokens": n, "messages": k }` (`messages` null or left out: all), see [Reported usage](library.md#reported-usage); flag `none` unsets it',
  },
} as const satisfies Record<string, SettingSpec>;

/** A setting's name as a user writes it (snake_case). */
export type SettingName = keyof typeof SETTINGS;

/** The value a setting holds once parsed, from its type in the table. */
type ValueOf<S> = S extends { readonly type: "count" }
  ? number
  : S extends { readonly type: "count or unset" }
    ? number | null
    : S extends { readonly type: "text" }
      ? string
      : S extends { readonly type: "text or unset" }
        ? string | null
        : S extends { readonly type: "choice"; readonly choices: readonly (infer C)[] }
          ? C
          : S extends { readonly type: "list" }
            ? string[]
            : S extends { readonly type: "switch" }
              ? boolean
              : S extends { readonly type: "reported usage" }
                ? ReportedUsageSetting | null
                : never;

/** The usage setting once parsed: a reported prompt token count for the first `messages` messages (null: all). */
export interface ReportedUsageSetting {
  prompt_tokens: number;
  messages: number | null;
}

/** What a user may write for a setting: as parsed, except that the usage setting's `messages` may be left out. */
type InputOf<S> = S extends { readonly type: "reported usage" }
  ? { prompt_tokens: number; messages?: number | null } | null
  : ValueOf<S>;

/** The generated keys are the table's (else: regenerate with `npx tsx scripts/readme-settings.ts`). */
type SameKeys = [keyof SettingDocs] extends [SettingName]
  ? [SettingName] extends [keyof SettingDocs]
    ? true
    : false
  : false;
type Holds<T extends true> = T;
/** Compiles only while setting-docs.ts names exactly the settings of the table. */
export type SettingDocsCurrent = Holds<SameKeys>;

// Config and ConfigInput map over SettingDocs' keys (`keyof`, as written), so each of their
// properties carries that key's doc comment (generated from the row's help) to editors' hover.
/** A complete configuration (defaults filled in), not yet checked against L12. */
export type Config = { -readonly [K in keyof SettingDocs]: ValueOf<(typeof SETTINGS)[K & SettingName]> };
/** What a user may write: any subset of the settings (each documented on hover). */
export type ConfigInput = { [K in keyof SettingDocs]?: InputOf<(typeof SETTINGS)[K & SettingName]> };
/** The summarizer providers. */
export type ProviderName = Config["provider"];

/** The default summary tag, for readers and writers called without a configuration. */
export const DEFAULT_SUMMARY_TAG: string = SETTINGS.summary_tag.default;

/** The rows of the table in order, each as its general SettingSpec. */
export function settingRows(): readonly (readonly [SettingName, SettingSpec])[] {
  return Object.entries(SETTINGS) as [SettingName, SettingSpec][];
}

/** A default as docs/settings.md and --help show it: "unset" for null, JSON for strings and lists. */
export function defaultShown(s: SettingSpec): string {
  if (s.defaultText !== undefined) return s.defaultText;
  if (s.default === null) return "unset";
  return typeof s.default === "number" ? String(s.default) : JSON.stringify(s.default);
}
