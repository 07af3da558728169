// How the caller's own items map to the engine's messages. A format's item is not always one
// engine message: an Anthropic message or an AI SDK tool message holding several tool results
// reads as several, a Responses reasoning item travels with the item after it (one message, two
// items), and Anthropic's top-level system is part of the request, not one of its messages (a
// message holding no item). Users count their items: message_threshold, retention_window and
// the report's positions speak of them (positions.ts turns them into engine counts as the
// conversation changes). These are mappings between two counts, never decisions: the kernel
// decides on the messages it is given.
import { InputError } from "../../model/errors.ts";
import { type ItemMap, type ItemSpan, sourceItemColumns } from "../../model/item-map.ts";
import type { Message } from "../../model/message.ts";
import { arrayView, type Indexed } from "../store/gap-array.ts";

// the engine's modules name the map through this one (the type itself is the model's)
export type { ItemMap, ItemSpan };

// The spans itemMapOf finds, held in typed arrays rather than one object per message (a span
// object per message was a tenth of a fresh decision on a long history); `firsts` and `lasts`
// are absent when every message is its own item, the usual case.
class CompactSpans implements Indexed<ItemSpan> {
  constructor(
    readonly length: number,
    private readonly firsts?: Float64Array,
    private readonly lasts?: Float64Array,
  ) {}

  at(j: number): ItemSpan {
    return this.firsts === undefined || this.lasts === undefined
      ? { first: j, last: j }
      : { first: this.firsts[j], last: this.lasts[j] };
  }

  /** The last item of message j. */
  last(j: number): number {
    return this.lasts === undefined ? j : this.lasts[j];
  }
}

// itemMapOf's spans arrays, to their compact source (for prefixEnd's binary search)
const compactOf = new WeakMap<readonly ItemSpan[], CompactSpans>();

/**
 * The items of messages from their sources (the model's rule, sourceItemColumns). O(n), with no
 * object per message: `spans` is a read-only array view (gap-array.ts arrayView) that builds each
 * span when it is read.
 */
export function itemMapOf(messages: readonly Message[]): ItemMap {
  const cols = sourceItemColumns(messages);
  if (cols === undefined) return compactMap(new CompactSpans(messages.length), messages.length);
  return compactMap(new CompactSpans(messages.length, cols.firsts, cols.lasts), cols.items);
}

function compactMap(src: CompactSpans, items: number): ItemMap {
  const spans = arrayView(src);
  compactOf.set(spans, src);
  return { items, spans };
}

/**
 * How many of the first engine messages lie wholly within the first k items: the messages
 * before the first whose span reaches item k. A binary search on itemMapOf's maps (their spans'
 * last items never decrease); a scan on a caller's own map.
 */
export function prefixEnd(map: ItemMap, k: number): number {
  const c = compactOf.get(map.spans);
  if (c === undefined) {
    let end = 0;
    while (end < map.spans.length && map.spans[end].last < k) end++;
    return end;
  }
  let lo = 0;
  let hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.last(mid) < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Refuses an item map that does not fit `messages` engine messages (a library caller's own map). */
export function assertItemMap(map: ItemMap, messages: number, path = "options.items"): void {
  const bad = (why: string) => new InputError(path, why);
  if (typeof map !== "object" || map === null || !Array.isArray(map.spans))
    throw bad("expected { items, spans } with one span per message");
  if (map.spans.length !== messages)
    throw bad(`has ${map.spans.length} spans for ${messages} messages: expected one span per message`);
  let last = -1;
  map.spans.forEach((s, j) => {
    const ok =
      typeof s === "object" &&
      s !== null &&
      Number.isSafeInteger(s.first) &&
      Number.isSafeInteger(s.last) &&
      (s.first === last + 1 || (s.first === last && last >= 0 && j > 0)) &&
      s.last >= s.first - 1;
    if (!ok) throw bad(`spans[${j}] must start at item ${last} or ${last + 1} and not end before it starts`);
    last = Math.max(last, s.last);
  });
  if (map.items !== last + 1)
    throw bad(`items must be ${last + 1} (the spans cover items 0..${last}), got ${map.items}`);
}
