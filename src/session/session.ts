// The session contract: a conversation that outlives the process, kept where several processes
// can append to it and compact it. Every backend keeps every item's original text and every
// compaction record (nothing is deleted), and guards each compaction step where the data lives:
// the kernel's commit rule (L9) against the session's current version, the watermark only
// forward (L10).

import type { FormatName } from "../adapters/detect.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { CompactMessagesOptions } from "../library/compact-messages.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import type { Json } from "../model/json.ts";
import type { TokenCounter } from "../model/tokens.ts";
import type { ClearingRecord, CompactionRecord, RestoreRecord } from "./record.ts";
import type { ContextCounts } from "./session-context.ts";
import type { SessionStats } from "./session-stats.ts";

/** Options of openSession. */
export interface SessionOptions {
  /** the conversation format of a session created by this open; an existing one must match it */
  readonly format?: FormatName;
  /**
   * A log created by this open holds each item's checksum (CRC-32 of its original text), so that a
   * changed byte inside an item is refused on open, naming its line (default: false; the JSONL log
   * only)
   */
  readonly checksums?: boolean;
  /** called with each warning (a torn last line set aside); default: none */
  readonly onWarning?: (message: string) => void;
}

/**
 * Options of a session's compaction: those of compactMessages that apply to a session, and a step
 * limit. With memory_candidates > 0, each step's candidates are stored with its compaction record
 * and `onMemoryCandidates` is called once after the run with those of every record it wrote;
 * `sessionId` (default: the session's location, a password masked) names their source.
 */
export interface SessionCompactOptions
  extends Pick<
    CompactMessagesOptions,
    | "summarizer"
    | "counter"
    | "agentModel"
    | "env"
    | "signal"
    | "onProgress"
    | "onState"
    | "dryRun"
    | "onMemoryCandidates"
    | "sessionId"
  > {
  /** stop after this many summarizer steps (compactStore's maxSteps) */
  readonly maxSteps?: number;
  /**
   * Adopt the run's whole result at one step (a background run: the agent's prompt cache is
   * re-written once per run): its steps are applied in memory and written together when it ends,
   * as one commit the kernel's log commit rule decides (one run line on a log, one transaction on
   * PostgreSQL); nothing of the run is visible before, and a run killed midway leaves nothing.
   * Default false: each step is written as it commits.
   */
  readonly atOneStep?: boolean;
}

/** A session: append, read the context, compact, and read everything ever appended. */
export interface Session {
  /** where the session lives, as given to openSession */
  readonly location: string;
  /** the conversation format, fixed at creation */
  readonly format: FormatName;
  /** Appends items (JSON values of the session's format); resolves once they are durable. Returns the session version after them. */
  append(items: readonly Json[]): Promise<number>;
  /** Appends items given as their JSON text, kept byte for byte (one item per string). */
  appendTexts(texts: readonly string[]): Promise<number>;
  /**
   * Appends items only if no item was appended after session version `version`, checked in the
   * same guarded write (records written since, a compaction's, a clearing's, do not refuse it:
   * they change the context, not the history the items continue). Resolves to the version after
   * them, or undefined when an item was appended since (nothing written: read again, decide again).
   */
  appendSince(version: number, items: readonly Json[]): Promise<number | undefined>;
  /**
   * What the model is sent now: kept items (parsed from their original text) and summaries in
   * place, in the session's format; the items are frozen (shared with later calls). Parsed values
   * hold numbers as JavaScript numbers: an integer beyond 2^53 is exact only in contextText().
   */
  context(): Promise<Json[]>;
  /** The context as JSONL text, one item per line: each kept item as written (a multi-line one with the line breaks between its tokens dropped). */
  contextText(): Promise<string>;
  /**
   * The counts the triggers read, of the context now (tokens under `counter`): kept as entries are
   * read, so that a check costs what was written since the last one.
   */
  contextCounts(counter: TokenCounter): Promise<ContextCounts>;
  /** Runs the engine on the session; each committed step is one guarded write (with `atOneStep`, the whole run is one). */
  compact(config: ConfigInput | Config, options?: SessionCompactOptions): Promise<CompactionReport>;
  /** `full`: every item ever appended, original text, one per line; otherwise the context's text. */
  history(options?: { readonly full?: boolean }): Promise<string>;
  /** The compaction records, in commit order. */
  compactions(): Promise<CompactionRecord[]>;
  /** The clearing steps (tool results' contents replaced by placeholders) and restores, in commit order. */
  clearings(): Promise<(ClearingRecord | RestoreRecord)[]>;
  /**
   * Brings the cleared result of tool call `toolCallId` back into the context (its original text,
   * kept in the session), and the call's arguments if clear_inputs cleared them, as one guarded write; refused when the context holds no cleared result
   * of that call. Returns the session's version after it.
   */
  restore(toolCallId: string): Promise<number>;
  /**
   * Takes the newest item out of the context (with the items read together with it: a Responses
   * reasoning item before the item it travels with), as one guarded write; the item stays in the
   * history. Resolves to the items taken out as the context held them, or undefined (nothing
   * written) when the context is empty or ends with a summary: an item summarized away is not in
   * the context to take out. A compaction planned before it is rejected (L9).
   */
  pop(): Promise<Json[] | undefined>;
  /** Empties the context, as one guarded write; every item stays in the history. Returns the session's version after it. */
  clear(): Promise<number>;
  /**
   * The session's totals: items, the context now (its tokens under `counter`, default the default
   * tokenizer's), the steps committed and the tokens they saved, the summarizer calls the records
   * count with their duration and usage (session-stats.ts).
   */
  stats(options?: { readonly counter?: TokenCounter }): Promise<SessionStats>;
  /** The session's version: its number of entries (items and records). */
  version(): Promise<number>;
  /** Releases the session's file or connection. */
  close(): Promise<void>;
}
