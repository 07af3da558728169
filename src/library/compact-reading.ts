// The one shape every format's reading takes in the library (the model's messages, which of the
// format's items each holds, and how to write messages back in the format) and the one
// compaction of a reading: every format's compact entry (compact-wire.ts, ai-sdk.ts,
// responses.ts) reads with its adapter, compacts here, and writes back.

import { itemMapOf } from "../engine/run/item-map.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config } from "../model/config.ts";
import type { ItemMap } from "../model/item-map.ts";
import type { Message } from "../model/message.ts";
import { type CompactMessagesOptions, compactParsed } from "./compact-messages.ts";

/** A conversation read from a format `W`: its messages, its items, and the writer back into `W`. */
export interface FormatReading<W> {
  readonly messages: readonly Message[];
  /** which of the format's items each message holds: the window, the threshold and the report count them */
  readonly map: ItemMap;
  /** the messages (the run's result) in the format, untouched ones as they were read */
  readonly write: (messages: readonly Message[]) => W;
}

/**
 * The reading of a format whose readers record each message's source (OpenAI, Anthropic): its
 * items are the model's rule over those sources (model/item-map.ts), held compactly, unless the
 * caller gave its own map (the `items` option, as compactMessages takes it).
 */
export function sourcedReading<W>(
  messages: readonly Message[],
  write: (messages: readonly Message[]) => W,
  given: ItemMap | undefined,
): FormatReading<W> {
  return { messages, map: given ?? itemMapOf(messages), write };
}

/** Compacts a reading under a parsed configuration and writes the result back in its format. */
export async function compactReading<W>(
  reading: FormatReading<W>,
  c: Config,
  options: CompactMessagesOptions,
): Promise<{ written: W; report: CompactionReport }> {
  const r = await compactParsed(reading.messages, c, { ...options, items: reading.map });
  return { written: reading.write(r.messages), report: r.report };
}
