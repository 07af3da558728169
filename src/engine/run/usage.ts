// Provider-reported usage: the prompt token count an agent already has from its last request,
// given for the first messages of the conversation so that the trigger judges it instead of the
// counted tokens of those messages (README, "Reported usage"). This file checks the values a
// caller gives and maps a count of the caller's own messages (or items) to the engine's; what the
// trigger judges, and how the report is carried across a step, are the kernel's (trigger.ts).
import type { ReportedPrefix } from "../../kernel/trigger.ts";
import type { Config } from "../../model/config.ts";
import { InputError } from "../../model/errors.ts";
import { describeJson } from "../../model/json.ts";
import { EXACT_LIMIT, EXACT_LIMIT_NAME, isNat } from "../boundary/exact.ts";
import { type ItemMap, prefixEnd } from "./item-map.ts";

/** A prompt token count the provider reported (e.g. `usage.prompt_tokens`, `usage.input_tokens`). */
export interface ReportedUsage {
  /** the tokens the provider counted in the request's prompt */
  readonly promptTokens: number;
  /** how many of the conversation's first messages (the caller's own) that prompt held; default: all of them */
  readonly messages?: number;
}

/** A given usage and the field it came from, for errors. */
export interface GivenUsage {
  readonly usage: ReportedUsage;
  readonly field: string;
  /** the field holding the token count (`usage.prompt_tokens`, `options.usage.promptTokens`) */
  readonly tokensField: string;
}

function assertCount(v: unknown, field: string): void {
  if (typeof v !== "number" || !isNat(v))
    throw new InputError(field, `must be an integer from 0 to ${EXACT_LIMIT_NAME}, got ${describeJson(v)}`);
}

/** Checks a report as the engine takes it (compactStore's option), naming `usage.reported` / `usage.end`. */
export function assertReportedPrefix(u: ReportedPrefix, messages: number): void {
  if (typeof u !== "object" || u === null)
    throw new InputError("usage", `expected { reported, end }, got ${describeJson(u)}`);
  assertCount(u.reported, "usage.reported");
  assertCount(u.end, "usage.end");
  if (u.end > messages)
    throw new InputError("usage.end", `the report covers ${u.end} messages but the conversation has ${messages}`);
}

/**
 * Refuses a report the trigger could not judge exactly: the report plus the counts after its
 * prefix past 2^53 - 1 (reads, so counts, only those). Checked before the trigger, so the error
 * names `field` (where the count came from) instead of the kernel's boundary.
 */
export function assertReportJudgeable(u: ReportedPrefix, tokens: readonly number[], field: string): void {
  let room = EXACT_LIMIT - u.reported;
  for (let i = u.end; i < tokens.length; i++) {
    room -= tokens[i];
    if (room < 0)
      throw new InputError(
        field,
        `the reported ${u.reported} tokens plus the tokens counted after the report pass ${EXACT_LIMIT_NAME}`,
      );
  }
}

/**
 * Refuses, before any summarizer call, a report that a step could take past 2^53 - 1: a step adds
 * at most its summary's count to the report (usageAfterSplice), a summary is accepted only when it
 * counts fewer tokens than what it replaces (L8), and reports only shrink and totals only fall
 * across steps, so the report plus the counted total bounds every sum a step makes (messages
 * appended during a run could raise the total: the kernel's boundary check still stands behind).
 */
export function assertReportFitsSteps(u: ReportedPrefix, totalTokens: number, field: string): void {
  if (u.reported > EXACT_LIMIT - totalTokens)
    throw new InputError(
      field,
      `the reported ${u.reported} tokens plus the conversation's ${totalTokens} counted tokens pass ${EXACT_LIMIT_NAME}: a compaction step could not carry the report exactly`,
    );
}

/**
 * The usage given to a one-shot run: the library's `usage` option or the `usage` setting (a
 * config file, a CLI flag), checked, naming the field; undefined when neither is given. Giving
 * both is an error rather than one silently winning.
 */
export function givenUsage(c: Config, option: unknown): GivenUsage | undefined {
  if (option !== undefined && c.usage !== null)
    throw new InputError("options.usage", "usage is given both as an option and as the usage setting: give one");
  if (c.usage !== null) {
    // the setting's ranges are zod's (config.ts); only the values are taken over
    const { prompt_tokens, messages } = c.usage;
    return {
      usage: messages === null ? { promptTokens: prompt_tokens } : { promptTokens: prompt_tokens, messages },
      field: "usage",
      tokensField: "usage.prompt_tokens",
    };
  }
  if (option === undefined) return undefined;
  if (typeof option !== "object" || option === null || Array.isArray(option))
    throw new InputError("options.usage", `expected { promptTokens, messages? }, got ${describeJson(option)}`);
  const o = option as { promptTokens?: unknown; messages?: unknown };
  for (const k of Object.keys(o))
    if (k !== "promptTokens" && k !== "messages") throw new InputError(`options.usage.${k}`, "unknown field");
  assertCount(o.promptTokens, "options.usage.promptTokens");
  if (o.messages !== undefined) assertCount(o.messages, "options.usage.messages");
  return { usage: o as ReportedUsage, field: "options.usage", tokensField: "options.usage.promptTokens" };
}

/**
 * The report's prefix in engine messages, through the caller's item map: the prefix is the
 * engine messages that lie wholly in the first `messages` items (a message holding no item, as
 * an Anthropic top-level system, lies in every prefix); one that reaches past is counted, so
 * nothing the report left out is missed.
 */
export function reportedPrefix(g: GivenUsage, map: ItemMap): ReportedPrefix {
  const k = g.usage.messages ?? map.items;
  if (k > map.items)
    throw new InputError(
      `${g.field}.messages`,
      `the report covers ${k} messages but the conversation has ${map.items} (count the conversation's own messages)`,
    );
  return { reported: g.usage.promptTokens, end: prefixEnd(map, k) };
}
