// How a format's own items map to the engine's messages, for the formats whose items are not
// one-to-one with them (an AI SDK tool message holds several tool results; a Responses
// reasoning item travels with the item after it). The user's settings and the report speak of
// the format's items: the retention window is turned into the engine messages that cover the
// last N items, and the report's positions are turned back into item positions.
import { type CompactMessagesOptions, compactParsed } from "../engine/compact-messages.ts";
import type { Config } from "../engine/config.ts";
import { InputError } from "../engine/errors.ts";
import type { Message } from "../engine/message.ts";
import type { InputRange } from "../engine/positions.ts";
import type { CompactionReport } from "../engine/report.ts";
import { givenUsage, reportedPrefix } from "../engine/usage.ts";

/** The input items one engine message came from: items `first..last` (inclusive). */
export type ItemSpan = InputRange;

/**
 * The mapping an adapter returns with the messages it read: `spans[j]` are the input items of
 * engine message j (several messages may share one item; one message may cover several).
 * Spans are in input order and together cover items 0..items-1.
 */
export interface ItemMap {
  readonly items: number;
  readonly spans: readonly ItemSpan[];
}

/**
 * The engine's retention window (in messages) that keeps the last `window` items untouched:
 * every message that holds one of those items, and so the whole tail from the first of them.
 */
export function engineWindow(map: ItemMap, window: number): number {
  const firstKept = map.items - window;
  let k = 0;
  while (k < map.spans.length && map.spans[map.spans.length - 1 - k].last >= firstKept) k++;
  return Math.max(1, k);
}

// How many items start at each engine message: a message that continues its item (the second
// tool result of one AI SDK tool message) starts none; a grouped message starts all of its items.
function itemStarts(map: ItemMap): number[] {
  return map.spans.map((s, j) => (j > 0 && map.spans[j - 1].first === s.first ? 0 : s.last - s.first + 1));
}

/** An input range in engine messages (as the engine reports it) as the format's items. */
function toItems(map: ItemMap, r: InputRange): InputRange {
  return { first: map.spans[r.first].first, last: map.spans[r.last].last };
}

/**
 * The report with its input positions and message counts in the format's items. `start`/`end`
 * stay the engine's step positions (what the L6 check replays); `input` says where each stretch
 * was in the caller's items.
 */
export function itemReport(report: CompactionReport, map: ItemMap): CompactionReport {
  const weights = itemStarts(map);
  const planned =
    report.plannedStretch === undefined
      ? {}
      : { plannedStretch: { ...report.plannedStretch, input: toItems(map, report.plannedStretch.input) } };
  const stretches = report.stretches.map((s) => {
    // the summary is one item; a message after the stretch that continued a cut item now starts one
    const after = s.end < weights.length && weights[s.end] === 0 ? [1] : [];
    weights.splice(s.start, s.end - s.start + after.length, 1, ...after);
    return { ...s, input: toItems(map, s.input) };
  });
  const skipped = report.skipped.map((s) => ({ ...s, input: toItems(map, s.input) }));
  return {
    ...report,
    ...planned,
    stretches,
    skipped,
    messagesBefore: map.items,
    messagesAfter: weights.reduce((a, b) => a + b, 0),
  };
}

/**
 * One compaction of a format whose items map to engine messages through an ItemMap, under a
 * configuration parseConfig returned: `read` takes the summary tag and gives the messages and
 * the map, the engine runs with the window in items, and `write` turns the result back into the
 * format; the report speaks of items.
 */
export async function compactItems<R extends { readonly messages: readonly Message[]; readonly map: ItemMap }, T>(
  c: Config,
  options: CompactMessagesOptions,
  read: (summaryTag: string) => R,
  write: (messages: readonly Message[], reading: R, summaryTag: string) => T,
): Promise<{ items: T; report: CompactionReport }> {
  const reading = read(c.summary_tag);
  // reported usage counts the caller's items: the engine takes it in its messages
  const given = givenUsage(c, options.usage);
  const prefix = given === undefined ? undefined : reportedPrefix(given, lastItems(reading.map), reading.map.items);
  const usage = prefix === undefined ? undefined : { promptTokens: prefix.reported, messages: prefix.end };
  const r = await compactParsed(reading.messages, engineConfig(c, reading.map), { ...options, usage });
  return { items: write(r.messages, reading, c.summary_tag), report: itemReport(r.report, reading.map) };
}

/** The configuration the engine runs with: `retention_window` turned from items into engine messages (the usage setting is passed on as an option, in them too). */
export function engineConfig(c: Config, map: ItemMap): Config {
  return { ...c, retention_window: engineWindow(map, c.retention_window), usage: null };
}

/** For each engine message, the position of the last item it holds. */
function lastItems(map: ItemMap): number[] {
  return map.spans.map((s) => s.last);
}

/**
 * The engine tool call id standing for an approval request (AI SDK tool approvals, Responses
 * MCP approvals): its answer is a tool result with the same id, so the kernel's pairing keeps
 * a request and its answer together as it does a call and its result.
 */
export function approvalCallId(approvalId: string): string {
  return `approval:${approvalId}`;
}

/** One tool call or tool result as a format states it, with the path that names it in errors. */
export interface PairingEvent {
  readonly kind: "call" | "result";
  readonly id: string;
  readonly path: string;
}

/**
 * Throws an InputError naming the item and field of a duplicate call id, a result before its
 * call, an orphan result or a second result for one call. The engine rejects these too, but
 * names its own message positions; the adapters name the format's items.
 */
export function assertPairing(events: readonly PairingEvent[]): void {
  const calls = new Map<string, string>();
  const results = new Map<string, string>();
  for (const e of events) {
    if (e.kind !== "call") continue;
    const first = calls.get(e.id);
    if (first !== undefined)
      throw new InputError(e.path, `duplicate tool call id ${JSON.stringify(e.id)} (already used at ${first})`);
    calls.set(e.id, e.path);
  }
  const seen = new Set<string>();
  for (const e of events) {
    if (e.kind === "call") {
      seen.add(e.id);
      continue;
    }
    const call = calls.get(e.id);
    if (call === undefined)
      throw new InputError(e.path, `orphan tool result: no tool call has id ${JSON.stringify(e.id)}`);
    if (!seen.has(e.id))
      throw new InputError(e.path, `tool result for ${JSON.stringify(e.id)} comes before its call at ${call}`);
    const prev = results.get(e.id);
    if (prev !== undefined)
      throw new InputError(e.path, `second tool result for ${JSON.stringify(e.id)} (first at ${prev})`);
    results.set(e.id, e.path);
  }
}
