// The memory a summary carries in its own marker (the model's SummaryMarker): read into the
// store's memory of stretches known not to shrink before a run, and written back into the
// result after it, so that calls keeping nothing between them (compactMessages and the wire
// helpers before every model call) never ask twice for a summary that could not shrink. The
// kernel's markedNotShrinkable decides what a marker still says; the memory does the rest.
import { type Message, type SummaryMarker, type SummaryMessage, summaryMessage } from "../../model/message.ts";
import { gateMarkedNotShrinkable } from "../boundary/kernel-gate.ts";
import { plainArray } from "./gap-array.ts";
import type { ConversationStore } from "./store.ts";

/**
 * Records in the store's memory each summary whose marker says it cannot shrink at its current
 * size (the kernel's markedNotShrinkable), as the one-message stretch [i, i + 1).
 */
export function rememberMarkers(store: ConversationStore): void {
  const ms = store.messageList();
  let tokens: readonly number[] | undefined;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (m.role !== "summary" || m.marker?.floor === undefined) continue;
    tokens ??= plainArray(store.view().tokens);
    if (gateMarkedNotShrinkable(tokens[i], m.marker.floor)) store.unshrinkable.add(i, i + 1, [m]);
  }
}

/**
 * The store's messages, each summary its memory records as not shrinking marked with its size
 * (`floor`), so the record travels with the conversation; after a run that `changed` them with
 * its trigger at or under the lawful floor (the caller says), the newest summary marked with the assistant messages after it (`after`: the calls since this run
 * are the ones after those, lawful-floor.ts). A marked summary is a new message (no source): a
 * writer writes it with its marker instead of giving back the text it was read from.
 */
export function markedMessages(store: ConversationStore, changed: boolean): Message[] {
  const ms = store.messageList();
  const known = store.unshrinkable.bounds(ms);
  if (known.starts.length > 0) {
    const tokens = plainArray(store.view().tokens);
    known.starts.forEach((i, k) => {
      const m = ms[i];
      if (known.ends[k] !== i + 1 || m.role !== "summary" || m.marker?.floor === tokens[i]) return;
      ms[i] = summaryMessage(m.content, { ...m.marker, floor: tokens[i] });
    });
  }
  let newest = changed ? ms.length - 1 : -1;
  while (newest >= 0 && ms[newest].role !== "summary") newest--;
  if (newest < 0) return ms;
  const m = ms[newest] as SummaryMessage;
  const after = ms.slice(newest + 1).filter((x) => x.role === "assistant").length;
  if (m.marker?.after !== after) ms[newest] = summaryMessage(m.content, { ...m.marker, after });
  return ms;
}

/** The marker of an aged summary written in place of `old`: aged once more than it was, no floor (its text is new). */
export function agedMarker(old: Message): SummaryMarker {
  const aged = old.role === "summary" ? ((old as SummaryMessage).marker?.aged ?? 0) : 0;
  return { aged: aged + 1 };
}
