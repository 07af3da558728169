// The well-formedness guard at the boundary: the kernel's proofs assume every tool result
// answers exactly one earlier call, so a conversation that breaks this is rejected here with
// a clear error instead of reaching the kernel.
import { InputError } from "../../model/errors.ts";
import type { Message } from "../../model/message.ts";
import { assertMessages } from "../../model/message-shape.ts";

/** How a message is named in errors: its index in the input file when known. */
export function messageLabel(messages: readonly Message[], i: number): string {
  const src = messages[i].source;
  if (src === undefined) return `messages[${i}]`;
  return src.index < 0 ? "system" : `messages[${src.index}]`;
}

/**
 * The verdict of the pairing checks below in one pass over the messages with one id table: a call
 * is accepted only if no earlier call has its id, a tool result only if an earlier call has its
 * id and no result yet. Any conversation the two passes reject fails one of these, and back.
 */
function pairsWell(messages: readonly Message[]): boolean {
  const answered = new Map<string, boolean>(); // call id -> has its result been seen
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "assistant") {
      for (const c of m.toolCalls) {
        const size = answered.size;
        answered.set(c.id, false);
        if (answered.size === size) return false;
      }
    } else if (m.role === "tool") {
      if (answered.get(m.toolCallId) !== false) return false;
      answered.set(m.toolCallId, true);
    }
  }
  return true;
}

/**
 * Throws an InputError on a value that is not an array of well-shaped messages, a duplicate
 * tool call id, a tool result before its call, an orphan tool result, or two results for one call.
 */
export function assertWellFormed(messages: readonly Message[]): void {
  // the shape first: the pairing checks below read toolCalls and toolCallId
  assertMessages(messages);
  if (pairsWell(messages)) return;
  // the two passes below find and word the first problem (a duplicate id anywhere is reported first)
  const callAt = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    for (const c of m.toolCalls) {
      const first = callAt.get(c.id);
      if (first !== undefined) {
        throw new InputError(
          messageLabel(messages, i),
          `duplicate tool call id "${c.id}" (already used by ${messageLabel(messages, first)})`,
        );
      }
      callAt.set(c.id, i);
    }
  });
  const answeredAt = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.role !== "tool") return;
    const call = callAt.get(m.toolCallId);
    if (call === undefined) {
      throw new InputError(messageLabel(messages, i), `orphan tool result: no tool call has id "${m.toolCallId}"`);
    }
    if (call > i) {
      throw new InputError(
        messageLabel(messages, i),
        `tool result for "${m.toolCallId}" comes before its call at ${messageLabel(messages, call)}`,
      );
    }
    const prev = answeredAt.get(m.toolCallId);
    if (prev !== undefined) {
      throw new InputError(
        messageLabel(messages, i),
        `second tool result for "${m.toolCallId}" (first at ${messageLabel(messages, prev)})`,
      );
    }
    answeredAt.set(m.toolCallId, i);
  });
}
