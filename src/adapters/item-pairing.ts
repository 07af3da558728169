// What the adapters whose items are not one-to-one with engine messages (AI SDK, Responses)
// share: one compaction run with the reader's item map (src/engine/run/item-map.ts: the window, the
// threshold and the report count the format's items) and the engine ids standing for approvals.
// Their pairing checks name the format's items with the model's one rule (model/tool-pairing.ts).

import type { ItemMap } from "../engine/run/item-map.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { type CompactMessagesOptions, compactParsed } from "../library/compact-messages.ts";
import type { Config } from "../model/config.ts";
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
