// Conversation files: JSON (an array of messages, or a request body holding them under
// `messages`, or under `input` for the Responses API) or JSONL (one message per line), in
// OpenAI chat, Anthropic, AI SDK or Responses shape. What a run did not change is written back
// as it was read, byte for byte (file-layout.ts).
import type { ModelMessage } from "ai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { InputError } from "../model/errors.ts";
import type { ItemMap } from "../model/item-map.ts";
import { describeJson, isJsonObject, type Json, type JsonObject } from "../model/json.ts";
import type { Message } from "../model/message.ts";
import { readModelMessages, writeModelMessages } from "./ai-sdk.ts";
import { planAnthropicOutput, readAnthropicMessages, writeAnthropicMessages } from "./anthropic.ts";
import { detectFormat, FORMAT_NAMES, type FormatName } from "./detect.ts";
import { type FileLayout, writeWithLayout } from "./file-layout.ts";
import {
  compactJsonText,
  JsonSyntaxError,
  lineColumn,
  parseJsonText,
  parseValueAt,
  type SpanMap,
  skipWs,
} from "./json-text.ts";
import { type FormatOptions, planOpenAIOutput, readOpenAIMessages, writeOpenAIMessages } from "./openai.ts";
import { readResponsesItems, writeResponsesItems } from "./responses.ts";
import type { FieldEdit, WireItem } from "./wire-item.ts";

/** How the messages were laid out in the file. */
export type ContainerName = "json-array" | "json-object" | "jsonl";

/** A parsed conversation file: messages plus what is needed to write it back the same way. */
export interface ConversationFile {
  readonly format: FormatName;
  readonly container: ContainerName;
  readonly messages: readonly Message[];
  /** the top-level object of a json-object file (its other fields are written back as they were) */
  readonly envelope?: JsonObject;
  /** the envelope's field holding the items: `messages`, or `input` for the Responses API */
  readonly key?: "messages" | "input";
  /** the format's own items, when they are not one per message (AI SDK, Responses): pass to compactMessages */
  readonly items?: ItemMap;
  /** AI SDK and Responses files: writes messages back as the file's items (pass to writeConversationFile) */
  readonly writeItems?: ItemWriter;
  /** the model the file names (request bodies carry one): the agent's model */
  readonly model?: string;
  /** where each message lies in the text read */
  readonly layout?: FileLayout;
}

/** Options for reading a conversation file. */
export interface ReadOptions extends FormatOptions {
  /** skip auto-detection */
  readonly format?: FormatName;
}

/** Whether the first non-blank line of `text` holds one complete JSON value and nothing else. */
function firstLineIsValue(text: string): boolean {
  const at = skipWs(text, 0);
  const lineStart = text.lastIndexOf("\n", at) + 1;
  const nl = text.indexOf("\n", at);
  const end = nl < 0 ? text.length : nl;
  try {
    // parsed on the line alone, so a value that goes on past it fails here
    const line = text.slice(lineStart, end);
    const r = parseValueAt(line, 0, new Map());
    return skipWs(line, r.end) === line.length;
  } catch {
    return false;
  }
}

// JSONL: one value per non-blank line, read with its span in the whole text
function parseJsonl(text: string, spans: SpanMap): Json[] {
  const lines: Json[] = [];
  let at = 0;
  let k = 0;
  while (at < text.length) {
    k++;
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    if (text.slice(at, end).trim() !== "") {
      try {
        let r: ReturnType<typeof parseValueAt>;
        try {
          r = parseValueAt(text, at, spans);
        } catch (e) {
          // an error past this line's end: the value went on past it (a later line's error is not this line's)
          if (e instanceof JsonSyntaxError && e.offset > end) r = { value: null, start: at, end: e.offset };
          else throw e;
        }
        if (r.end > end)
          throw new JsonSyntaxError(end, "the value does not end on its line (JSONL holds one message per line)");
        if (skipWs(text, r.end) < end)
          throw new JsonSyntaxError(skipWs(text, r.end), "more after the JSON value on this line");
        lines.push(r.value);
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e;
        throw new InputError(`line ${k}`, `invalid JSON at column ${e.offset - at + 1}: ${e.message}`);
      }
    }
    at = end + 1;
  }
  return lines;
}

/**
 * Writes engine messages as the items of the AI SDK or Responses file they were read from: an
 * untouched item is the file's own object, one with parts summarized away the same object with
 * the parts left (the SDK types stay out of this module's declarations: a closure over the reading).
 */
export type ItemWriter = (messages: readonly Message[], summaryTag: string | undefined) => JsonObject[];

type Read = Pick<ConversationFile, "messages" | "items" | "writeItems">;

function readMessages(
  format: FormatName,
  items: Json[],
  system: Json | undefined,
  path: string,
  opts: FormatOptions,
): Read {
  switch (format) {
    case "anthropic":
      return { messages: readAnthropicMessages(items, system, path, opts) };
    case "openai":
      return { messages: readOpenAIMessages(items, path, opts) };
    case "ai-sdk": {
      // JSON from a file: the reader checks every field it reads
      const reading = readModelMessages(items as unknown as ModelMessage[], path, opts);
      const writeItems: ItemWriter = (ms, summaryTag) =>
        writeModelMessages(ms, reading, { summaryTag }) as unknown as JsonObject[];
      return { messages: reading.messages, items: reading.map, writeItems };
    }
    case "responses": {
      const reading = readResponsesItems(items as unknown as ResponseInputItem[], path, opts);
      const writeItems: ItemWriter = (ms, summaryTag) =>
        writeResponsesItems(ms, reading, { summaryTag }) as unknown as JsonObject[];
      return { messages: reading.messages, items: reading.map, writeItems };
    }
  }
}

/** Parses the text of a conversation file (JSON or JSONL, in any of the four formats; a leading BOM is kept for writing). */
export function readConversationFile(input: string, opts: ReadOptions = {}): ConversationFile {
  const bom = input.charCodeAt(0) === 0xfeff;
  const text = bom ? input.slice(1) : input;
  if (text.trim() === "") throw new InputError("", "input is empty: expected a JSON or JSONL conversation");
  const spans: SpanMap = new Map();
  // tool inputs keep their numbers as written: their arguments are their source text
  const sourceText = (v: JsonObject): string | undefined => {
    const s = spans.get(v);
    return s === undefined ? undefined : compactJsonText(text, s.start, s.end);
  };
  const o: ReadOptions = { ...opts, sourceText };
  let root: Json | undefined;
  let jsonError: JsonSyntaxError | undefined;
  try {
    root = parseJsonText(text, spans).value;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    jsonError = e;
  }
  const base = { text, bom, spans };
  if (root === undefined) {
    // JSONL only when the first non-blank line is a whole JSON value by itself; otherwise the
    // text is one JSON value spread over lines (pretty-printed), and its error is where the
    // whole-text parse stopped, by line and column
    if (!text.trim().includes("\n") || jsonError === undefined || !firstLineIsValue(text)) {
      const at = lineColumn(text, jsonError?.offset ?? 0);
      throw new InputError(
        "",
        `invalid JSON at line ${at.line}, column ${at.column}: ${jsonError?.message ?? "unparseable"}`,
      );
    }
    spans.clear();
    return fromJsonl(parseJsonl(text, spans), o, base);
  }
  if (Array.isArray(root)) {
    const format = detectFormat(root, false, FORMAT_NAMES, "items", opts.format);
    return {
      format,
      container: "json-array",
      ...readMessages(format, root, undefined, format === "responses" ? "input" : "messages", o),
      layout: arrayLayout(base, root),
    };
  }
  if (isJsonObject(root) && (root.messages !== undefined || root.input !== undefined)) {
    // a request body: the Responses API's `input`, or the `messages` of the others
    if (root.messages !== undefined && root.input !== undefined)
      throw new InputError("", `the body has both "messages" and "input": expected one conversation`);
    const key = root.input !== undefined ? "input" : "messages";
    const msgs = root[key];
    if (!Array.isArray(msgs))
      throw new InputError(
        key,
        `expected an array of ${key === "input" ? "items" : "messages"}, got ${describeJson(msgs)}`,
      );
    const allowed = FORMAT_NAMES.filter((f) => (key === "input") === (f === "responses"));
    if (opts.format !== undefined && !allowed.includes(opts.format))
      throw new InputError(key, `a body's "${key}" is not ${opts.format} (it holds ${allowed.join(" or ")})`);
    const format = detectFormat(msgs, root.system !== undefined, allowed, key, opts.format);
    const system = format === "anthropic" ? root.system : undefined;
    const model = typeof root.model === "string" ? root.model : undefined;
    return {
      format,
      container: "json-object",
      ...readMessages(format, msgs, system, key, o),
      envelope: root,
      key,
      ...(model ? { model } : {}),
      layout: { ...arrayLayout(base, msgs), ...(system !== undefined ? { system } : {}) },
    };
  }
  if (isJsonObject(root) && (root.role !== undefined || root.system !== undefined)) return fromJsonl([root], o, base);
  throw new InputError(
    "",
    `expected an array of messages, an object with "messages" (or "input"), or JSONL; got ${describeJson(root)}`,
  );
}

type LayoutBase = Pick<FileLayout, "text" | "bom" | "spans">;

function arrayLayout(base: LayoutBase, items: Json[]): FileLayout {
  const s = base.spans.get(items);
  // every array read from the text has a span
  const at = s ?? { start: 0, end: base.text.length };
  return { ...base, items, open: at.start + 1, close: at.end - 1, jsonl: false, systemLine: false };
}

function fromJsonl(lines: Json[], opts: ReadOptions, base: LayoutBase): ConversationFile {
  // An Anthropic JSONL may open with a {"system": ...} line standing for the top-level system.
  const first = lines[0];
  const systemLine = isJsonObject(first) && first.role === undefined && first.system !== undefined;
  const msgs = systemLine ? lines.slice(1) : lines;
  if (systemLine && opts.format !== undefined && opts.format !== "anthropic")
    throw new InputError(
      "line 1",
      `a {"system": ...} line is Anthropic JSONL, not ${opts.format}; use a system message`,
    );
  const format = detectFormat(msgs, systemLine, FORMAT_NAMES, "messages", opts.format);
  const system = systemLine && isJsonObject(first) ? first.system : undefined;
  const layout: FileLayout = {
    ...base,
    items: lines,
    open: 0,
    close: base.text.length,
    jsonl: true,
    systemLine,
    ...(system !== undefined ? { system } : {}),
  };
  return { format, container: "jsonl", ...readMessages(format, msgs, system, "messages", opts), layout };
}

/**
 * Options for writing a conversation file. The optional fields take `undefined` too, so that a
 * read file's fields (`envelope: file.envelope`, possibly undefined) can be passed on as they are
 * under `exactOptionalPropertyTypes`.
 */
export interface WriteOptions extends FormatOptions {
  readonly format: FormatName;
  readonly container: ContainerName;
  /** for json-object: the original top-level object, whose other fields are kept */
  readonly envelope?: JsonObject | undefined;
  /** for json-object: the envelope's field holding the items (default `messages`) */
  readonly key?: "messages" | "input" | undefined;
  /** for AI SDK and Responses files: the file's writer (readConversationFile's `writeItems`), so untouched items are given back */
  readonly writeItems?: ItemWriter | undefined;
  /** the text the messages were read from: what was not changed is written back byte for byte */
  readonly layout?: FileLayout | undefined;
}

/**
 * The text of a conversation file holding `messages`. With the layout of the file they were read
 * from, that file's text with only what changed written fresh (see file-layout.ts); without one
 * (or if the top-level system changed), a fresh text, 2-space indented, ending with a newline.
 */
export function writeConversationFile(messages: readonly Message[], opts: WriteOptions): string {
  const layout = opts.layout;
  if (layout !== undefined) {
    const kept = withLayout(messages, opts, layout);
    if (kept !== undefined) return kept;
  }
  return (layout?.bom ? "\uFEFF" : "") + writeFresh(messages, opts);
}

// The items of an AI SDK or Responses file, as the format's writer gives them (an untouched item is
// the input's own object, one with parts summarized away the same object's parts), or undefined
// for the other formats.
function itemOutput(messages: readonly Message[], opts: WriteOptions): JsonObject[] | undefined {
  if (opts.format !== "ai-sdk" && opts.format !== "responses") return undefined;
  if (opts.writeItems !== undefined) return opts.writeItems(messages, opts.summaryTag);
  // messages not read from a file (or its writer not passed): every item written fresh
  const o = { summaryTag: opts.summaryTag };
  const items =
    opts.format === "ai-sdk" ? writeModelMessages(messages, undefined, o) : writeResponsesItems(messages, undefined, o);
  return items as unknown as JsonObject[];
}

/**
 * The written items said in terms of the input: an input item itself (`source`), an input item
 * with only some of its content parts (`partial`: the same part objects), an input item with a
 * cleared output (`edited`), or a new one.
 */
function planByIdentity(input: readonly Json[], output: readonly JsonObject[]): WireItem[] {
  const items = new Set<Json>(input);
  const itemOfPart = new Map<Json, JsonObject>();
  const byCall = new Map<string, JsonObject>(); // a Responses tool call or output by its type and call id
  for (const it of input) {
    if (isJsonObject(it) && Array.isArray(it.content)) for (const part of it.content) itemOfPart.set(part, it);
    if (isJsonObject(it) && typeof it.type === "string" && typeof it.call_id === "string")
      byCall.set(callKey(it.type, it.call_id), it);
  }
  return output.map((o): WireItem => {
    if (items.has(o)) return { kind: "source", raw: o };
    const edited = editedItem(o, byCall, itemOfPart);
    if (edited !== undefined) return edited;
    const parts = o.content;
    const raw = Array.isArray(parts) && parts.length > 0 ? itemOfPart.get(parts[0]) : undefined;
    if (raw !== undefined && Array.isArray(parts) && parts.every((p) => itemOfPart.get(p) === raw))
      return { kind: "partial", raw, blocks: parts };
    return { kind: "fresh", value: o };
  });
}

function callKey(type: string, callId: string): string {
  return `${type} ${callId}`;
}

// The fields a clearing replaces (L13): a tool output's `output`, a function call's `arguments`
// and an AI SDK tool call's `input` (clear_inputs).
const CLEARED_FIELDS = new Set(["output", "arguments", "input"]);

/**
 * The one field, among those a clearing replaces, whose value differs between a and b, which
 * otherwise have the same keys in the same order and the same values (the same objects);
 * undefined when there is no such single field.
 */
function clearedField(a: JsonObject, b: JsonObject): string | undefined {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return undefined;
  const changed = ka.filter((k) => a[k] !== b[k]);
  return changed.length === 1 && CLEARED_FIELDS.has(changed[0]) ? changed[0] : undefined;
}

/** a and b have the same keys in the same order, and the same values (the same objects) except at `key`. */
function sameBut(a: JsonObject, b: JsonObject, key: string): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && (k === key || a[k] === b[k]));
}

/**
 * `o` as an input item with only its `output` or `arguments` changed (a cleared Responses tool
 * output or function call, L13), or with only the `output` or `input` of some of its parts
 * changed (cleared AI SDK tool-result or tool-call parts); else undefined.
 */
function editedItem(
  o: JsonObject,
  byCall: ReadonlyMap<string, JsonObject>,
  itemOfPart: ReadonlyMap<Json, JsonObject>,
): WireItem | undefined {
  const read =
    typeof o.type === "string" && typeof o.call_id === "string" ? byCall.get(callKey(o.type, o.call_id)) : undefined;
  const field = read === undefined ? undefined : clearedField(o, read);
  if (read !== undefined && field !== undefined)
    return { kind: "edited", raw: read, edits: [{ holder: read, key: field, value: o[field] ?? null }] };
  const parts = o.content;
  if (!Array.isArray(parts)) return undefined;
  const raw = parts.map((p) => itemOfPart.get(p)).find((x) => x !== undefined);
  const was = raw?.content;
  if (raw === undefined || !Array.isArray(was) || was.length !== parts.length || !sameBut(o, raw, "content"))
    return undefined;
  const edits: FieldEdit[] = [];
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    const q = was[k];
    if (p === q) continue;
    const key = isJsonObject(p) && isJsonObject(q) ? clearedField(p, q) : undefined;
    if (key === undefined || !isJsonObject(p) || !isJsonObject(q)) return undefined;
    edits.push({ holder: q, key, value: p[key] ?? null });
  }
  return edits.length > 0 ? { kind: "edited", raw, edits } : undefined;
}

function withLayout(messages: readonly Message[], opts: WriteOptions, layout: FileLayout): string | undefined {
  if (opts.format === "openai") return writeWithLayout(layout, planOpenAIOutput(messages, opts));
  const items = itemOutput(messages, opts);
  if (items !== undefined) return writeWithLayout(layout, planByIdentity(layout.items, items));
  const plan = planAnthropicOutput(messages, opts);
  // the system is part of the container: kept as read, or the whole file is written fresh
  const sameSystem =
    plan.system === undefined
      ? layout.system === undefined
      : plan.system.kind === "source" && plan.system.value === layout.system;
  return sameSystem ? writeWithLayout(layout, plan.items) : undefined;
}

function writeFresh(messages: readonly Message[], opts: WriteOptions): string {
  let wireMessages: JsonObject[];
  let system: Json | undefined;
  const items = itemOutput(messages, opts);
  if (items !== undefined) wireMessages = items;
  else if (opts.format === "anthropic") {
    const conv = writeAnthropicMessages(messages, opts);
    wireMessages = conv.messages;
    system = conv.system;
  } else {
    wireMessages = writeOpenAIMessages(messages, opts);
  }
  if (opts.container === "jsonl") {
    const lines: Json[] = system === undefined ? wireMessages : [{ system }, ...wireMessages];
    return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  }
  if (opts.container === "json-array") {
    if (system !== undefined) return `${JSON.stringify({ system, messages: wireMessages }, null, 2)}\n`;
    return `${JSON.stringify(wireMessages, null, 2)}\n`;
  }
  // keep the envelope's key order and other fields (model, tools, ...)
  const out: JsonObject = {};
  const env = opts.envelope ?? {};
  const key = opts.key ?? "messages";
  for (const [k, v] of Object.entries(env)) {
    if (k === key) out[key] = wireMessages;
    else if (k === "system" && opts.format === "anthropic") {
      if (system !== undefined) out.system = system;
    } else out[k] = v;
  }
  if (system !== undefined && out.system === undefined) out.system = system;
  if (out[key] === undefined) out[key] = wireMessages;
  return `${JSON.stringify(out, null, 2)}\n`;
}
