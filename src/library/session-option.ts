// The `session` option of the wire helpers (compactOpenAIMessages, compactAnthropicMessages,
// compactResponsesItems): the agent keeps passing the array it holds (what the last call
// returned, plus what happened since); the helper checks that the session's context is a prefix
// of it and appends the rest durably in one guarded write (refused and checked again when another
// process appended in between), compacts the session when due and returns its context. The
// session is described here by what the helpers use of it (the session layer's `Session` has
// all of it): the library builds on no session backend.

import { isDeepStrictEqual } from "node:util";
import type { FormatName } from "../adapters/detect.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import { describeJson, type Json } from "../model/json.ts";
import type { CompactMessagesOptions } from "./compact-messages.ts";

/** The options a session's compaction takes (the rest of CompactMessagesOptions is refused with a session). */
type SessionRunOptions = Pick<
  CompactMessagesOptions,
  "summarizer" | "counter" | "agentModel" | "env" | "signal" | "onProgress" | "onMemoryCandidates" | "sessionId"
>;

/** What a wire helper uses of a session (openSession's `Session`). */
export interface HelperSession {
  /** the conversation format, fixed at the session's creation: the helper's own */
  readonly format: FormatName;
  /** The session's version (its number of entries). */
  version(): Promise<number>;
  /**
   * Appends items of the session's format unless an item was appended after `version`, checked in
   * the same guarded write; resolves once they are durable (to the version after them), or to
   * undefined, with nothing written, when one was.
   */
  appendSince(version: number, items: readonly Json[]): Promise<number | undefined>;
  /** The context as JSONL text, one item per line (kept items in their original text). */
  contextText(): Promise<string>;
  /** The context's items. */
  context(): Promise<Json[]>;
  /** Runs the engine on the session (each committed step one guarded write). */
  compact(config: Config, options?: SessionRunOptions): Promise<CompactionReport>;
}

/** Options of a wire helper: compactMessages' options, and the session that keeps the history. */
export interface WireOptions extends CompactMessagesOptions {
  /**
   * the session (openSession) that keeps the agent's history, of the helper's format: the array
   * given must start with the session's context (the items the last call returned), what follows
   * is appended, the session is compacted when due, and its context is returned
   */
  readonly session?: HelperSession;
  /**
   * compactAnthropicMessages: mark the last message before the first one compaction changed with
   * a cache breakpoint (`cache_control`), when the request carries fewer than four (default true;
   * a session's stored context carries none)
   */
  readonly cacheBreakpoint?: boolean;
}

/** CompactMessagesOptions a session's compaction does not take: each refused with a session. */
const NOT_WITH_A_SESSION = ["usage", "unshrinkable", "dryRun", "items", "hooks"] as const;

/** The items a helper holds, one path per item for its errors (`messages[3]`, Anthropic's `system`). */
export interface HeldItems {
  readonly items: readonly Json[];
  readonly pathOf: (i: number) => string;
}

/** Whether an item the agent holds is the context's item: its original text, or the same JSON value. */
function sameItem(held: Json, text: string): boolean {
  const own = JSON.stringify(held);
  return own === text || isDeepStrictEqual(JSON.parse(own), JSON.parse(text));
}

/**
 * A helper's call with a session: refuses a session of another format (naming both) and options
 * a session does not take; checks that the session's context is a prefix of `held` (refused at
 * the first differing index, nothing written) and appends the rest (durable when this resolves)
 * as one guarded write: an append refused because another process appended after the version the
 * check read is checked again on the session as it is then (each retry follows another writer's
 * append); compacts under `c`. Returns the session's context and the run's report.
 */
export async function compactOnSession(
  helper: string,
  format: FormatName,
  held: HeldItems,
  c: Config,
  options: WireOptions,
): Promise<{ context: Json[]; report: CompactionReport }> {
  const { session } = options;
  if (session === undefined || session === null || typeof session !== "object")
    throw new InputError("options.session", `expected a session (openSession), got ${describeJson(session)}`);
  if (session.format !== format)
    throw new InputError(
      "options.session",
      `${helper} keeps ${format} items; the session is of format ${String(session.format)}`,
    );
  for (const k of NOT_WITH_A_SESSION)
    if (options[k] !== undefined)
      throw new InputError(`options.${k}`, "not with a session: a session's compaction reads its own context");
  // the check and the append are one guarded write: the append is refused when another process
  // appended after the version the check read, and the check is made again on the session as it is then
  for (;;) {
    const version = await session.version();
    const context = await contextPrefixOf(session, held);
    if (held.items.length === context) break;
    if ((await session.appendSince(version, held.items.slice(context))) !== undefined) break;
  }
  // the memory flush candidates of the steps are stored with their records and handed to onMemoryCandidates
  const { summarizer, counter, agentModel, env, signal, onProgress, onMemoryCandidates, sessionId } = options;
  const report = await session.compact(c, {
    summarizer,
    counter,
    agentModel,
    env,
    signal,
    onProgress,
    onMemoryCandidates,
    sessionId,
  });
  return { context: await session.context(), report };
}

/**
 * Checks that the session's context (read now) is a prefix of the held items, refusing at the
 * first differing index (nothing written); returns the context's length.
 */
async function contextPrefixOf(session: HelperSession, held: HeldItems): Promise<number> {
  const lines = (await session.contextText()).split("\n").filter((l) => l.trim() !== "");
  const { items, pathOf } = held;
  for (let i = 0; i < lines.length; i++) {
    if (i >= items.length)
      throw new InputError(
        pathOf(i),
        `missing: the session's context has ${lines.length} items, the array ${items.length}; pass the items the last call returned, then the new ones (nothing was written)`,
      );
    if (!sameItem(items[i], lines[i]))
      throw new InputError(
        pathOf(i),
        `differs from item ${i} of the session's context: pass the items the last call returned, then the new ones (nothing was written)`,
      );
  }
  return lines.length;
}
