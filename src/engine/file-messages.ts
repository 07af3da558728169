// The file's own messages. An Anthropic message holding tool results reads as several messages
// (one per tool result, then the rest as a user message), and its top-level system as one more;
// users count the messages of their file. These are mappings between the two counts, never
// decisions: the kernel decides on the messages it is given.
import type { Message } from "./message.ts";

/** True when `b` is the next part of the file message `a` belongs to (the same Anthropic message). */
export function sameFileMessage(a: Message, b: Message): boolean {
  const s = a.source;
  const t = b.source;
  return (
    s !== undefined &&
    t !== undefined &&
    s.format === "anthropic" &&
    t.format === "anthropic" &&
    s.index === t.index &&
    s.raw === t.raw
  );
}

/** An Anthropic top-level system: part of the request, not one of its messages. */
function isTopLevelSystem(m: Message): boolean {
  return m.source?.format === "anthropic" && m.source.index === -1;
}

/**
 * How many of the last messages make up the file's last `window` messages: the retention window
 * in the messages the kernel sees. O(that many). A file with fewer messages lies wholly in the
 * window; then the window stays at least `window` (the kernel's window is >= 1, even when empty).
 */
export function internalWindow(messages: readonly Message[], window: number): number {
  let k = messages.length;
  for (let files = 0; k > 0 && files < window; files++) {
    k--;
    while (k > 0 && sameFileMessage(messages[k - 1], messages[k])) k--;
  }
  return k === 0 ? Math.max(messages.length, window) : messages.length - k;
}

/** For each message, the 0-based position of its file message (a top-level system: -1); and how many file messages there are. */
export function fileIndexes(messages: readonly Message[]): { readonly of: Int32Array; readonly count: number } {
  const of = new Int32Array(messages.length);
  let count = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (isTopLevelSystem(m)) of[i] = -1;
    else if (i > 0 && sameFileMessage(messages[i - 1], m)) of[i] = of[i - 1];
    else of[i] = count++;
  }
  return { of, count };
}

/** Number of file messages (an Anthropic message is one however many blocks it holds). */
export function fileMessageCount(messages: readonly Message[]): number {
  return fileIndexes(messages).count;
}

/** min(limit, fileMessageCount(messages)), counted from the end in O(the messages that covers). */
export function fileMessagesUpTo(messages: readonly Message[], limit: number): number {
  let count = 0;
  // the same test as fileIndexes, message by message from the end, stopping at `limit`
  for (let i = messages.length - 1; i >= 0 && count < limit; i--) {
    const m = messages[i];
    if (!isTopLevelSystem(m) && !(i > 0 && sameFileMessage(messages[i - 1], m))) count++;
  }
  return count;
}
