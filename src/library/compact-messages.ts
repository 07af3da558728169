// The one-shot library entry: compact a list of messages under a configuration and return
// the result with the run's report, whose law checks compare input and output. The summarizer is chosen
// here (the caller's, or the one the settings name), so the engine never imports providers.

import { parseConfig } from "../engine/boundary/config-rules.ts";
import { type MemoryCandidate, memoryCandidates } from "../engine/memory/candidates.ts";
import { placeholderPattern } from "../engine/run/clearing.ts";
import { type CompactOptions, compactStore } from "../engine/run/compact.ts";
import { assertItemMap, itemMapOf } from "../engine/run/item-map.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { ConversationStore } from "../engine/store/store.ts";
import { markedMessages } from "../engine/store/summary-marks.ts";
import type { UnshrinkableMemory } from "../engine/store/unshrinkable.ts";
import { ledgerCaps } from "../engine/summarize/evidence-ledger.ts";
import type { ReportedPrefix } from "../kernel/trigger.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import { describeJson } from "../model/json.ts";
import { assertEachNesting } from "../model/json-depth.ts";
import type { Message } from "../model/message.ts";
import type { Summarizer } from "../model/summarizer.ts";
import { type TokenCounter, tokenCounter } from "../model/tokens.ts";
import { type KeyEnv, summarizerFromConfig } from "../providers/from-config.ts";
import { type LedgerReport, ledgerAfter, ledgerReport, splitLedger, withLedger } from "./ledger-step.ts";
import { givenUsage, inGivenTerms, type ReportedUsage, reportedPrefix } from "./usage.ts";

/**
 * Options of a one-shot compaction: the run's own options (compactStore's CompactOptions, the
 * one declaration of what they mean) plus what the library chooses before the run.
 */
export interface CompactMessagesOptions
  extends Pick<CompactOptions, "agentModel" | "signal" | "onProgress" | "onState" | "dryRun" | "items" | "hooks"> {
  /** default: the one the configuration names (offline unless set) */
  readonly summarizer?: Summarizer;
  /** default: the configured tokenizer */
  readonly counter?: TokenCounter;
  /** where API keys are read; default process.env */
  readonly env?: KeyEnv;
  /**
   * the prompt token count the provider reported for the conversation's first `messages` messages
   * (all when absent): the trigger judges it instead of counting them (docs/library.md, "Reported usage");
   * the same as the `usage` setting, which may not be given as well
   */
  readonly usage?: ReportedUsage;
  /**
   * the stretches known not to shrink, kept across compactions of one conversation: pass the same
   * memory each time the result (plus messages appended to it) is compacted again, and no run pays
   * again for a stretch whose summary was rejected as not shorter while it is unchanged
   */
  readonly unshrinkable?: UnshrinkableMemory;
  /** the session the messages belong to: memory flush candidates name it as their source */
  readonly sessionId?: string;
  /** called with the run's memory flush candidates (setting memory_candidates; docs/memory-candidates.md), when there are any */
  readonly onMemoryCandidates?: (candidates: readonly MemoryCandidate[]) => void;
}

/** The compacted messages and the report. */
export interface CompactResult {
  readonly messages: Message[];
  readonly report: CompactionReport;
  /** the validated configuration that was used */
  readonly config: Config;
  /** with the `ledger` setting on: the evidence ledger's size in the result (docs/ledger.md) */
  readonly ledger?: LedgerReport;
  /** with memory_candidates > 0: the memory flush candidates of the user messages the run covered */
  readonly memoryCandidates?: readonly MemoryCandidate[];
}

/** Refuses anything but an array as the message list (a library caller's `null`, an object). */
export function assertMessageList(messages: unknown, path = "messages"): asserts messages is readonly unknown[] {
  if (!Array.isArray(messages))
    throw new InputError(path, `expected an array of messages, got ${describeJson(messages)}`);
}

/** Refuses options that are not an object (undefined means none). */
export function assertOptions(o: unknown): void {
  if (o !== undefined && (typeof o !== "object" || o === null || Array.isArray(o)))
    throw new InputError("options", `expected an object of options, got ${describeJson(o)}`);
}

/** Compacts `messages` (never mutated) until under the trigger; failures leave them as they were. */
export async function compactMessages(
  messages: readonly Message[],
  config: ConfigInput | Config,
  o: CompactMessagesOptions = {},
): Promise<CompactResult> {
  assertOptions(o);
  return compactParsed(messages, parseConfig(config), o);
}

/**
 * compactMessages under a configuration that parseConfig returned: for callers that parse the
 * settings once, before reading their input (the adapters, the CLI), and pass them down.
 */
export async function compactParsed(
  messages: readonly Message[],
  c: Config,
  o: CompactMessagesOptions = {},
): Promise<CompactResult> {
  assertOptions(o);
  assertMessageList(messages);
  const done = c.ledger ? await compactWithLedger(messages, c, o) : await compactRun(messages, c, o);
  if (c.memory_candidates === 0 || o.dryRun === true) return done;
  const ranges = done.report.stretches.map((s) => s.input);
  const candidates =
    ranges.length === 0
      ? []
      : memoryCandidates({
          messages,
          first: Math.min(...ranges.map((r) => r.first)),
          last: Math.max(...ranges.map((r) => r.last)),
          sessionId: o.sessionId,
          max: c.memory_candidates,
          bytes: c.memory_candidate_bytes,
          time: new Date().toISOString(),
        });
  if (candidates.length > 0) o.onMemoryCandidates?.(candidates);
  return { ...done, memoryCandidates: candidates };
}

/**
 * compactParsed with the `ledger` setting on: the run compacts the messages without their ledger
 * message, and the ledger, extended with the tool steps the run replaced, is put back beside the
 * summaries (ledger-step.ts). With reported usage or an item map the ledger message must not be
 * in the input: their positions count the caller's messages, which the ledger's removal would shift.
 */
async function compactWithLedger(
  messages: readonly Message[],
  c: Config,
  o: CompactMessagesOptions,
): Promise<CompactResult> {
  assertEachNesting(messages, "messages");
  const split = splitLedger(messages);
  if (split.at >= 0 && (o.items !== undefined || o.usage !== undefined || c.usage !== null))
    throw new InputError(
      `messages[${split.at}]`,
      "an evidence ledger message with reported usage or an item map: pass the messages without it",
    );
  const done = await compactRun(split.rest, c, o);
  const ledger =
    o.dryRun === true
      ? split.ledger
      : ledgerAfter(split.ledger, split.rest, done.messages, ledgerCaps(c), placeholderPattern(c.clear_placeholder));
  return { ...done, messages: withLedger(done.messages, ledger), ledger: ledgerReport(ledger) };
}

/** One run of the engine on `messages` (already checked to be a list). */
async function compactRun(messages: readonly Message[], c: Config, o: CompactMessagesOptions): Promise<CompactResult> {
  const usage = givenUsage(c, o.usage);
  // every check that can refuse the input runs here, before the first summarizer call
  assertEachNesting(messages, "messages");
  if (o.items !== undefined) assertItemMap(o.items, messages.length);
  const counter = o.counter ?? tokenCounter(c.tokenizer);
  // the store's load checks the messages (assertWellFormed's errors) in the same pass that counts
  // them; given usage, it counts none: the trigger reads only the counts after the report's prefix
  const store = new ConversationStore(counter, messages, {
    uncounted: usage === undefined ? 0 : messages.length,
    ...(o.unshrinkable === undefined ? {} : { unshrinkable: o.unshrinkable }),
  });
  const items = o.items ?? itemMapOf(messages);
  // reported usage counts the caller's items: the engine takes it in its messages
  const prefix: ReportedPrefix | undefined = usage === undefined ? undefined : reportedPrefix(usage, items);
  const summarizer = o.summarizer ?? summarizerFromConfig(c, counter, o.env ?? process.env, o.agentModel);
  const report = await compactStore(store, c, {
    summarizer,
    agentModel: o.agentModel,
    signal: o.signal,
    onProgress: o.onProgress,
    onState: o.onState,
    dryRun: o.dryRun,
    items,
    ...(o.hooks === undefined ? {} : { hooks: o.hooks }),
    ...(prefix === undefined ? {} : { usage: prefix }),
  }).catch((e: unknown) => {
    throw inGivenTerms(usage, e);
  });
  // the run's report carries the law checks of its result against `messages` (the store's copy of
  // them); the summaries found not to shrink carry that in their markers, for the next call
  // the calls since this run count only under the lawful floor: only there is the newest summary marked
  const changed =
    report.lawfulFloor !== undefined && (report.stretches.length > 0 || (report.clearing?.results ?? 0) > 0);
  return { messages: o.dryRun === true ? store.messageList() : markedMessages(store, changed), report, config: c };
}
