// The calls whose arguments the clearing tier replaced (clear_inputs, L13): what every writer
// needs to give back a cleared call's item with only its arguments (or input) replaced.
import type { Message } from "../model/message.ts";

/** The calls of `m` whose arguments differ from the message as read: call id -> the arguments now (empty when none). */
export function clearedCallArguments(m: Message): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (m.role !== "assistant" || m.clearedFrom === undefined) return out;
  const read = new Map(m.clearedFrom.toolCalls.map((c) => [c.id, c.arguments]));
  for (const c of m.toolCalls) if (read.get(c.id) !== c.arguments) out.set(c.id, c.arguments);
  return out;
}
