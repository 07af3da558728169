// What the adapters whose items are not one-to-one with engine messages (AI SDK, Responses)
// share: one compaction run with the reader's item map (src/engine/run/item-map.ts: the window, the
// threshold and the report count the format's items), the engine ids standing for approvals, and
// pairing checks that name the format's items in their errors.

import type { ItemMap } from "../engine/run/item-map.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { type CompactMessagesOptions, compactParsed } from "../library/compact-messages.ts";
import type { Config } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import type { Message } from "../model/message.ts";

/**
 * One compaction of a format whose items map to engine messages through an ItemMap: `read`
 * takes the summary tag and gives the messages and the map, the engine runs counting items,
 * and `write` turns the result back into the format.
 */
export async function compactItems<R extends { readonly messages: readonly Message[]; readonly map: ItemMap }, T>(
  c: Config,
  options: CompactMessagesOptions,
  read: (summaryTag: string) => R,
  write: (messages: readonly Message[], reading: R, summaryTag: string) => T,
): Promise<{ items: T; report: CompactionReport }> {
  const reading = read(c.summary_tag);
  const r = await compactParsed(reading.messages, c, { ...options, items: reading.map });
  return { items: write(r.messages, reading, c.summary_tag), report: r.report };
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
