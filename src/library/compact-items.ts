// One compaction of a format whose items are not one-to-one with engine messages (AI SDK,
// Responses): the reader's item map (model/item-map.ts) makes the window, the threshold and the
// report count the format's items.

import type { CompactionReport } from "../engine/run/report.ts";
import type { Config } from "../model/config.ts";
import type { ItemMap } from "../model/item-map.ts";
import type { Message } from "../model/message.ts";
import { type CompactMessagesOptions, compactParsed } from "./compact-messages.ts";

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
