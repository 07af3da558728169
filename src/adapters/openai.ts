// OpenAI chat format: system/developer/user/assistant (with `tool_calls`)/tool (with
// `tool_call_id`). One wire message is one model message, so round trips are exact.
import { InputError } from "../model/errors.ts";
import { describeJson, isJsonObject, type Json, type JsonObject } from "../model/json.ts";
import { mediaField, partTokens } from "../model/media-tokens.ts";
import type { Message, ToolCall } from "../model/message.ts";
import { assertMessages } from "../model/message-shape.ts";
import { clearedCallArguments } from "./cleared-calls.ts";
import { unwrapSummary, wrapSummary } from "./summary-marker.ts";
import { type FieldEdit, type WireItem, wireMessage } from "./wire-item.ts";

/** Options shared by the readers and writers. */
export interface FormatOptions {
  /** tag marking summary messages; default: the summary_tag setting's default */
  readonly summaryTag?: string;
  /**
   * The compact source text of an object read from a file, if known: a tool input's arguments
   * are taken from it, so its numbers stay as written (never rounded through a JS number).
   */
  readonly sourceText?: (v: JsonObject) => string | undefined;
  /**
   * The items are a slice of a longer conversation (a session's append, or the items appended
   * since a read) whose tool pairing the caller checks against the whole: a result whose call
   * lies before the slice is not an orphan here. Default false: the items are the conversation.
   */
  readonly slice?: boolean;
}

function str(v: Json | undefined, path: string): string {
  if (typeof v !== "string") throw new InputError(path, `expected a string, got ${describeJson(v)}`);
  return v;
}

// Content is a string, null (assistant with tool calls) or an array of parts; only text parts
// carry text, other parts (images, audio) are kept verbatim through the raw source.
function contentText(v: Json | undefined, path: string): { text: string; media: number } {
  if (v === undefined || v === null) return { text: "", media: 0 };
  if (typeof v === "string") return { text: v, media: 0 };
  if (!Array.isArray(v))
    throw new InputError(path, `expected a string, null or an array of parts, got ${describeJson(v)}`);
  const texts: string[] = [];
  let media = 0;
  v.forEach((part, k) => {
    const p = `${path}[${k}]`;
    if (!isJsonObject(part)) throw new InputError(p, `expected a content part object, got ${describeJson(part)}`);
    const type = str(part.type, `${p}.type`);
    if (type === "text" || type === "input_text" || type === "output_text") texts.push(str(part.text, `${p}.text`));
    else if (type === "refusal") texts.push(str(part.refusal, `${p}.refusal`));
    else media += partTokens(part);
  });
  return { text: texts.join("\n"), media };
}

function toolCalls(v: Json | undefined, path: string): ToolCall[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InputError(path, `expected an array, got ${describeJson(v)}`);
  return v.map((c, k) => {
    const p = `${path}[${k}]`;
    if (!isJsonObject(c)) throw new InputError(p, `expected a tool call object, got ${describeJson(c)}`);
    const fn = c.function;
    if (!isJsonObject(fn)) throw new InputError(`${p}.function`, `expected an object, got ${describeJson(fn)}`);
    return {
      id: str(c.id, `${p}.id`),
      name: str(fn.name, `${p}.function.name`),
      arguments: fn.arguments === undefined ? "" : str(fn.arguments, `${p}.function.arguments`),
    };
  });
}

/** The roles whose messages must carry content (the API requires it of all but the assistant). */
const NEEDS_CONTENT = new Set(["system", "developer", "user", "tool"]);

/** Reads one OpenAI chat message at `messages[index]` (`path` names it in errors). */
export function readOpenAIMessage(v: Json, index: number, path: string, opts: FormatOptions = {}): Message {
  const tag = opts.summaryTag;
  if (!isJsonObject(v)) throw new InputError(path, `expected a message object, got ${describeJson(v)}`);
  const source = { format: "openai" as const, index, raw: v, parts: 1 };
  if (typeof v.role !== "string")
    throw new InputError(`${path}.role`, `expected a string, got ${describeJson(v.role)}`);
  // only an assistant message may have no content (OpenAI: when it calls tools); a user, system or
  // tool message with content null or missing is refused, not read as empty text
  if ((v.content === undefined || v.content === null) && NEEDS_CONTENT.has(v.role))
    throw new InputError(
      `${path}.content`,
      `a ${v.role} message needs content (a string or an array of parts), got ${describeJson(v.content)}`,
    );
  const { text: content, media } = contentText(v.content, `${path}.content`);
  const extra = mediaField(media);
  switch (v.role) {
    case "system":
    case "developer":
      return { role: "system", content, ...extra, source };
    case "user":
      return { role: "user", content, ...extra, source };
    case "assistant": {
      const calls = toolCalls(v.tool_calls, `${path}.tool_calls`);
      const summary = calls.length === 0 && media === 0 ? unwrapSummary(content, tag) : undefined;
      if (summary !== undefined) return { role: "summary", ...summary, source };
      return { role: "assistant", content, toolCalls: calls, ...extra, source };
    }
    case "tool":
      return { role: "tool", content, toolCallId: str(v.tool_call_id, `${path}.tool_call_id`), ...extra, source };
    default:
      throw new InputError(`${path}.role`, `unknown role ${JSON.stringify(v.role)}`);
  }
}

/** Reads an OpenAI `messages` array. */
export function readOpenAIMessages(v: Json, path = "messages", opts: FormatOptions = {}): Message[] {
  if (!Array.isArray(v)) throw new InputError(path, `expected an array of messages, got ${describeJson(v)}`);
  return v.map((m, i) => readOpenAIMessage(m, i, `${path}[${i}]`, opts));
}

/** Writes one model message as an OpenAI chat message (untouched messages verbatim). */
export function writeOpenAIMessage(m: Message, opts: FormatOptions = {}): JsonObject {
  if (m.source?.format === "openai" && isJsonObject(m.source.raw)) {
    // a cleared tool result (L13): the message as read with only its content replaced
    if (m.role === "tool" && m.clearedFrom !== undefined) return { ...m.source.raw, content: m.content };
    // cleared call arguments (clear_inputs): the message as read with only those arguments replaced
    const edits = argumentEdits(m, m.source.raw);
    return edits.length === 0 ? m.source.raw : wireMessage({ kind: "edited", raw: m.source.raw, edits });
  }
  const tag = opts.summaryTag;
  switch (m.role) {
    case "system":
    case "user":
      return { role: m.role, content: m.content };
    case "summary":
      return { role: "assistant", content: wrapSummary(m, tag) };
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    case "assistant": {
      if (m.toolCalls.length === 0) return { role: "assistant", content: m.content };
      return {
        role: "assistant",
        content: m.content === "" ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
  }
}

/** The edits giving the cleared calls of `m` (clear_inputs) their arguments in `raw`, its message as read: each call's `function.arguments`. */
function argumentEdits(m: Message, raw: JsonObject): FieldEdit[] {
  const now = clearedCallArguments(m);
  if (now.size === 0 || !Array.isArray(raw.tool_calls)) return [];
  return raw.tool_calls.flatMap((c): FieldEdit[] => {
    const args = isJsonObject(c) && typeof c.id === "string" ? now.get(c.id) : undefined;
    return args !== undefined && isJsonObject(c) && isJsonObject(c.function)
      ? [{ holder: c.function, key: "arguments", value: args }]
      : [];
  });
}

/** Plans the OpenAI output: each message as read (`source`), or a new one. */
export function planOpenAIOutput(messages: readonly Message[], opts: FormatOptions = {}): WireItem[] {
  return assertMessages(messages).map((m): WireItem => {
    if (!(m.source?.format === "openai" && isJsonObject(m.source.raw)))
      return { kind: "fresh", value: writeOpenAIMessage(m, opts) };
    const raw = m.source.raw;
    // a cleared tool result (L13): the message as read, only its content given the placeholder
    if (m.role === "tool" && m.clearedFrom !== undefined)
      return { kind: "edited", raw, edits: [{ holder: raw, key: "content", value: m.content }] };
    // cleared call arguments (clear_inputs): the message as read, only those calls' `arguments` replaced
    const edits = argumentEdits(m, raw);
    return edits.length === 0 ? { kind: "source", raw } : { kind: "edited", raw, edits };
  });
}

/** Writes model messages as an OpenAI `messages` array. */
export function writeOpenAIMessages(messages: readonly Message[], opts: FormatOptions = {}): JsonObject[] {
  // callers may hand-build the messages they write: a bad one is named, not a TypeError
  return assertMessages(messages).map((m) => writeOpenAIMessage(m, opts));
}
