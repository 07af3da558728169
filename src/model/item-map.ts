// How a format's items map to the engine's messages, as data: the readers of the AI SDK and
// Responses formats give one (their items are not one per message), the library takes one, and
// the engine's positions (engine/run/positions.ts) turn the item counts users speak of
// (message_threshold, retention_window, the report's positions) into engine counts.

/**
 * The caller's items `first..last` (inclusive) that one engine message holds; `last = first - 1`
 * for a message that holds none (Anthropic's top-level system).
 */
export interface ItemSpan {
  readonly first: number;
  readonly last: number;
}

/**
 * `spans[j]` are the items of engine message j, in input order: a message either continues the
 * item of the message before it (`first` = that one's `last`) or starts the next one (`first` =
 * that one's `last + 1`). Together the spans cover items 0..items-1.
 */
export interface ItemMap {
  readonly items: number;
  readonly spans: readonly ItemSpan[];
}
