// Writing a conversation file back in the input's own text: every message written as read is
// copied from its source bytes, the text between two messages that stay neighbours is copied too,
// and only new messages (summaries) and new separators are written fresh, in the file's own style
// (indentation or none, spacing after ":" and ",", line endings). A file message some of whose
// content blocks were summarized away is its own text with only those blocks' bytes cut out, and
// one with a cleared tool result (L13) its own text with only that content value's bytes replaced.
import type { Json } from "../model/json.ts";
import { parseValueAt, type Span, type SpanMap, skipWs, stringEnd } from "./json-text.ts";
import type { WireItem } from "./wire-item.ts";
import { wireMessage } from "./wire-item.ts";

/** Where a file's messages lie in its text, for writing it back byte for byte. */
export interface FileLayout {
  /** the input text without its byte order mark */
  readonly text: string;
  /** the input started with a UTF-8 byte order mark (written back) */
  readonly bom: boolean;
  readonly spans: SpanMap;
  /** the container's items in order: the messages array's elements, or JSONL's lines (a system line included) */
  readonly items: readonly Json[];
  /** the items lie within text[open, close) */
  readonly open: number;
  readonly close: number;
  readonly jsonl: boolean;
  /** JSONL: the first line is Anthropic's {"system": ...} line */
  readonly systemLine: boolean;
  /** the top-level system as read (Anthropic: the body's `system` or the system line's) */
  readonly system?: Json;
}

/** How fresh JSON is spelled to look like the rest of the file. */
export interface TextStyle {
  /** one member per line */
  readonly pretty: boolean;
  /** one level of indentation (pretty) */
  readonly indent: string;
  /** between a key and its value, ":" included */
  readonly colon: string;
  /** between members on one line, "," included (compact) */
  readonly comma: string;
  /** after "{" and before "}" (compact) */
  readonly pad: string;
  readonly eol: string;
}

const COMPACT: Omit<TextStyle, "eol"> = { pretty: false, indent: "", colon: ":", comma: ",", pad: "" };

function wsAt(text: string, i: number): string {
  return text.slice(i, skipWs(text, i));
}

function lineEnding(text: string): string {
  const nl = text.indexOf("\n");
  return nl > 0 && text[nl - 1] === "\r" ? "\r\n" : "\n";
}

/** The style of the object spanning `s` (the first message), whose line is indented by `base`. */
export function detectStyle(text: string, s: Span, base: string): TextStyle {
  const eol = lineEnding(text);
  let i = s.start + 1;
  const w1 = wsAt(text, i);
  i += w1.length;
  if (text[i] !== '"') return { ...COMPACT, eol };
  i = stringEnd(text, i).end;
  const w2 = wsAt(text, i);
  i += w2.length + 1; // the colon
  const w3 = wsAt(text, i);
  const end = parseValueAt(text, i, new Map()).end;
  const w4 = wsAt(text, end);
  const w5 = text[end + w4.length] === "," ? wsAt(text, end + w4.length + 1) : "";
  const colon = `${w2}:${w3}`.includes("\n") ? ": " : `${w2}:${w3}`;
  if (!w1.includes("\n"))
    return { pretty: false, indent: "", colon, comma: w5.includes("\n") ? "," : `${w4},${w5}`, pad: w1, eol };
  const member = w1.slice(w1.lastIndexOf("\n") + 1);
  const indent = member.startsWith(base) && member.length > base.length ? member.slice(base.length) : "  ";
  return { pretty: true, indent, colon, comma: ",", pad: "", eol };
}

/** Spells a new value in `style`; `base` is the indentation of the line it starts on. */
export function formatJson(v: Json, style: TextStyle, base: string): string {
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  const entries: [string | undefined, Json][] = Array.isArray(v) ? v.map((x) => [undefined, x]) : Object.entries(v);
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return open + close;
  const inner = base + style.indent;
  const one = ([k, x]: [string | undefined, Json]) =>
    (k === undefined ? "" : JSON.stringify(k) + style.colon) + formatJson(x, style, inner);
  if (style.pretty)
    return `${open}${style.eol}${inner}${entries.map(one).join(`,${style.eol}${inner}`)}${style.eol}${base}${close}`;
  const pad = Array.isArray(v) ? "" : style.pad;
  return open + pad + entries.map(one).join(style.comma) + pad + close;
}

/** One output item: a source item by its index, or text written fresh. */
type Piece = { readonly kind: "source"; readonly index: number } | { readonly kind: "text"; readonly text: string };

/**
 * The text of a sequence (array elements or JSONL lines) within text[open, close) after edits:
 * source items are copied, and so is the text between two source items that were neighbours;
 * other separators are the one that followed (or preceded) a neighbouring source item, else
 * `styleSep`. Undefined when an item has no span (not read from this text).
 */
function writeSequence(
  text: string,
  spans: SpanMap,
  items: readonly Json[],
  out: readonly Piece[],
  open: number,
  close: number,
  styleSep: string,
): string | undefined {
  const n = items.length;
  const span = (k: number): Span | undefined => {
    const v = items[k];
    return typeof v === "object" && v !== null ? spans.get(v) : undefined;
  };
  const all: Span[] = [];
  for (let k = 0; k < n; k++) {
    const s = span(k);
    if (s === undefined) return undefined;
    all.push(s);
  }
  if (n === 0) return out.length === 0 ? text.slice(open, close) : undefined;
  const gap = (k: number) => text.slice(all[k].end, all[k + 1].start); // between items k and k+1
  const parts: string[] = [text.slice(open, all[0].start)];
  out.forEach((p, k) => {
    if (k > 0) {
      const a = out[k - 1];
      if (a.kind === "source" && a.index + 1 < n) parts.push(gap(a.index));
      else if (p.kind === "source" && p.index >= 1) parts.push(gap(p.index - 1));
      else parts.push(styleSep);
    }
    parts.push(p.kind === "source" ? text.slice(all[p.index].start, all[p.index].end) : p.text);
  });
  parts.push(text.slice(all[n - 1].end, close));
  return parts.join("");
}

// The text between the first two items of a JSON array (its separator), if it has two.
function firstGap(layout: FileLayout): string | undefined {
  const [a, b] = layout.items;
  const sa = typeof a === "object" && a !== null ? layout.spans.get(a) : undefined;
  const sb = typeof b === "object" && b !== null ? layout.spans.get(b) : undefined;
  return sa !== undefined && sb !== undefined ? layout.text.slice(sa.end, sb.start) : undefined;
}

/**
 * Indentation of the line where `at` is, if only spaces and tabs precede it there. It looks back
 * only over those: on a one-line file a scan back to the line's start would read the whole file
 * for every value written in place (quadratic).
 */
function lineIndent(text: string, at: number): string {
  let from = at;
  for (let c = text.charCodeAt(from - 1); c === 32 || c === 9; c = text.charCodeAt(from - 1)) from--;
  return from === 0 || text.charCodeAt(from - 1) === 10 ? text.slice(from, at) : "";
}

// A file message with only some of its content blocks: its own text with `content` cut down.
function partialText(layout: FileLayout, item: Extract<WireItem, { kind: "partial" }>): string | undefined {
  const { text, spans } = layout;
  const msg = spans.get(item.raw);
  const content = item.raw.content;
  const cs = Array.isArray(content) ? spans.get(content) : undefined;
  if (msg === undefined || !Array.isArray(content) || cs === undefined) return undefined;
  const index = new Map(content.map((b, k) => [b, k]));
  const out: Piece[] = [];
  for (const b of item.blocks) {
    const k = index.get(b);
    if (k === undefined) return undefined;
    out.push({ kind: "source", index: k });
  }
  const styleSep =
    content.length >= 2
      ? text.slice(spans.get(content[0] as object)?.end ?? 0, spans.get(content[1] as object)?.start ?? 0)
      : ",";
  const inner = writeSequence(text, spans, content, out, cs.start + 1, cs.end - 1, styleSep);
  return inner === undefined
    ? undefined
    : text.slice(msg.start, cs.start + 1) + inner + text.slice(cs.end - 1, msg.end);
}

/** The span of `key`'s value among the members of the object whose text is text[s.start, s.end). */
function memberValueSpan(text: string, s: Span, key: string): Span | undefined {
  let i = skipWs(text, s.start + 1);
  while (i < s.end && text.charCodeAt(i) === 34) {
    const k = stringEnd(text, i).end;
    const name: unknown = JSON.parse(text.slice(i, k));
    const v = parseValueAt(text, skipWs(text, skipWs(text, k) + 1), new Map());
    if (name === key) return { start: v.start, end: v.end };
    i = skipWs(text, v.end);
    if (text.charCodeAt(i) === 44) i = skipWs(text, i + 1);
  }
  return undefined;
}

// A file message with only some fields given new values: its own text with only those values' bytes replaced.
function editedText(
  layout: FileLayout,
  item: Extract<WireItem, { kind: "edited" }>,
  style: TextStyle,
): string | undefined {
  const { text, spans } = layout;
  const msg = spans.get(item.raw);
  if (msg === undefined) return undefined;
  const cuts: { span: Span; value: Json }[] = [];
  for (const e of item.edits) {
    const holder = spans.get(e.holder);
    const span = holder === undefined ? undefined : memberValueSpan(text, holder, e.key);
    if (span === undefined || span.start < msg.start || span.end > msg.end) return undefined;
    cuts.push({ span, value: e.value });
  }
  cuts.sort((a, b) => a.span.start - b.span.start);
  let out = "";
  let at = msg.start;
  for (const c of cuts) {
    if (c.span.start < at) return undefined;
    out += text.slice(at, c.span.start) + formatJson(c.value, style, lineIndent(text, c.span.start));
    at = c.span.end;
  }
  return out + text.slice(at, msg.end);
}

/**
 * The file's text with its messages replaced by `items` (and a JSONL system line kept), or
 * undefined if some item cannot be placed in this layout (the caller then writes the file fresh).
 */
export function writeWithLayout(layout: FileLayout, items: readonly WireItem[]): string | undefined {
  const { text, spans } = layout;
  const first = layout.items[layout.systemLine ? 1 : 0] ?? layout.items[0];
  const firstSpan = typeof first === "object" && first !== null ? spans.get(first) : undefined;
  const base = layout.jsonl || firstSpan === undefined ? "" : lineIndent(text, firstSpan.start);
  const style = firstSpan === undefined ? { ...COMPACT, eol: lineEnding(text) } : detectStyle(text, firstSpan, base);
  const indexOf = new Map<Json, number>(layout.items.map((v, k) => [v, k]));
  const fresh = (item: WireItem): Piece => ({ kind: "text", text: formatJson(wireMessage(item), style, base) });
  const out: Piece[] = layout.systemLine ? [{ kind: "source", index: 0 }] : [];
  for (const item of items) {
    if (item.kind === "source") {
      const k = indexOf.get(item.raw);
      out.push(k === undefined ? fresh(item) : { kind: "source", index: k });
    } else if (item.kind === "partial") {
      const t = partialText(layout, item);
      out.push(t === undefined ? fresh(item) : { kind: "text", text: t });
    } else if (item.kind === "edited") {
      const t = editedText(layout, item, style);
      out.push(t === undefined ? fresh(item) : { kind: "text", text: t });
    } else out.push(fresh(item));
  }
  // between two items where no neighbour's separator applies: the file's first one
  const styleSep = layout.jsonl
    ? style.eol
    : (firstGap(layout) ?? (style.pretty ? `,${style.eol}${base}` : style.comma));
  const body = writeSequence(text, spans, layout.items, out, layout.open, layout.close, styleSep);
  if (body === undefined) return undefined;
  return (layout.bom ? "\uFEFF" : "") + text.slice(0, layout.open) + body + text.slice(layout.close);
}
