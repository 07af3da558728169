// Vercel AI SDK messages (`ModelMessage[]` of the `ai` package): system, user, assistant (text,
// reasoning, files, tool calls, tool approval requests, provider-executed tool results) and
// tool messages (tool results, approval responses). One assistant message becomes one engine
// message followed by an engine tool message per tool result it carries; one tool message
// becomes one engine tool message per result. Tool approvals pair up like calls and results
// (internal id "approval:<approvalId>"), so compaction never separates a request from its
// answer. Parts the engine does not read (reasoning, files, custom and unknown parts) stay in
// their message and are written back as they were; an untouched message is written back as the
// very same object.
import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from "ai";
import { InputError } from "../model/errors.ts";
import type { ItemMap, ItemSpan } from "../model/item-map.ts";
import { describeJson } from "../model/json.ts";
import { mediaField, partsTokens } from "../model/media-tokens.ts";
import type { Message, ToolCall } from "../model/message.ts";
import { mediaBytesField, partsBytes } from "../model/message-bytes.ts";
import { assertMessages } from "../model/message-shape.ts";
import { assertPairing, type PairingEvent } from "../model/tool-pairing.ts";
import { approvalCallId } from "./approval-id.ts";
import { clearedCallArguments } from "./cleared-calls.ts";
import type { FormatOptions } from "./openai.ts";
import { type Fields, fields, jsonText, str, typedParts } from "./read-fields.ts";
import { unwrapSummary, wrapSummary } from "./summary-marker.ts";

/** Where an engine message came from: input message `item`, its content parts `parts` (none: string content). */
export interface ModelMessageOrigin {
  readonly item: number;
  readonly parts: readonly number[];
}

/** AI SDK messages read into the engine's model, with what the writer needs to give them back. */
export interface ModelMessagesReading {
  /** the engine's messages */
  readonly messages: Message[];
  /** which input messages each engine message came from (retention window and report positions) */
  readonly map: ItemMap;
  /** the input messages, written back as the same objects when untouched */
  readonly items: readonly ModelMessage[];
  readonly origins: ReadonlyMap<Message, ModelMessageOrigin>;
}

/** A message's fields for its parts that are not text: their tokens (mediaTokens) and their bytes in a request (mediaBytes). */
function mediaOf(parts: readonly unknown[]): { mediaTokens?: number; mediaBytes?: number } {
  return { ...mediaField(partsTokens(parts)), ...mediaBytesField(partsBytes(parts)) };
}

// The text of a tool result's output, and whether it reports a failure.
function outputText(
  v: unknown,
  path: string,
): { text: string; isError: boolean; media?: { mediaTokens?: number; mediaBytes?: number } } {
  const o = fields(v, path, "a tool output object");
  const type = str(o.type, `${path}.type`);
  switch (type) {
    case "text":
    case "error-text":
      return { text: str(o.value, `${path}.value`), isError: type === "error-text" };
    case "json":
    case "error-json":
      return { text: jsonText(o.value, `${path}.value`), isError: type === "error-json" };
    case "execution-denied":
      return { text: o.reason === undefined ? "execution denied" : str(o.reason, `${path}.reason`), isError: true };
    case "content": {
      if (!Array.isArray(o.value))
        throw new InputError(`${path}.value`, `expected an array, got ${describeJson(o.value)}`);
      const others: Fields[] = [];
      const texts = o.value.flatMap((c, k) => {
        const item = fields(c, `${path}.value[${k}]`, "a content object");
        if (item.type !== "text") others.push(item);
        return item.type === "text" ? [str(item.text, `${path}.value[${k}].text`)] : [];
      });
      return { text: texts.join("\n"), isError: false, media: mediaOf(others) };
    }
    default:
      return { text: "", isError: false }; // an output kind this version does not know: kept as it is
  }
}

interface Builder {
  readonly messages: Message[];
  readonly spans: ItemSpan[];
  readonly origins: Map<Message, ModelMessageOrigin>;
  readonly pairing: PairingEvent[];
}

function emit(b: Builder, m: Message, item: number, parts: readonly number[]): void {
  b.messages.push(m);
  b.spans.push({ first: item, last: item });
  b.origins.set(m, { item, parts });
}

function toolResult(b: Builder, part: Fields, item: number, k: number, path: string): void {
  const id = str(part.toolCallId, `${path}.toolCallId`);
  if (part.toolName !== undefined) str(part.toolName, `${path}.toolName`);
  const { text, isError, media } = outputText(part.output, `${path}.output`);
  b.pairing.push({ kind: "result", id, path: `${path}.toolCallId` });
  emit(b, { role: "tool", toolCallId: id, content: text, ...media, ...(isError ? { isError: true } : {}) }, item, [k]);
}

function approvalResponse(b: Builder, part: Fields, item: number, k: number, path: string): void {
  const approvalId = str(part.approvalId, `${path}.approvalId`);
  if (typeof part.approved !== "boolean")
    throw new InputError(`${path}.approved`, `expected a boolean, got ${describeJson(part.approved)}`);
  const reason = part.reason === undefined ? "" : `: ${str(part.reason, `${path}.reason`)}`;
  b.pairing.push({ kind: "result", id: approvalCallId(approvalId), path: `${path}.approvalId` });
  emit(
    b,
    {
      role: "tool",
      toolCallId: approvalCallId(approvalId),
      content: `${part.approved ? "approved" : "denied"}${reason}`,
      keepContent: true,
    },
    item,
    [k],
  );
}

/** The provider whose options mark `part` as a server-side compaction item, or undefined (see compactionPart). */
function compactionProvider(part: Fields): string | undefined {
  if (part.type === "custom" && typeof part.kind === "string" && part.kind.endsWith(".compaction"))
    return part.kind.slice(0, -".compaction".length);
  if (part.type !== "text") return undefined;
  const options = part.providerOptions;
  if (typeof options !== "object" || options === null || Array.isArray(options)) return undefined;
  for (const [provider, o] of Object.entries(options))
    if (typeof o === "object" && o !== null && (o as Fields).type === "compaction") return provider;
  return undefined;
}

/**
 * The text of a provider's server-side compaction item carried by an assistant part (its summary
 * text and its opaque encrypted content, what the provider is sent again), or undefined when the
 * part is none: a text part whose providerOptions mark it `type: "compaction"` (Anthropic's
 * compaction block as the AI SDK carries it), or a custom part of kind `<provider>.compaction`
 * (the Responses compaction item).
 */
function compactionPart(part: Fields, path: string): string | undefined {
  const provider = compactionProvider(part);
  if (provider === undefined) return undefined;
  const texts = part.type === "text" ? [str(part.text, `${path}.text`)] : [];
  const o = (part.providerOptions as Record<string, unknown> | undefined)?.[provider];
  if (typeof o === "object" && o !== null)
    for (const key of ["encryptedContent", "encrypted_content"]) {
      const v = (o as Fields)[key];
      if (v !== undefined && v !== null) texts.push(str(v, `${path}.providerOptions.${provider}.${key}`));
    }
  return texts.join("\n");
}

function readAssistant(b: Builder, content: unknown, item: number, path: string, tag: string | undefined): void {
  if (typeof content === "string") {
    const summary = unwrapSummary(content, tag);
    emit(
      b,
      summary !== undefined ? { role: "summary", ...summary } : { role: "assistant", content, toolCalls: [] },
      item,
      [],
    );
    return;
  }
  const parts = typedParts(content, path);
  // a provider's server-side compaction item among the parts (compactionPart)
  const held = parts.map((part, k) => compactionPart(part, `${path}[${k}]`));
  const at = parts.flatMap((_, k) => (held[k] === undefined ? [] : [k]));
  const paired = (t: unknown) => t === "tool-call" || t === "tool-approval-request" || t === "tool-result";
  if (at.length > 0 && !parts.some((part) => paired(part.type))) {
    // no tool call: the whole message is the compaction item's, protected where it stands
    const texts = parts.flatMap((part, k) =>
      held[k] !== undefined ? [held[k]] : part.type === "text" ? [str(part.text, `${path}[${k}].text`)] : [],
    );
    const media = mediaOf(parts.filter((part, k) => held[k] === undefined && part.type !== "text"));
    const whole = parts.map((_, k) => k);
    emit(b, { role: "system", serverCompaction: true, content: texts.join("\n"), ...media }, item, whole);
    return;
  }
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  const own: number[] = [];
  const others: Fields[] = [];
  const results: number[] = [];
  parts.forEach((part, k) => {
    const p = `${path}[${k}]`;
    if (held[k] !== undefined) return; // the compaction item's own message, after this one
    switch (part.type) {
      case "text":
        texts.push(str(part.text, `${p}.text`));
        break;
      case "tool-call": {
        const id = str(part.toolCallId, `${p}.toolCallId`);
        calls.push({
          id,
          name: str(part.toolName, `${p}.toolName`),
          arguments: jsonText(part.input ?? {}, `${p}.input`),
        });
        b.pairing.push({ kind: "call", id, path: `${p}.toolCallId` });
        break;
      }
      case "tool-approval-request": {
        const approvalId = str(part.approvalId, `${p}.approvalId`);
        const toolCallId = str(part.toolCallId, `${p}.toolCallId`);
        calls.push({
          id: approvalCallId(approvalId),
          name: "tool-approval",
          arguments: JSON.stringify({ toolCallId }),
          keepArguments: true,
        });
        b.pairing.push({ kind: "call", id: approvalCallId(approvalId), path: `${p}.approvalId` });
        break;
      }
      case "tool-result":
        results.push(k); // a provider-executed tool's result: its own engine tool message
        return;
      case "reasoning":
        str(part.text, `${p}.text`);
        break;
    }
    own.push(k); // reasoning, files, custom and unknown parts ride with the assistant message
    if (part.type !== "text" && part.type !== "tool-call" && part.type !== "tool-approval-request") others.push(part);
  });
  const text = texts.join("\n");
  const media = mediaOf(others);
  const summary =
    calls.length === 0 && results.length === 0 && media.mediaTokens === undefined
      ? unwrapSummary(text, tag)
      : undefined;
  emit(
    b,
    summary !== undefined
      ? { role: "summary", ...summary }
      : { role: "assistant", content: text, toolCalls: calls, ...media },
    item,
    own,
  );
  // With tool calls, the compaction item's message comes right after the calls' message and before
  // their results: no stretch can then take the calls (it would have to hold the item to keep their
  // results) nor the results (they would leave their call), so the message is kept whole.
  if (at.length > 0) {
    const content = at.map((k) => held[k]).join("\n");
    emit(b, { role: "system", serverCompaction: true, content }, item, at);
  }
  for (const k of results) toolResult(b, parts[k], item, k, `${path}[${k}]`);
}

function readTool(b: Builder, content: unknown, item: number, path: string): void {
  const parts = typedParts(content, path);
  const before = b.messages.length;
  const other: number[] = [];
  parts.forEach((part, k) => {
    if (part.type === "tool-result") toolResult(b, part, item, k, `${path}[${k}]`);
    else if (part.type === "tool-approval-response") approvalResponse(b, part, item, k, `${path}[${k}]`);
    else other.push(k);
  });
  if (b.messages.length === before) {
    // nothing to pair (an empty tool message, or only parts this version does not know): one
    // assistant-side message keeps the parts so they are written back as they were
    emit(b, { role: "assistant", content: "", toolCalls: [], ...mediaOf(other.map((k) => parts[k])) }, item, other);
  } else if (other.length > 0) {
    const first = b.messages[before];
    const o = b.origins.get(first)!;
    b.origins.set(first, { item, parts: [...o.parts, ...other] });
  }
}

// Reads input message `i` (`item`) into the builder: its engine messages and pairing events.
function readItem(b: Builder, item: unknown, i: number, path: string, tag: string | undefined): void {
  const p = `${path}[${i}]`;
  const m = fields(item, p, "a message object");
  const role = str(m.role, `${p}.role`);
  const cpath = `${p}.content`;
  switch (role) {
    case "system":
      emit(b, { role: "system", content: str(m.content, cpath) }, i, []);
      break;
    case "user": {
      const parts = typeof m.content === "string" ? [] : typedParts(m.content, cpath);
      const content =
        typeof m.content === "string"
          ? m.content
          : parts
              .flatMap((part, k) => (part.type === "text" ? [str(part.text, `${cpath}[${k}].text`)] : []))
              .join("\n");
      emit(b, { role: "user", content, ...mediaOf(parts.filter((part) => part.type !== "text")) }, i, []);
      break;
    }
    case "assistant":
      readAssistant(b, m.content, i, cpath, tag);
      break;
    case "tool":
      readTool(b, m.content, i, cpath);
      break;
    default:
      throw new InputError(
        `${p}.role`,
        `unknown role ${JSON.stringify(role)} (expected system, user, assistant or tool)`,
      );
  }
}

/**
 * Reads one AI SDK message, at `index` of the array `path` names, as readModelMessages reads it
 * there (the same engine messages, the same InputErrors), with its tool calls and results as
 * pairing events for the caller to check against the messages before it.
 */
export function readModelMessage(
  item: ModelMessage,
  index: number,
  path = "messages",
  opts: FormatOptions = {},
): { readonly messages: readonly Message[]; readonly pairing: readonly PairingEvent[] } {
  const b: Builder = { messages: [], spans: [], origins: new Map(), pairing: [] };
  readItem(b, item, index, path, opts.summaryTag);
  return { messages: b.messages, pairing: b.pairing };
}

/** Reads AI SDK `ModelMessage`s into the engine's model; `path` names the array in errors. */
export function readModelMessages(
  input: readonly ModelMessage[],
  path = "messages",
  opts: FormatOptions = {},
): ModelMessagesReading {
  const tag = opts.summaryTag;
  if (!Array.isArray(input)) throw new InputError(path, `expected an array of messages, got ${describeJson(input)}`);
  const b: Builder = { messages: [], spans: [], origins: new Map(), pairing: [] };
  for (let i = 0; i < input.length; i++) readItem(b, input[i], i, path, tag);
  if (opts.slice !== true) assertPairing(b.pairing);
  return { messages: b.messages, map: { items: input.length, spans: b.spans }, items: input, origins: b.origins };
}

function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args === "" ? "{}" : args);
  } catch {
    return args;
  }
}

// A message the engine made (a summary) or a caller built by hand, in AI SDK shape.
function newItem(m: Message, tag: string | undefined, all: readonly Message[]): ModelMessage {
  switch (m.role) {
    case "system":
    case "user":
      return { role: m.role, content: m.content };
    case "summary":
      return { role: "assistant", content: [{ type: "text", text: wrapSummary(m, tag) }] };
    case "assistant": {
      if (m.toolCalls.length === 0) return { role: "assistant", content: m.content };
      const content: AssistantModelMessage["content"] = m.content === "" ? [] : [{ type: "text", text: m.content }];
      for (const c of m.toolCalls)
        content.push({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: parseArguments(c.arguments) });
      return { role: "assistant", content };
    }
    case "tool": {
      const call = all.flatMap((x) => (x.role === "assistant" ? x.toolCalls : [])).find((c) => c.id === m.toolCallId);
      const output = m.isError
        ? { type: "error-text" as const, value: m.content }
        : { type: "text" as const, value: m.content };
      return {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: m.toolCallId, toolName: call?.name ?? "", output }],
      };
    }
  }
}

// What is left of an input message some of whose engine messages were summarized away: the
// same message with the surviving parts (the same part objects), in their original order.
function partial(item: ModelMessage, parts: readonly number[]): ModelMessage {
  const keep = [...parts].sort((a, b) => a - b);
  if (item.role === "assistant" && Array.isArray(item.content)) {
    const content = item.content;
    return { ...item, content: keep.map((k) => content[k]) };
  }
  if (item.role === "tool") {
    const content: ToolModelMessage["content"] = item.content;
    return { ...item, content: keep.map((k) => content[k]) };
  }
  return item; // system and user messages are one engine message each: never partial
}

// The input message with the parts of its cleared tool results (L13) replaced: each `tool-result`
// part as read, only its `output` now the placeholder text, and each `tool-call` part whose
// arguments were cleared (clear_inputs) only its `input` now `{}`; every other part the same object.
function withClearedParts(
  kept: ModelMessage,
  item: ModelMessage,
  run: readonly Message[],
  reading: ModelMessagesReading,
): ModelMessage {
  if (!Array.isArray(item.content) || !Array.isArray(kept.content)) return kept;
  const content: readonly unknown[] = item.content;
  const swaps = new Map<unknown, unknown>();
  for (const m of run) {
    // cleared call arguments (clear_inputs): each `tool-call` part as read, only its `input` replaced
    const now = clearedCallArguments(m);
    for (const part of content) {
      if (typeof part !== "object" || part === null) continue;
      const p = part as { type?: unknown; toolCallId?: unknown };
      const args = p.type === "tool-call" && typeof p.toolCallId === "string" ? now.get(p.toolCallId) : undefined;
      if (args !== undefined) swaps.set(part, { ...part, input: parseArguments(args) });
    }
    if (m.role !== "tool" || m.clearedFrom === undefined) continue;
    const k = reading.origins.get(m.clearedFrom)?.parts[0];
    const part = k === undefined ? undefined : content[k];
    if (typeof part !== "object" || part === null) continue;
    const output = m.isError ? { type: "error-text", value: m.content } : { type: "text", value: m.content };
    swaps.set(part, { ...part, output });
  }
  if (swaps.size === 0) return kept;
  return { ...kept, content: kept.content.map((p) => swaps.get(p) ?? p) } as ModelMessage;
}

/** Writes engine messages as AI SDK messages; with the reading they came from, untouched ones are the input's own objects. */
export function writeModelMessages(
  messages: readonly Message[],
  reading?: ModelMessagesReading,
  opts: FormatOptions = {},
): ModelMessage[] {
  const tag = opts.summaryTag;
  assertMessages(messages);
  const perItem = new Map<number, number>();
  for (const s of reading?.map.spans ?? []) perItem.set(s.first, (perItem.get(s.first) ?? 0) + 1);
  const out: ModelMessage[] = [];
  let i = 0;
  // a cleared tool result or call (L13) is found by the message it was read as
  const readAs = (m: Message): Message =>
    (m.role === "tool" || m.role === "assistant") && m.clearedFrom !== undefined ? m.clearedFrom : m;
  while (i < messages.length) {
    const o = reading?.origins.get(readAs(messages[i]));
    if (reading === undefined || o === undefined) {
      out.push(newItem(messages[i], tag, messages));
      i++;
      continue;
    }
    const parts = [...o.parts];
    let j = i + 1;
    // the run of engine messages from the same input message
    for (; j < messages.length; j++) {
      const n = reading.origins.get(readAs(messages[j]));
      if (n?.item !== o.item) break;
      parts.push(...n.parts);
    }
    const item = reading.items[o.item];
    const kept = j - i === perItem.get(o.item) ? item : partial(item, parts);
    out.push(withClearedParts(kept, item, messages.slice(i, j), reading));
    i = j;
  }
  return out;
}
