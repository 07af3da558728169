// The bytes one message adds to a model request, for the byte budget (max_request_bytes, L1's
// byte form): a message read from a file or a wire conversation and not changed since counts as
// its source as read, in JSON (its images and files by their base64 text, which is what a
// provider's size limit refuses); a message the engine wrote or changed (a summary, a cleared
// tool result, arguments cleared) counts as its text and its calls in JSON. Counted once per
// message, when it joins a store; the store keeps the counts and their total (store.ts).
import type { Json } from "./json.ts";
import type { Message } from "./message.ts";

/** The UTF-8 bytes of a value's JSON text. */
export function jsonBytes(v: Json | undefined): number {
  return v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v), "utf8");
}

/**
 * The bytes `m` adds to a request: its source (the blocks it came from, else the source message)
 * when it is as read, else its content and its tool calls; a changed message (cleared, a summary)
 * never counts what it replaced.
 */
export function messageBytes(m: Message): number {
  const changed = (m.role === "tool" || m.role === "assistant") && m.clearedFrom !== undefined;
  if (m.source !== undefined && !changed) return jsonBytes(m.source.blocks ?? m.source.raw);
  const calls =
    m.role === "assistant" && m.toolCalls.length > 0
      ? m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }))
      : undefined;
  return jsonBytes(m.content) + (calls === undefined ? 0 : jsonBytes(calls));
}
