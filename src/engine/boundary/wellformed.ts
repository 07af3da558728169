// The well-formedness guard at the boundary: the kernel's proofs assume every tool result
// answers exactly one earlier call, so a conversation that breaks this is rejected here with
// a clear error instead of reaching the kernel.
import type { Message } from "../../model/message.ts";
import { assertMessages } from "../../model/message-shape.ts";
import { assertPairing, type PairingEvent, pairsWell } from "../../model/tool-pairing.ts";

/** How a message is named in errors: its index in the input file when known. */
export function messageLabel(messages: readonly Message[], i: number): string {
  const src = messages[i].source;
  if (src === undefined) return `messages[${i}]`;
  return src.index < 0 ? "system" : `messages[${src.index}]`;
}

/**
 * Throws an InputError on a value that is not an array of well-shaped messages, a duplicate
 * tool call id, a tool result before its call, an orphan tool result, or two results for one call.
 */
export function assertWellFormed(messages: readonly Message[]): void {
  // the shape first: the pairing checks read toolCalls and toolCallId
  assertMessages(messages);
  if (pairsWell(messages)) return;
  // the first problem, worded with the messages' labels (a duplicate id anywhere is reported first)
  const events: PairingEvent[] = [];
  messages.forEach((m, i) => {
    if (m.role === "assistant")
      for (const c of m.toolCalls) events.push({ kind: "call", id: c.id, path: messageLabel(messages, i) });
    if (m.role === "tool") events.push({ kind: "result", id: m.toolCallId, path: messageLabel(messages, i) });
  });
  assertPairing(events);
}
