// The usage a one-shot run is given, normalized at the library's edge: the `usage` option
// (ReportedUsage, counting the caller's own messages or items) or the `usage` setting (a config
// file, a CLI flag) becomes the engine's one shape, the kernel's ReportedPrefix in engine
// messages (engine/run/usage.ts checks it against the store's counts). The engine names the
// report it refuses by its own field; the error is renamed here to the caller's field.

import { prefixEnd } from "../engine/run/item-map.ts";
import { assertReportCount, ReportTooLargeError } from "../engine/run/usage.ts";
import type { ReportedPrefix } from "../kernel/trigger.ts";
import type { Config } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import type { ItemMap } from "../model/item-map.ts";
import { describeJson } from "../model/json.ts";

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
  assertReportCount(o.promptTokens, "options.usage.promptTokens");
  if (o.messages !== undefined) assertReportCount(o.messages, "options.usage.messages");
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

/**
 * An error of a run given `g`, as the caller sees it: a report the engine refused for its size
 * names the field the count came from (`usage.prompt_tokens`, `options.usage.promptTokens`)
 * instead of the engine's `usage.reported`; any other error is returned as it is.
 */
export function inGivenTerms(g: GivenUsage | undefined, e: unknown): unknown {
  return g !== undefined && e instanceof ReportTooLargeError ? e.naming(g.tokensField) : e;
}
