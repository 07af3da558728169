// The bytes one message adds to a model request, for the byte budget (max_request_bytes, L1's
// byte form): a message read from a file or a wire conversation and not changed since counts as
// its source as read, in JSON (its images and files by their base64 text, which is what a
// provider's size limit refuses); a message the engine wrote or changed (a summary, a cleared
// tool result, arguments cleared) counts as its text, its calls and its call id in JSON. Each
// count includes the message's framing in the request (the separator, and for a message that is
// not its whole source message, up to FRAME_BYTES of role and block keys), so that the sum over
// a conversation is not below the JSON of its messages as written. A message read with no source
// (the AI SDK's) counts its parts that are not text by mediaBytes (partsBytes, at reading). Counted once per message,
// when it joins a store; the store keeps the counts and their total (store.ts).
import type { Json } from "./json.ts";
import type { Message } from "./message.ts";

/** The most a message's framing adds in any format the adapters write: its role, its block's type and keys, a call id's key. */
export const FRAME_BYTES = 96;

/** The UTF-8 bytes of a value's JSON text. */
export function jsonBytes(v: Json | undefined): number {
  if (typeof v === "string") return jsonStringBytes(v);
  return v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v), "utf8");
}

// the code units JSON.stringify escapes, or whose UTF-8 form Buffer.byteLength does not give as JSON
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes exactly these code units
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/g;

/**
 * The UTF-8 bytes of JSON.stringify(s), without building it: the string's own UTF-8 bytes and its
 * quotes, plus what escaping adds (`"` and `\` one byte each; \b \t \n \f \r one; any other
 * control character five, as \u00XX; a lone surrogate, which UTF-8 writes in three bytes, three
 * more, as \uXXXX). A message's text is the most of its bytes: building its JSON to count it
 * cost more than all the rest of a store's load.
 */
export function jsonStringBytes(s: string): number {
  let n = Buffer.byteLength(s, "utf8") + 2;
  SPECIAL.lastIndex = 0;
  while (SPECIAL.test(s)) {
    const i = SPECIAL.lastIndex - 1;
    const c = s.charCodeAt(i);
    if (c < 0x20) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    else if (c === 34 || c === 92) n += 1;
    else if (c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) SPECIAL.lastIndex = i + 2;
    else n += 3;
  }
  return n;
}

/** The base64 text length of `n` bytes of binary data (how a request carries it). */
const base64Length = (n: number) => Math.ceil(n / 3) * 4;

/**
 * The bytes of content parts in a request, for a reader whose messages carry no source (the AI
 * SDK's): each part's JSON text in UTF-8, its binary data (a Uint8Array, an ArrayBuffer) as the
 * base64 text a provider package sends, a URL as its text. A string (base64, a data: URL) counts
 * as it is.
 */
export function partsBytes(parts: readonly unknown[]): number {
  let binary = 0;
  const replacer = (_key: string, v: unknown): unknown => {
    if (v instanceof Uint8Array || ArrayBuffer.isView(v)) {
      binary += base64Length(v.byteLength);
      return "";
    }
    if (v instanceof ArrayBuffer) {
      binary += base64Length(v.byteLength);
      return "";
    }
    return v;
  };
  let n = 0;
  for (const p of parts) n += Buffer.byteLength(JSON.stringify(p, replacer) ?? "null", "utf8") + 1;
  return n + binary;
}

/** `{ mediaBytes: n }` for a message, or nothing when n is 0. */
export function mediaBytesField(n: number): { mediaBytes?: number } {
  return n > 0 ? { mediaBytes: n } : {};
}

/**
 * The bytes `m` adds to a request: its source message as read (plus a separator) when it is its
 * whole source and unchanged; the source blocks it came from plus their framing when it is part
 * of one (an Anthropic message split into tool results); else its content, its calls and its call
 * id plus their framing. A changed message (cleared, a summary) never counts what it replaced.
 */
export function messageBytes(m: Message): number {
  const changed = (m.role === "tool" || m.role === "assistant") && m.clearedFrom !== undefined;
  if (m.source !== undefined && !changed) {
    const s = m.source;
    return s.parts <= 1 ? jsonBytes(s.raw) + 1 : jsonBytes(s.blocks ?? s.raw) + FRAME_BYTES;
  }
  let n = jsonBytes(m.content) + FRAME_BYTES + (changed ? 0 : (m.mediaBytes ?? 0));
  if (m.role === "tool") n += jsonBytes(m.toolCallId);
  if (m.role === "assistant")
    for (const c of m.toolCalls) n += jsonBytes(c.id) + jsonBytes(c.name) + jsonBytes(c.arguments) + FRAME_BYTES;
  return n;
}
