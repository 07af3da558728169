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

/**
 * The UTF-8 bytes of a value's JSON text. Plain JSON data (what a wire message read from a file
 * or an SDK holds) is counted without building the text (plainJsonBytes); anything else is
 * counted from JSON.stringify, so the count is that text's whatever the value holds.
 */
export function jsonBytes(v: Json | undefined): number {
  if (typeof v === "string") return jsonStringBytes(v);
  if (v === undefined) return 0;
  const plain = plainJsonBytes(v, 1);
  return plain >= 0 ? plain : Buffer.byteLength(JSON.stringify(v), "utf8");
}

/**
 * The UTF-8 bytes of JSON.stringify(v) (no spacing) for plain JSON data, counted without building
 * the text: strings by jsonStringBytes, finite numbers by their text, true, false and null, and
 * arrays and objects whose prototype is the plain one (or none, for an object) and that hold no
 * `toJSON`: brackets, the commas between entries, each key's string and colon. Inside an object
 * a value JSON.stringify leaves out (undefined, a function, a symbol) counts nothing, inside an
 * array it counts as null, as JSON.stringify writes them. -1 for anything else (a bigint, a class
 * instance, a toJSON method, more than MAX_PLAIN_DEPTH levels): the caller then asks
 * JSON.stringify itself, which gives the same text or the same error as before.
 */
function plainJsonBytes(v: unknown, depth: number): number {
  switch (typeof v) {
    case "string":
      return jsonStringBytes(v);
    case "number":
      // String(x) is JSON.stringify's text of a finite number (-0 included: "0"); others are null
      return Number.isFinite(v) ? String(v).length : 4;
    case "boolean":
      return v ? 4 : 5;
    case "object":
      break;
    default:
      return -1;
  }
  if (v === null) return 4;
  if (depth > MAX_PLAIN_DEPTH || "toJSON" in v) return -1;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return -1;
    let n = v.length === 0 ? 2 : v.length + 1; // brackets and the commas between entries
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const t = typeof x;
      // left out of an array's text as null
      const b = t === "undefined" || t === "function" || t === "symbol" ? 4 : plainJsonBytes(x, depth + 1);
      if (b < 0) return -1;
      n += b;
    }
    return n;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return -1;
  let n = 2; // braces
  let entries = 0;
  for (const k of Object.keys(v)) {
    const x: unknown = (v as Record<string, unknown>)[k];
    const t = typeof x;
    // left out of an object's text with its key
    if (t === "undefined" || t === "function" || t === "symbol") continue;
    const b = plainJsonBytes(x, depth + 1);
    if (b < 0) return -1;
    n += jsonStringBytes(k) + 1 + b; // key, colon, value
    entries++;
  }
  return entries === 0 ? n : n + entries - 1;
}

/** Most levels plainJsonBytes walks (it recurses): a value deeper is counted by JSON.stringify. */
const MAX_PLAIN_DEPTH = 256;

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
