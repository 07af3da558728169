// OpenAI Responses API input items (`ResponseInputItem[]` of the `openai` package), and the
// OpenAI Agents SDK's items (`AgentInputItem`: the same items in camelCase, `callId`, a function's
// result as `function_call_result`, a computer call's as `computer_call_result`, hosted tool calls
// as `hosted_tool_call`): `message` items, client-executed tool calls and their outputs paired by
// their call id (function, custom tool, computer, shell, local shell, apply patch, program), MCP
// approval requests and responses, reasoning, and the other item types. Each item is one engine
// message, except a reasoning item, which travels with the item after it (the API refuses a
// reasoning item without its following item, so the two are never separated). Items the engine
// cannot read are kept as they are: self-contained server tool calls (web search, file search,
// code interpreter, image generation, MCP calls, the Agents SDK's hosted tool calls) may be
// summarized like any assistant output; every other type (item references, compaction items,
// types newer than this adapter) is protected like a system message, never summarized (a
// compaction item counted by the size of its encrypted content). Untouched
// items are written back as the same objects.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { InputError } from "../model/errors.ts";
import type { ItemMap, ItemSpan } from "../model/item-map.ts";
import { describeJson } from "../model/json.ts";
import { mediaField, partsTokens } from "../model/media-tokens.ts";
import type { Message } from "../model/message.ts";
import { mediaBytesField, partsBytes } from "../model/message-bytes.ts";
import { assertMessages } from "../model/message-shape.ts";
import { assertPairing, type PairingEvent } from "../model/tool-pairing.ts";
import { approvalCallId } from "./approval-id.ts";
import { clearedCallArguments } from "./cleared-calls.ts";
import type { FormatOptions } from "./openai.ts";
import { type Fields, fields, jsonText, str, typedParts } from "./read-fields.ts";
import { unwrapSummary, wrapSummary } from "./summary-marker.ts";

/** Responses items read into the engine's model, with what the writer needs to give them back. */
export interface ResponsesReading {
  readonly messages: Message[];
  /** which input items each engine message came from (retention window and report positions) */
  readonly map: ItemMap;
  readonly items: readonly ResponseInputItem[];
  readonly origins: ReadonlyMap<Message, ItemSpan>;
}

// Client-executed tool calls: the call's type, the types of its output (the API's, and the Agents
// SDK's where it names it otherwise), and the output's field holding the call id (a local shell
// output names its call by `id`; the Agents SDK spells `call_id` as `callId`).
const CALLS: Record<string, { readonly outputs: readonly string[]; readonly idField: string }> = {
  function_call: { outputs: ["function_call_output", "function_call_result"], idField: "call_id" },
  custom_tool_call: { outputs: ["custom_tool_call_output"], idField: "call_id" },
  computer_call: { outputs: ["computer_call_output", "computer_call_result"], idField: "call_id" },
  shell_call: { outputs: ["shell_call_output"], idField: "call_id" },
  local_shell_call: { outputs: ["local_shell_call_output"], idField: "id" },
  apply_patch_call: { outputs: ["apply_patch_call_output"], idField: "call_id" },
  program: { outputs: ["program_output"], idField: "call_id" },
};
// The outputs whose `output` may be a plain string: a cleared one holds its placeholder there.
const TEXT_OUTPUTS = new Set([
  "function_call_output",
  "function_call_result",
  "custom_tool_call_output",
  "local_shell_call_output",
  "apply_patch_call_output",
  "program_output",
]);
const OUTPUTS = new Map(Object.values(CALLS).flatMap((o) => o.outputs.map((t) => [t, o.idField] as const)));

/** The field of `item` holding its call id: `field` (`call_id`), or the Agents SDK's camelCase spelling when the item has that one instead. */
function idFieldOf(item: Fields, field: string): string {
  return field === "call_id" && item.call_id === undefined && item.callId !== undefined ? "callId" : field;
}

/** The call id of a function call item, in either spelling (undefined for another item). */
function functionCallId(item: object): string | undefined {
  const f = item as Readonly<Record<string, unknown>>;
  if (f.type !== "function_call") return undefined;
  const id = f.call_id ?? f.callId;
  return typeof id === "string" ? id : undefined;
}

// Server-side tool calls complete inside one item: summarizable model output.
const SERVER_CALLS = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
  "mcp_list_tools",
  "hosted_tool_call",
]);

function messageText(content: unknown, path: string): { text: string; media: number; bytes: number } {
  if (typeof content === "string") return { text: content, media: 0, bytes: 0 };
  const others: Fields[] = [];
  const text = typedParts(content, path)
    .flatMap((part, k) => {
      if (part.type === "input_text" || part.type === "output_text") return [str(part.text, `${path}[${k}].text`)];
      if (part.type === "refusal") return [str(part.refusal, `${path}[${k}].refusal`)];
      others.push(part); // images, files, audio: kept through the item itself, counted by estimate
      return [];
    })
    .join("\n");
  return { text, media: partsTokens(others), bytes: partsBytes(others) };
}

// A tool output's text: a string, the texts of a list of parts, or else its JSON.
function outputText(v: unknown, path: string): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    const texts = v.flatMap((p) =>
      typeof p === "object" && p !== null && typeof (p as Fields).text === "string"
        ? [(p as Fields).text as string]
        : [],
    );
    if (texts.length === v.length) return texts.join("\n");
  }
  return jsonText(v, path);
}

// One item as the engine message it stands for, and the tool call or result it states.
function readItem(item: Fields, p: string, tag: string | undefined, pairing: PairingEvent[]): Message {
  const type = item.type === undefined ? "message" : str(item.type, `${p}.type`);
  if (type === "message") {
    const role = str(item.role, `${p}.role`);
    const { text: content, media, bytes } = messageText(item.content, `${p}.content`);
    // Responses items carry no source: their images' and files' bytes are counted here (mediaBytes)
    const extra = { ...mediaField(media), ...mediaBytesField(bytes) };
    switch (role) {
      case "system":
      case "developer":
        return { role: "system", content, ...extra };
      case "user":
        return { role: "user", content, ...extra };
      case "assistant": {
        const summary = media === 0 ? unwrapSummary(content, tag) : undefined;
        return summary !== undefined
          ? { role: "summary", ...summary }
          : { role: "assistant", content, toolCalls: [], ...extra };
      }
      default:
        throw new InputError(
          `${p}.role`,
          `unknown role ${JSON.stringify(role)} (expected system, developer, user or assistant)`,
        );
    }
  }
  const call = CALLS[type];
  if (call !== undefined) {
    const f = idFieldOf(item, "call_id");
    const id = str(item[f], `${p}.${f}`);
    const name = item.name === undefined ? type : str(item.name, `${p}.name`);
    const args = item.arguments ?? item.input ?? item.action ?? item.actions ?? item.operation ?? item.code ?? null;
    pairing.push({ kind: "call", id, path: `${p}.${f}` });
    // only a function call's `arguments` can become `{}` (clear_inputs): an action, a patch or a custom input cannot
    return {
      role: "assistant",
      content: "",
      toolCalls: [
        {
          id,
          name,
          arguments: typeof args === "string" ? args : jsonText(args, p),
          ...(type === "function_call" ? {} : { keepArguments: true as const }),
        },
      ],
    };
  }
  const outputField = OUTPUTS.get(type);
  if (outputField !== undefined) {
    const idField = idFieldOf(item, outputField);
    const id = str(item[idField], `${p}.${idField}`);
    pairing.push({ kind: "result", id, path: `${p}.${idField}` });
    const content = outputText(item.output, `${p}.output`);
    // a screenshot or a structured shell output cannot become a text placeholder: never cleared (L13)
    return { role: "tool", toolCallId: id, content, ...(TEXT_OUTPUTS.has(type) ? {} : { keepContent: true as const }) };
  }
  if (type === "mcp_approval_request") {
    const id = approvalCallId(str(item.id, `${p}.id`));
    pairing.push({ kind: "call", id, path: `${p}.id` });
    return {
      role: "assistant",
      content: "",
      toolCalls: [
        {
          id,
          name: "mcp-approval",
          arguments: jsonText({ name: item.name, arguments: item.arguments }, p),
          keepArguments: true,
        },
      ],
    };
  }
  if (type === "mcp_approval_response") {
    const id = approvalCallId(str(item.approval_request_id, `${p}.approval_request_id`));
    if (typeof item.approve !== "boolean")
      throw new InputError(`${p}.approve`, `expected a boolean, got ${describeJson(item.approve)}`);
    pairing.push({ kind: "result", id, path: `${p}.approval_request_id` });
    return { role: "tool", toolCallId: id, content: item.approve ? "approved" : "denied", keepContent: true };
  }
  if (type === "reasoning" || SERVER_CALLS.has(type)) {
    return {
      role: "assistant",
      content: type === "mcp_call" || type === "hosted_tool_call" ? outputText(item.output, `${p}.output`) : "",
      toolCalls: [],
    };
  }
  if (type === "compaction") {
    // the server's compaction item: protected like a system message, counted by what it holds
    const enc = item.encrypted_content;
    return {
      role: "system",
      content: enc === undefined || enc === null ? "" : str(enc, `${p}.encrypted_content`),
      serverCompaction: true,
    };
  }
  return { role: "system", content: "" }; // not read here: protected, written back as it was
}

/** Reads Responses API input items into the engine's model; `path` names the array in errors. */
/**
 * Whether an item is read with the item after it (a reasoning item: one message, two items), so
 * that items read apart from the ones after them may not read as they do together.
 */
export function travelsWithNext(item: Readonly<Record<string, unknown>>): boolean {
  return item.type === "reasoning";
}

export function readResponsesItems(
  input: readonly ResponseInputItem[],
  path = "input",
  opts: FormatOptions = {},
): ResponsesReading {
  const tag = opts.summaryTag;
  if (!Array.isArray(input)) throw new InputError(path, `expected an array of items, got ${describeJson(input)}`);
  const messages: Message[] = [];
  const spans: ItemSpan[] = [];
  const origins = new Map<Message, ItemSpan>();
  const pairing: PairingEvent[] = [];
  let first = 0; // the first item of the message being read (reasoning items wait for the next one)
  for (let i = 0; i < input.length; i++) {
    const p = `${path}[${i}]`;
    const item = fields(input[i], p, "an item object");
    if (travelsWithNext(item) && i + 1 < input.length) continue;
    const m = readItem(item, p, tag, pairing);
    const span = { first, last: i };
    messages.push(m);
    spans.push(span);
    origins.set(m, span);
    first = i + 1;
  }
  if (opts.slice !== true) assertPairing(pairing);
  return { messages, map: { items: input.length, spans }, items: input, origins };
}

// A message the engine made (a summary) or a caller built by hand, as Responses items.
function newItems(m: Message, tag: string | undefined): ResponseInputItem[] {
  switch (m.role) {
    case "system":
    case "user":
      return [{ type: "message", role: m.role, content: m.content }];
    case "summary":
      return [{ type: "message", role: "assistant", content: wrapSummary(m, tag) }];
    case "assistant":
      return [
        ...(m.content !== "" || m.toolCalls.length === 0
          ? [{ type: "message" as const, role: "assistant" as const, content: m.content }]
          : []),
        ...m.toolCalls.map((c) => ({
          type: "function_call" as const,
          call_id: c.id,
          name: c.name,
          arguments: c.arguments,
        })),
      ];
    case "tool":
      return [{ type: "function_call_output", call_id: m.toolCallId, output: m.content }];
  }
}

/** Writes engine messages as Responses input items; with the reading they came from, untouched ones are the input's own objects. */
export function writeResponsesItems(
  messages: readonly Message[],
  reading?: ResponsesReading,
  opts: FormatOptions = {},
): ResponseInputItem[] {
  const tag = opts.summaryTag;
  assertMessages(messages);
  return messages.flatMap((m) => {
    // a cleared tool result (L13) is written as the items it was read from, only its output
    // replaced; a cleared call (clear_inputs) likewise, only its function call's arguments replaced
    const read = (m.role === "tool" || m.role === "assistant") && m.clearedFrom !== undefined ? m.clearedFrom : m;
    const o = reading?.origins.get(read);
    if (reading === undefined || o === undefined) return newItems(m, tag);
    const items = reading.items.slice(o.first, o.last + 1);
    if (read === m) return items;
    const now = clearedCallArguments(m);
    return items.map((item) => {
      if (m.role === "tool" && TEXT_OUTPUTS.has(item.type ?? ""))
        return { ...item, output: m.content } as ResponseInputItem;
      const id = functionCallId(item);
      const args = id === undefined ? undefined : now.get(id);
      return args === undefined ? item : ({ ...item, arguments: args } as ResponseInputItem);
    });
  });
}
