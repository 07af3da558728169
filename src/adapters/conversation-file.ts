// Conversation files: JSON (an array of messages, or an object with `messages` such as a
// request body) or JSONL (one message per line), in OpenAI or Anthropic shape.
import { InputError } from "../engine/errors.ts";
import { describeJson, isJsonObject, type Json, type JsonObject } from "../engine/json.ts";
import type { Message } from "../engine/message.ts";
import { readAnthropicMessages, writeAnthropicMessages } from "./anthropic.ts";
import { detectFormat, type FormatName } from "./detect.ts";
import { readOpenAIMessages, writeOpenAIMessages, type FormatOptions } from "./openai.ts";

/** How the messages were laid out in the file. */
export type ContainerName = "json-array" | "json-object" | "jsonl";

/** A parsed conversation file: messages plus what is needed to write it back the same way. */
export interface ConversationFile {
  readonly format: FormatName;
  readonly container: ContainerName;
  readonly messages: readonly Message[];
  /** the top-level object of a json-object file (its other fields are written back as they were) */
  readonly envelope?: JsonObject;
  /** the model the file names (request bodies carry one): the agent's model */
  readonly model?: string;
}

/** Options for reading a conversation file. */
export interface ReadOptions extends FormatOptions {
  /** skip auto-detection */
  readonly format?: FormatName;
}

function parseJsonl(text: string): { lines: Json[]; lineNumbers: number[] } {
  const lines: Json[] = [];
  const lineNumbers: number[] = [];
  text.split("\n").forEach((line, k) => {
    if (line.trim() === "") return;
    try {
      lines.push(JSON.parse(line) as Json);
      lineNumbers.push(k + 1);
    } catch (e) {
      throw new InputError(`line ${k + 1}`, `invalid JSON: ${(e as Error).message}`);
    }
  });
  return { lines, lineNumbers };
}

function readMessages(format: FormatName, messages: Json, system: Json | undefined, opts: FormatOptions): Message[] {
  return format === "anthropic"
    ? readAnthropicMessages(messages, system, "messages", opts)
    : readOpenAIMessages(messages, "messages", opts);
}

/** Parses the text of a conversation file (JSON or JSONL, either format). */
export function readConversationFile(text: string, opts: ReadOptions = {}): ConversationFile {
  const trimmed = text.trim();
  if (trimmed === "") throw new InputError("", "input is empty: expected a JSON or JSONL conversation");
  let root: Json | undefined;
  let jsonError: Error | undefined;
  try {
    root = JSON.parse(trimmed) as Json;
  } catch (e) {
    jsonError = e as Error;
  }
  if (root === undefined) {
    if (!trimmed.includes("\n")) throw new InputError("", `invalid JSON: ${jsonError?.message ?? "unparseable"}`);
    const { lines } = parseJsonl(trimmed);
    return fromJsonl(lines, opts);
  }
  if (Array.isArray(root)) {
    const format = opts.format ?? detectFormat(root, false);
    return { format, container: "json-array", messages: readMessages(format, root, undefined, opts) };
  }
  if (isJsonObject(root) && root.messages !== undefined) {
    const msgs = root.messages;
    if (!Array.isArray(msgs)) throw new InputError("messages", `expected an array of messages, got ${describeJson(msgs)}`);
    const format = opts.format ?? detectFormat(msgs, root.system !== undefined);
    const system = format === "anthropic" ? root.system : undefined;
    const model = typeof root.model === "string" ? root.model : undefined;
    return { format, container: "json-object", messages: readMessages(format, msgs, system, opts), envelope: root, ...(model ? { model } : {}) };
  }
  if (isJsonObject(root) && (root.role !== undefined || root.system !== undefined)) return fromJsonl([root], opts);
  throw new InputError("", `expected an array of messages, an object with "messages", or JSONL; got ${describeJson(root)}`);
}

function fromJsonl(lines: Json[], opts: ReadOptions): ConversationFile {
  // An Anthropic JSONL may open with a {"system": ...} line standing for the top-level system.
  const first = lines[0];
  const systemLine = isJsonObject(first) && first.role === undefined && first.system !== undefined;
  const msgs = systemLine ? lines.slice(1) : lines;
  const format = opts.format ?? detectFormat(msgs, systemLine);
  if (systemLine && format === "openai") throw new InputError("line 1", `a {"system": ...} line is Anthropic JSONL; use a system message for OpenAI`);
  const system = systemLine && isJsonObject(first) ? first.system : undefined;
  return { format, container: "jsonl", messages: readMessages(format, msgs, system, opts) };
}

/** Options for writing a conversation file. */
export interface WriteOptions extends FormatOptions {
  readonly format: FormatName;
  readonly container: ContainerName;
  /** for json-object: the original top-level object, whose other fields are kept */
  readonly envelope?: JsonObject;
}

/** Serializes messages as a conversation file text (ends with a newline). */
export function writeConversationFile(messages: readonly Message[], opts: WriteOptions): string {
  let wireMessages: JsonObject[];
  let system: Json | undefined;
  if (opts.format === "anthropic") {
    const conv = writeAnthropicMessages(messages, opts);
    wireMessages = conv.messages;
    system = conv.system;
  } else {
    wireMessages = writeOpenAIMessages(messages, opts);
  }
  if (opts.container === "jsonl") {
    const lines: Json[] = system === undefined ? wireMessages : [{ system }, ...wireMessages];
    return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  }
  if (opts.container === "json-array") {
    if (system !== undefined) return JSON.stringify({ system, messages: wireMessages }, null, 2) + "\n";
    return JSON.stringify(wireMessages, null, 2) + "\n";
  }
  // keep the envelope's key order and other fields (model, tools, ...)
  const out: JsonObject = {};
  const env = opts.envelope ?? {};
  for (const [k, v] of Object.entries(env)) {
    if (k === "messages") out.messages = wireMessages;
    else if (k === "system" && opts.format === "anthropic") {
      if (system !== undefined) out.system = system;
    } else out[k] = v;
  }
  if (system !== undefined && out.system === undefined) out.system = system;
  if (out.messages === undefined) out.messages = wireMessages;
  return JSON.stringify(out, null, 2) + "\n";
}
