// The context of a session, rebuilt from its log: every item read by the format's adapter, each
// compaction record's stretch replaced by its summary where and when it was committed, each
// clearing record's results by their placeholders (and its calls' arguments by `{}`, as the
// engine's clearing does), each restore's result (and its call's arguments) by its original (and,
// for a compaction, the stretches known not to shrink, as the store would have kept them). One
// pass over the items plus the records. Applying a record replays a decision the kernel made at the
// commit; nothing is decided here, and a record that does not fit the context is refused.

import { type ConversationFile, readConversationFile } from "../adapters/conversation-file.ts";
import type { FormatName } from "../adapters/detect.ts";
import { compactJsonText } from "../adapters/json-text.ts";
import { clearedArguments, clearedWith } from "../engine/run/clearing.ts";
import { itemMapOf } from "../engine/run/item-map.ts";
import type { UnshrinkableMemory } from "../engine/store/unshrinkable.ts";
import { InputError } from "../model/errors.ts";
import type { ItemSpan } from "../model/item-map.ts";
import { type AssistantMessage, type Message, summaryMessage } from "../model/message.ts";
import type { PopRecord } from "./record.ts";
import type { Entry } from "./session-state.ts";

/**
 * An item's text on one line: as written, or for a multi-line original (a CR or a newline can only
 * lie between its tokens) its tokens as written without the whitespace between them, so that no
 * number or string is re-serialized (big integers, 1.0, escapes stay as written).
 */
export function oneLineItem(text: string): string {
  return text.includes("\n") || text.includes("\r") ? compactJsonText(text, 0, text.length) : text;
}

/**
 * The items read as one JSONL conversation (a multi-line original is read from its one-line
 * form, oneLineItem). `slice`: they continue the session's history (an append, the items since a read), whose
 * tool pairing the session checks against everything it holds (pairing.ts), not the adapter.
 */
export function readItems(items: readonly string[], format: FormatName, slice = false): ConversationFile | undefined {
  if (items.length === 0) return undefined;
  const lines = items.map(oneLineItem);
  return readConversationFile(`${lines.join("\n")}\n`, { format, slice });
}

/** The messages of a slice of the session's items (see readItems), in the session's format. */
export function messagesOf(items: readonly string[], format: FormatName): Message[] {
  return readItems(items, format, true)?.messages.slice() ?? [];
}

/** For each message, the index of the last item it holds. */
export function itemOfMessage(file: ConversationFile): (j: number) => number {
  const map = file.items ?? itemMapOf(file.messages);
  return (j) => {
    const span = map.spans.at(j);
    if (span === undefined) throw new Error(`internal: no item for message ${j}`);
    return span.last;
  };
}

/**
 * The assistant message with the arguments of call `id` back as read (`clearedFrom`), the other
 * calls as they are; the message as read once none differs. Undefined when that call's arguments
 * are not cleared.
 */
export function restoredArguments(m: AssistantMessage, id: string): AssistantMessage | undefined {
  const read = m.clearedFrom?.toolCalls.find((c) => c.id === id);
  const now = m.toolCalls.find((c) => c.id === id);
  if (m.clearedFrom === undefined || read === undefined || now === undefined || read.arguments === now.arguments)
    return undefined;
  const toolCalls = m.toolCalls.map((c) => (c.id === id ? { ...c, arguments: read.arguments } : c));
  const from = m.clearedFrom.toolCalls;
  const back = toolCalls.every((c, k) => c.arguments === from[k]?.arguments && c.id === from[k]?.id);
  return back ? m.clearedFrom : { ...m, toolCalls };
}

/** The rebuilt context, and the file it was read from (for writing it back in the session's layout). */
export interface Replayed {
  readonly messages: Message[];
  readonly file: ConversationFile | undefined;
}

/**
 * Rebuilds the context from the log's entries; a record that does not fit is refused naming its
 * place. `memory`, when given, takes the unshrinkable records' stretches as the context was then
 * and follows every later compaction record as a store's memory follows its splices.
 */
export function replay(
  items: readonly string[],
  entries: readonly Entry[],
  format: FormatName,
  memory?: UnshrinkableMemory,
): Replayed {
  // once an item was taken out of the context (a pop, a clear), the history is no longer one
  // conversation: its pairing is the context's, checked by the store that loads it
  const takenOut = entries.some((e) => e.kind === "pop" || e.kind === "clear");
  const file = readItems(items, format, takenOut);
  const all = file?.messages ?? [];
  const itemOf = file === undefined ? () => 0 : itemOfMessage(file);
  const spanOf = file === undefined ? new Map<Message, ItemSpan>() : spansOf(file);
  const context: Message[] = [];
  let next = 0;
  for (const e of entries) {
    if (e.kind === "item") continue;
    while (next < all.length && itemOf(next) < e.record.items) context.push(all[next++]);
    if (e.kind === "clear") {
      // the stretches known not to shrink go with the messages (a splice of the whole context drops them)
      memory?.afterSplice(0, context.length);
      context.length = 0;
      continue;
    }
    if (e.kind === "pop") {
      popFrom(context, e.record, spanOf, e.where);
      continue;
    }
    if (e.kind === "clearing") {
      for (const c of e.record.results) {
        const m = context[c.index];
        if (m?.role !== "tool" || m.toolCallId !== c.toolCallId)
          throw new InputError(e.where, `message ${c.index} of the context is not the result of ${c.toolCallId}`);
        context[c.index] = clearedWith(m, c.placeholder);
      }
      for (const c of e.record.inputs ?? []) {
        const m = context[c.index];
        const cleared = m?.role === "assistant" ? clearedArguments(m, new Set(c.toolCallIds)) : undefined;
        const ids = cleared === undefined ? [] : [...clearedCallIds(m, cleared)];
        if (cleared === undefined || ids.join("\n") !== c.toolCallIds.join("\n"))
          throw new InputError(
            e.where,
            `message ${c.index} of the context does not hold the calls ${c.toolCallIds.join(", ")} with arguments to clear`,
          );
        context[c.index] = cleared;
      }
      continue;
    }
    if (e.kind === "unshrinkable") {
      for (const x of e.record.stretches) {
        if (x.end > context.length)
          throw new InputError(
            e.where,
            `the stretch ${x.start}..${x.end} lies outside the ${context.length}-message context`,
          );
        memory?.add(x.start, x.end, context.slice(x.start, x.end));
      }
      continue;
    }
    if (e.kind === "restore") {
      const m = context[e.record.index];
      if (m?.role !== "tool" || m.toolCallId !== e.record.toolCallId || m.clearedFrom === undefined)
        throw new InputError(
          e.where,
          `message ${e.record.index} of the context is not the cleared result of ${e.record.toolCallId}`,
        );
      context[e.record.index] = m.clearedFrom;
      if (e.record.call !== undefined) {
        const a = context[e.record.call];
        const back = a?.role === "assistant" ? restoredArguments(a, e.record.toolCallId) : undefined;
        if (back === undefined)
          throw new InputError(
            e.where,
            `message ${e.record.call} of the context does not hold the call ${e.record.toolCallId} with cleared arguments`,
          );
        context[e.record.call] = back;
      }
      continue;
    }
    const r = e.record;
    if (r.end > context.length)
      throw new InputError(
        e.where,
        `the stretch ${r.start}..${r.end} lies outside the ${context.length}-message context`,
      );
    context.splice(r.start, r.end - r.start, summaryMessage(r.summary));
    memory?.afterSplice(r.start, r.end);
  }
  while (next < all.length) context.push(all[next++]);
  return { messages: context, file };
}

/** Each message read from the file (by identity) and the items it holds. */
export function spansOf(file: ConversationFile): Map<Message, ItemSpan> {
  const map = file.items ?? itemMapOf(file.messages);
  return new Map(file.messages.map((m, j) => [m, map.spans[j]]));
}

/** The items a context message holds: those it was read from (a cleared one: its original's); undefined for a summary. */
export function itemsOfContext(m: Message, spanOf: ReadonlyMap<Message, ItemSpan>): ItemSpan | undefined {
  const read = (m.role === "tool" || m.role === "assistant") && m.clearedFrom !== undefined ? m.clearedFrom : m;
  return spanOf.get(read);
}

/**
 * The position of the first context message read from the newest item the context holds (with
 * every item read together with it): the messages from there on are what a pop takes out, items
 * `first..last`. Undefined when the context is empty or ends with a summary (the newest item was
 * summarized away: nothing kept as read is left to take out).
 */
export function newestItemMessages(
  context: readonly Message[],
  spanOf: ReadonlyMap<Message, ItemSpan>,
): { index: number; first: number; last: number } | undefined {
  const end = context.at(-1);
  const span = end === undefined ? undefined : itemsOfContext(end, spanOf);
  if (span === undefined) return undefined;
  let index = context.length - 1;
  let first = span.first;
  // an item read as several messages (an Anthropic message holding tool results), or a message
  // holding several items (a reasoning item with the one after it): all of them go together
  while (index > 0) {
    const before = itemsOfContext(context[index - 1], spanOf);
    if (before === undefined || before.last < first) break;
    first = Math.min(first, before.first);
    index--;
  }
  return { index, first, last: span.last };
}

/** Applies a pop record: the context's last messages, those of its items, are taken out; refused when they are not. */
function popFrom(context: Message[], r: PopRecord, spanOf: ReadonlyMap<Message, ItemSpan>, where: string): void {
  const at = newestItemMessages(context, spanOf);
  if (at === undefined || at.index !== r.index || at.first !== r.first || at.last !== r.last)
    throw new InputError(
      where,
      `the context does not end with the messages of items ${r.first}..${r.last} at message ${r.index}`,
    );
  context.length = r.index;
}

/** The calls whose arguments differ between `was` and `now` (the same calls, in order). */
export function clearedCallIds(was: Message | undefined, now: AssistantMessage): string[] {
  if (was?.role !== "assistant") return [];
  return now.toolCalls.filter((c, k) => was.toolCalls[k]?.arguments !== c.arguments).map((c) => c.id);
}
