// A JSON scanner that remembers where each object and array came from in the text, so that the
// writer can copy untouched messages byte for byte instead of re-serializing them (which rounds
// big integers, respells 1.50 and 1E3, unescapes "\u00e9" and re-indents). It is iterative (an
// explicit stack), so nesting depth is bounded by memory, not by the call stack. Numbers become
// JavaScript numbers in the parsed value, but that value is only read for shapes and strings:
// every byte written for an untouched value, and every tool input's text, comes from the source.
import type { Json, JsonObject } from "../model/json.ts";

/** Where a value lies in the text: [start, end) in UTF-16 code units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The span of every object and array of a parsed text, keyed by the parsed object itself. */
export type SpanMap = Map<object, Span>;

/** Malformed JSON at `offset` of the text. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    what: string,
  ) {
    super(what);
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// characters a string holds as they are: not a quote, a backslash or a control character
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings, so they end a plain run
const PLAIN = /[^"\\\u0000-\u001f]*/y;

/** Index of the first non-whitespace character (JSON whitespace: space, tab, LF, CR) at or after i. */
export function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

function describeAt(text: string, i: number): string {
  return i >= text.length ? "the text ends" : `unexpected ${JSON.stringify(text[i])}`;
}

/** Index one past the closing quote of the string starting at `i` (a quote). */
export function stringEnd(text: string, i: number): { end: number; escaped: boolean } {
  let escaped = false;
  for (let j = i + 1; ; j++) {
    // skip the plain characters in one regex step (much faster than a loop over them)
    PLAIN.lastIndex = j;
    PLAIN.test(text);
    j = PLAIN.lastIndex;
    const c = text.charCodeAt(j);
    if (c === 34) return { end: j + 1, escaped };
    if (c === 92) {
      escaped = true;
      j++;
    } else if (c < 0x20 || Number.isNaN(c)) {
      throw new JsonSyntaxError(
        j,
        Number.isNaN(c) ? "the text ends inside a string" : "a control character inside a string must be escaped",
      );
    }
  }
}

function readString(text: string, i: number): { value: string; end: number } {
  const { end, escaped } = stringEnd(text, i);
  if (!escaped) return { value: text.slice(i + 1, end - 1), end };
  try {
    // the native parser checks and decodes the escapes of this one string
    return { value: JSON.parse(text.slice(i, end)) as string, end };
  } catch {
    throw new JsonSyntaxError(i, "a bad escape in a string");
  }
}

function setMember(obj: JsonObject, key: string, v: Json): void {
  // as JSON.parse does: "__proto__" is an ordinary own key, never the prototype
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
  else obj[key] = v;
}

type Frame =
  | { readonly kind: "array"; readonly value: Json[]; readonly start: number }
  | { readonly kind: "object"; readonly value: JsonObject; readonly start: number; key: string };

function readKey(text: string, i: number, frame: Extract<Frame, { kind: "object" }>): number {
  if (text.charCodeAt(i) !== 34) throw new JsonSyntaxError(i, `${describeAt(text, i)}, expected a quoted key`);
  const k = readString(text, i);
  const j = skipWs(text, k.end);
  if (text.charCodeAt(j) !== 58) throw new JsonSyntaxError(j, `${describeAt(text, j)}, expected ":"`);
  frame.key = k.value;
  return j + 1;
}

/**
 * Parses one JSON value starting at `start` (whitespace before it is skipped), recording the span
 * of every object and array in `spans`; returns the value, where it starts and one past its end.
 */
export function parseValueAt(text: string, start: number, spans: SpanMap): { value: Json; start: number; end: number } {
  const stack: Frame[] = [];
  let i = skipWs(text, start);
  const first = i;
  for (;;) {
    // read one value at i (or open a container and go on with its first element)
    i = skipWs(text, i);
    let value: Json;
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) {
      const at = i;
      i = skipWs(text, i + 1);
      if (c === 123) {
        const obj: JsonObject = {};
        if (text.charCodeAt(i) === 125) {
          i++;
          spans.set(obj, { start: at, end: i });
          value = obj;
        } else {
          const frame: Frame = { kind: "object", value: obj, start: at, key: "" };
          i = readKey(text, i, frame);
          stack.push(frame);
          continue;
        }
      } else {
        const arr: Json[] = [];
        if (text.charCodeAt(i) === 93) {
          i++;
          spans.set(arr, { start: at, end: i });
          value = arr;
        } else {
          stack.push({ kind: "array", value: arr, start: at });
          continue;
        }
      }
    } else if (c === 34) {
      const s = readString(text, i);
      value = s.value;
      i = s.end;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) throw new JsonSyntaxError(i, "a malformed number");
      value = Number(m[0]);
      i += m[0].length;
    } else if (text.startsWith("true", i)) {
      value = true;
      i += 4;
    } else if (text.startsWith("false", i)) {
      value = false;
      i += 5;
    } else if (text.startsWith("null", i)) {
      value = null;
      i += 4;
    } else throw new JsonSyntaxError(i, `${describeAt(text, i)}, expected a value`);
    // hand the value to the enclosing containers, closing those that end here
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return { value, start: first, end: i };
      if (top.kind === "array") top.value.push(value);
      else setMember(top.value, top.key, value);
      i = skipWs(text, i);
      const d = text.charCodeAt(i);
      if (d === 44) {
        i = skipWs(text, i + 1);
        if (top.kind === "object") i = readKey(text, i, top);
        break;
      }
      if (d !== (top.kind === "array" ? 93 : 125)) {
        throw new JsonSyntaxError(i, `${describeAt(text, i)}, expected "," or "${top.kind === "array" ? "]" : "}"}"`);
      }
      i++;
      stack.pop();
      spans.set(top.value, { start: top.start, end: i });
      value = top.value;
    }
  }
}

/** Parses a whole text holding one JSON value (whitespace around it allowed), like JSON.parse. */
export function parseJsonText(text: string, spans: SpanMap): { value: Json; start: number; end: number } {
  const r = parseValueAt(text, 0, spans);
  const after = skipWs(text, r.end);
  if (after < text.length) throw new JsonSyntaxError(after, `${describeAt(text, after)} after the JSON value`);
  return r;
}

/** The JSON text of span [start, end) without the whitespace between tokens (strings and numbers as written). */
export function compactJsonText(text: string, start: number, end: number): string {
  let out = "";
  let from = start;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i).end - 1;
    else if (c === 32 || c === 10 || c === 13 || c === 9) {
      out += text.slice(from, i);
      from = skipWs(text, i);
      i = from - 1;
    }
  }
  return out + text.slice(from, end);
}

/** 1-based line and column of an offset, for error messages. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
