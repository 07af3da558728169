// How a format's items map to the engine's messages, as data: the readers of the AI SDK and
// Responses formats give one (their items are not one per message), the library takes one, and
// the engine's positions (engine/run/positions.ts) turn the item counts users speak of
// (message_threshold, retention_window, the report's positions) into engine counts. The OpenAI
// and Anthropic readers record each message's source instead (Message.source); the rule that
// turns sources into items is here, the one owner of what a source message is.
import type { Message } from "./message.ts";

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

/**
 * True when `b` is the next part of the source message `a` was read from (an Anthropic message
 * holding tool results reads as several messages): the same format, index and source object.
 */
export function sameSourceMessage(a: Message, b: Message): boolean {
  const s = a.source;
  const t = b.source;
  return s !== undefined && t !== undefined && s.format === t.format && s.index === t.index && s.raw === t.raw;
}

/** The spans of messages by their sources, as columns: message j holds items firsts[j]..lasts[j]. */
export interface SourceItemColumns {
  readonly firsts: Float64Array;
  readonly lasts: Float64Array;
  /** how many items the messages hold */
  readonly items: number;
}

/**
 * The items of messages read by the OpenAI and Anthropic readers (or built by hand), from their
 * sources (`Message.source`): the messages read from one source message are one item, a source
 * outside the format's list (index -1: Anthropic's top-level system) holds none, every other
 * message is one. Undefined when every message is its own item (no source is shared or outside
 * the list), the usual case. O(n); the columns are typed arrays, not an object per message.
 */
export function sourceItemColumns(messages: readonly Message[]): SourceItemColumns | undefined {
  const n = messages.length;
  let i = 0;
  while (i < n && !(ownItemless(messages[i]) || (i > 0 && sameSourceMessage(messages[i - 1], messages[i])))) i++;
  if (i === n) return undefined;
  const firsts = new Float64Array(n);
  const lasts = new Float64Array(n);
  let next = 0; // the next item's number
  for (i = 0; i < n; i++) {
    if (ownItemless(messages[i])) {
      firsts[i] = next;
      lasts[i] = next - 1;
    } else if (i > 0 && sameSourceMessage(messages[i - 1], messages[i])) {
      firsts[i] = firsts[i - 1];
      lasts[i] = lasts[i - 1];
    } else {
      firsts[i] = next;
      lasts[i] = next;
      next++;
    }
  }
  return { firsts, lasts, items: next };
}

// a message read from outside the format's list of messages (Anthropic's top-level system)
function ownItemless(m: Message): boolean {
  return m.source !== undefined && m.source.index === -1;
}
