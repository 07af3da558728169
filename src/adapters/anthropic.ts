// Anthropic messages format: a top-level `system` (string or text blocks) and user/assistant
// messages whose content is a string or blocks (text, tool_use, tool_result, images...), plus
// system-role messages (the SDK's SystemMessageParam), read and written back in place.
// One user message may carry several tool results plus text; the model splits it into tool
// messages followed by a user message, and the writer merges them back. An assistant message
// holding the server's compaction block (context management's `compact_*`: `type: "compaction"`,
// its summary in `content`, opaque `encrypted_content`, a `signature`) is read as a system-role
// message in place, protected like a user or system message (never cleared or summarized), counted
// by the size of what it holds; when tool calls follow the block in the same message, the blocks
// up to the compaction block are that system part and the rest an assistant message of the same
// source placed before it (so its calls' results come after the compaction item and the kernel keeps
// the message whole), written back as one message.
import { InputError } from "../model/errors.ts";
import { sameSourceMessage } from "../model/item-map.ts";
import { describeJson, isJsonObject, type Json, type JsonObject } from "../model/json.ts";
import { mediaField, partsTokens } from "../model/media-tokens.ts";
import type { Message, SourceRef, ToolCall } from "../model/message.ts";
import { assertMessages } from "../model/message-shape.ts";
import { clearedCallArguments } from "./cleared-calls.ts";
import type { FormatOptions } from "./openai.ts";
import { unwrapSummary, wrapSummary } from "./summary-marker.ts";
import { type FieldEdit, type WireItem, wireMessage } from "./wire-item.ts";

function str(v: Json | undefined, path: string): string {
  if (typeof v !== "string") throw new InputError(path, `expected a string, got ${describeJson(v)}`);
  return v;
}

// Blocks that carry no text we summarize but are legitimate; kept verbatim via the source.
// Server-side tool blocks pair up inside one assistant message, so they need no pairing view.
const OPAQUE_BLOCKS = new Set([
  "image",
  "document",
  "thinking",
  "redacted_thinking",
  "search_result",
  "container_upload",
  "server_tool_use",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "mcp_tool_use",
  "mcp_tool_result",
]);

function blockType(b: Json, path: string): { block: JsonObject; type: string } {
  if (!isJsonObject(b)) throw new InputError(path, `expected a content block object, got ${describeJson(b)}`);
  return { block: b, type: str(b.type, `${path}.type`) };
}

// What a tool_result's content may hold besides text (the SDK's ToolResultBlockParam): tool
// references (a tool search's answer) and browser state are kept verbatim like images.
const TOOL_RESULT_BLOCKS = new Set([...OPAQUE_BLOCKS, "tool_reference", "browser_state"]);

/** Tokens of the blocks that are neither text nor tool calls/results (images, documents, ...): partTokens's estimate. */
function otherBlocksTokens(blocks: readonly Json[]): number {
  return partsTokens(
    blocks.filter((b) => !isJsonObject(b) || (b.type !== "text" && b.type !== "tool_use" && b.type !== "tool_result")),
  );
}

function textOfBlocks(blocks: Json[], path: string, kept: ReadonlySet<string> = OPAQUE_BLOCKS): string {
  const texts: string[] = [];
  blocks.forEach((b, k) => {
    const { block, type } = blockType(b, `${path}[${k}]`);
    if (type === "text") texts.push(str(block.text, `${path}[${k}].text`));
    else if (!kept.has(type))
      throw new InputError(`${path}[${k}].type`, `unknown content block type ${JSON.stringify(type)}`);
  });
  return texts.join("\n");
}

/** Reads the top-level `system` (string or text blocks) as a system message. */
export function readAnthropicSystem(v: Json, path = "system"): Message {
  return { role: "system", content: systemText(v, path), source: { format: "anthropic", index: -1, raw: v, parts: 1 } };
}

// The text of a system (the top-level one or a system-role message): a string or text blocks.
function systemText(v: Json | undefined, path: string): string {
  if (typeof v === "string") return v;
  if (!Array.isArray(v))
    throw new InputError(path, `expected a string or an array of text blocks, got ${describeJson(v)}`);
  return textOfBlocks(v, path);
}

/** The role of a message object at `path`: one of the three Anthropic's messages may have. */
function roleOf(v: JsonObject, path: string): "user" | "assistant" | "system" {
  if (typeof v.role !== "string")
    throw new InputError(`${path}.role`, `expected a string, got ${describeJson(v.role)}`);
  if (v.role !== "user" && v.role !== "assistant" && v.role !== "system")
    throw new InputError(`${path}.role`, `unknown role ${JSON.stringify(v.role)}`);
  return v.role;
}

/** Reads one Anthropic message at `messages[index]` into one or more model messages. */
export function readAnthropicMessage(v: Json, index: number, path: string, opts: FormatOptions = {}): Message[] {
  if (!isJsonObject(v)) throw new InputError(path, `expected a message object, got ${describeJson(v)}`);
  const role = roleOf(v, path);
  const content = v.content;
  const cpath = `${path}.content`;
  if (role === "system") {
    // a system-role message among the messages: protected where it stands, written back as read
    return [
      { role: "system", content: systemText(content, cpath), source: { format: "anthropic", index, raw: v, parts: 1 } },
    ];
  }
  if (typeof content !== "string" && !Array.isArray(content)) {
    throw new InputError(cpath, `expected a string or an array of content blocks, got ${describeJson(content)}`);
  }
  const at = { raw: v, index, path: cpath };
  if (role === "assistant" && Array.isArray(content)) {
    const compaction = compactionAt(content);
    if (compaction >= 0) return compactionMessages(content, compaction, at, opts);
  }
  return role === "assistant" ? [assistantMessage(content, at, opts)] : userMessages(content, at);
}

/** Where a message's content was read: the message as read, its index in `messages`, the content's path. */
interface ContentAt {
  readonly raw: JsonObject;
  readonly index: number;
  readonly path: string;
}

/** The tool call a tool_use block at `p` makes, its input in the caller's source text (default JSON). */
function toolCallOf(block: JsonObject, p: string, opts: FormatOptions): ToolCall {
  const input = block.input ?? {};
  if (!isJsonObject(input)) throw new InputError(`${p}.input`, `expected an object, got ${describeJson(input)}`);
  return {
    id: str(block.id, `${p}.id`),
    name: str(block.name, `${p}.name`),
    arguments: opts.sourceText?.(input) ?? JSON.stringify(input),
  };
}

/** The position of the last compaction block among an assistant message's blocks, or -1. */
function compactionAt(content: readonly Json[]): number {
  for (let k = content.length - 1; k >= 0; k--) {
    const b = content[k];
    if (isJsonObject(b) && b.type === "compaction") return k;
  }
  return -1;
}

/** What a compaction block at `p` holds, as text to count: its summary and its opaque content (each a string or null). */
function compactionText(block: JsonObject, p: string): string {
  const texts: string[] = [];
  for (const key of ["content", "encrypted_content"]) {
    const v = block[key];
    if (v === undefined || v === null) continue;
    texts.push(str(v, `${p}.${key}`));
  }
  return texts.join("\n");
}

/**
 * An assistant message holding a compaction block (at `k`): the blocks up to it as a system-role
 * message in place (protected), and the blocks after it, when they hold a tool call, as an
 * assistant message of the same source; otherwise all of it is the system part.
 */
function compactionMessages(content: Json[], k: number, at: ContentAt, opts: FormatOptions): Message[] {
  const after = content.slice(k + 1);
  const split = after.some((b) => isJsonObject(b) && b.type === "tool_use");
  const head = split ? content.slice(0, k + 1) : content;
  const texts: string[] = [];
  head.forEach((b, j) => {
    const p = `${at.path}[${j}]`;
    const { block, type } = blockType(b, p);
    if (type === "compaction") texts.push(compactionText(block, p));
    else if (type === "text") texts.push(str(block.text, `${p}.text`));
    else if (type === "tool_use")
      throw new InputError(`${p}.type`, "a tool call before the compaction block of its message");
    else if (!OPAQUE_BLOCKS.has(type))
      throw new InputError(`${p}.type`, `unknown content block type ${JSON.stringify(type)}`);
  });
  const parts = split ? 2 : 1;
  const system: Message = {
    role: "system",
    serverCompaction: true,
    content: texts.join("\n"),
    ...mediaField(otherBlocksTokens(head.filter((b) => !isJsonObject(b) || b.type !== "compaction"))),
    source: { format: "anthropic", index: at.index, raw: at.raw, parts, blocks: head },
  };
  if (!split) return [system];
  const rest = assistantMessage(after, { ...at, path: at.path }, opts);
  if (rest.role !== "assistant") return [system, rest];
  // the calls' part first, then the compaction part, then (in the next message) the calls' results:
  // no stretch can take the calls (it would have to hold the compaction item to keep their results)
  // nor the results (they would leave their call), so the message is kept whole (kernel role compaction)
  return [{ ...rest, source: { format: "anthropic", index: at.index, raw: at.raw, parts, blocks: after } }, system];
}

/**
 * An assistant message: its text blocks joined, its tool_use blocks as tool calls. Text alone (no
 * calls, no media) wrapped in the summary tag is a summary safecut wrote.
 */
function assistantMessage(content: string | Json[], at: ContentAt, opts: FormatOptions): Message {
  const source: SourceRef = { format: "anthropic", index: at.index, raw: at.raw, parts: 1, blocks: content };
  if (typeof content === "string") {
    const summary = unwrapSummary(content, opts.summaryTag);
    if (summary !== undefined) return { role: "summary", ...summary, source };
    return { role: "assistant", content, toolCalls: [], source };
  }
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  content.forEach((b, k) => {
    const p = `${at.path}[${k}]`;
    const { block, type } = blockType(b, p);
    if (type === "text") texts.push(str(block.text, `${p}.text`));
    else if (type === "tool_use") calls.push(toolCallOf(block, p, opts));
    else if (!OPAQUE_BLOCKS.has(type))
      throw new InputError(`${p}.type`, `unknown content block type ${JSON.stringify(type)}`);
  });
  const text = texts.join("\n");
  const media = otherBlocksTokens(content);
  const summary = calls.length === 0 && media === 0 ? unwrapSummary(text, opts.summaryTag) : undefined;
  if (summary !== undefined) return { role: "summary", ...summary, source };
  return { role: "assistant", content: text, toolCalls: calls, ...mediaField(media), source };
}

/** A tool_result block's answer: the call it answers, its text, the media it holds and whether it is an error. */
interface ToolResultRead {
  readonly id: string;
  readonly text: string;
  readonly media: number;
  readonly isError: boolean;
  readonly block: JsonObject;
}

/** The answer a tool_result block at `p` gives: its content a string, text blocks (with kept media) or nothing. */
function toolResultOf(block: JsonObject, p: string): ToolResultRead {
  const inner = block.content;
  let text: string;
  if (inner === undefined || inner === null) text = "";
  else if (typeof inner === "string") text = inner;
  else if (Array.isArray(inner)) text = textOfBlocks(inner, `${p}.content`, TOOL_RESULT_BLOCKS);
  else throw new InputError(`${p}.content`, `expected a string or an array of blocks, got ${describeJson(inner)}`);
  if (block.is_error !== undefined && typeof block.is_error !== "boolean") {
    throw new InputError(`${p}.is_error`, `expected a boolean, got ${describeJson(block.is_error)}`);
  }
  const media = Array.isArray(inner) ? otherBlocksTokens(inner) : 0;
  return { id: str(block.tool_use_id, `${p}.tool_use_id`), text, media, isError: block.is_error === true, block };
}

/**
 * A user message as model messages: its tool results first (the API requires them first), one
 * tool message each, then the rest of its blocks as one user message (also when it holds nothing).
 */
function userMessages(content: string | Json[], at: ContentAt): Message[] {
  const { raw, index } = at;
  if (typeof content === "string") {
    return [{ role: "user", content, source: { format: "anthropic", index, raw, parts: 1, blocks: content } }];
  }
  const results: ToolResultRead[] = [];
  const rest: Json[] = [];
  const restText: string[] = [];
  content.forEach((b, k) => {
    const p = `${at.path}[${k}]`;
    const { block, type } = blockType(b, p);
    if (type === "tool_result") results.push(toolResultOf(block, p));
    else if (type === "text") {
      rest.push(block);
      restText.push(str(block.text, `${p}.text`));
    } else if (OPAQUE_BLOCKS.has(type)) rest.push(block);
    else throw new InputError(`${p}.type`, `unknown content block type ${JSON.stringify(type)}`);
  });
  const parts = results.length + (rest.length > 0 ? 1 : 0);
  const out: Message[] = results.map((r) => ({
    role: "tool",
    toolCallId: r.id,
    content: r.text,
    ...mediaField(r.media),
    ...(r.isError ? { isError: true } : {}),
    source: { format: "anthropic", index, raw, parts, blocks: [r.block] },
  }));
  if (rest.length > 0 || parts === 0) {
    out.push({
      role: "user",
      content: restText.join("\n"),
      ...mediaField(otherBlocksTokens(rest)),
      source: { format: "anthropic", index, raw, parts: Math.max(parts, 1), blocks: rest },
    });
  }
  return out;
}

/** Reads an Anthropic `messages` array (and optional top-level `system`). */
export function readAnthropicMessages(
  v: Json,
  system: Json | undefined,
  path = "messages",
  opts: FormatOptions = {},
): Message[] {
  if (!Array.isArray(v)) throw new InputError(path, `expected an array of messages, got ${describeJson(v)}`);
  const out: Message[] = system === undefined ? [] : [readAnthropicSystem(system)];
  v.forEach((m, i) => out.push(...readAnthropicMessage(m, i, `${path}[${i}]`, opts)));
  return out;
}

/** An Anthropic request body's conversation part. */
export interface AnthropicConversation {
  system?: Json;
  messages: JsonObject[];
}

// Messages that came from one Anthropic message share a key; messages from elsewhere share
// the key "new", so adjacent new tool results (and a following user text) form one message.
function groupKey(m: Message): string {
  return m.source?.format === "anthropic" ? `a${m.source.index}` : "new";
}

// A cleared tool result's block (L13): the block as read with only its content replaced.
function clearedBlock(m: Message): [Json, JsonObject] | undefined {
  const b = m.source?.format === "anthropic" ? m.source.blocks : undefined;
  if (m.role !== "tool" || m.clearedFrom === undefined || !Array.isArray(b) || b.length !== 1) return undefined;
  const block = b[0];
  return isJsonObject(block) ? [block, { ...block, content: m.content }] : undefined;
}

function blocksOf(m: Message): Json[] {
  const b = m.source?.format === "anthropic" ? m.source.blocks : undefined;
  const cleared = clearedBlock(m);
  if (cleared !== undefined) return [cleared[1]];
  if (Array.isArray(b)) return b;
  if (typeof b === "string") return [{ type: "text", text: b }];
  if (m.role === "tool") {
    return [
      { type: "tool_result", tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) },
    ];
  }
  return [{ type: "text", text: m.content }];
}

function parseInput(args: string): JsonObject {
  try {
    const v: Json = JSON.parse(args === "" ? "{}" : args);
    return isJsonObject(v) ? v : { value: v };
  } catch {
    return { arguments: args };
  }
}

/** An assistant message's output; `parts`: how many messages its source message was read as (2: split at a compaction block, the other part kept). */
function assistantOut(m: Message, tag: string | undefined, parts = 1): WireItem {
  if (m.source?.format === "anthropic" && m.source.parts === parts && isJsonObject(m.source.raw)) {
    // cleared call arguments (clear_inputs): the message as read, only those tool_use blocks' `input` replaced
    const now = clearedCallArguments(m);
    const raw = m.source.raw;
    const edits =
      now.size === 0 || !Array.isArray(raw.content)
        ? []
        : raw.content.flatMap((b): FieldEdit[] => {
            const args =
              isJsonObject(b) && b.type === "tool_use" && typeof b.id === "string" ? now.get(b.id) : undefined;
            return args !== undefined && isJsonObject(b) ? [{ holder: b, key: "input", value: parseInput(args) }] : [];
          });
    return edits.length === 0 ? { kind: "source", raw } : { kind: "edited", raw, edits };
  }
  if (m.role === "summary") return fresh({ role: "assistant", content: wrapSummary(m, tag) });
  if (m.role !== "assistant") return fresh({ role: "assistant", content: m.content });
  if (m.toolCalls.length === 0) return fresh({ role: "assistant", content: m.content });
  const blocks: Json[] = m.content === "" ? [] : [{ type: "text", text: m.content }];
  for (const c of m.toolCalls)
    blocks.push({ type: "tool_use", id: c.id, name: c.name, input: parseInput(c.arguments) });
  return fresh({ role: "assistant", content: blocks });
}

function fresh(value: JsonObject): WireItem {
  return { kind: "fresh", value };
}

/** What to write for the top-level system: the source value as read, or a new one. */
export type SystemItem = { readonly kind: "source" | "fresh"; readonly value: Json } | undefined;

/** Plans the Anthropic output of model messages: which file messages are written as read. */
export function planAnthropicOutput(
  messages: readonly Message[],
  opts: FormatOptions = {},
): { system: SystemItem; items: WireItem[] } {
  const tag = opts.summaryTag;
  // callers may hand-build the messages they write: a bad one is named, not a TypeError
  assertMessages(messages);
  // system-role messages read from the messages array stay there; any other system is the top-level one
  const inPlace = (m: Message) => m.role === "system" && m.source?.format === "anthropic" && m.source.index >= 0;
  const systems = messages.filter((m) => m.role === "system" && !inPlace(m));
  let system: SystemItem;
  if (systems.length === 1 && systems[0].source?.format === "anthropic")
    system = { kind: "source", value: systems[0].source.raw };
  else if (systems.length > 0) system = { kind: "fresh", value: systems.map((m) => m.content).join("\n\n") };
  const items: WireItem[] = [];
  const rest = messages.filter((m) => m.role !== "system" || inPlace(m));
  let i = 0;
  while (i < rest.length) {
    const m = rest[i];
    if (m.source?.format === "anthropic" && m.role === "system" && isJsonObject(m.source.raw)) {
      if (m.source.parts === 2) {
        // an assistant message split at its compaction block: one message again, or the compaction part alone
        const next = rest.at(i + 1);
        const joined = next !== undefined && next.role === "assistant" && sameSourceMessage(m, next);
        const head = Array.isArray(m.source.blocks) ? m.source.blocks : [];
        items.push(joined ? assistantOut(next, tag, 2) : { kind: "partial", raw: m.source.raw, blocks: head });
        i += joined ? 2 : 1;
        continue;
      }
      items.push({ kind: "source", raw: m.source.raw });
      i++;
      continue;
    }
    if (m.role === "assistant" || m.role === "summary") {
      // the calls' part of a message split at its compaction block, with that block's part after it: one message again
      const next = rest.at(i + 1);
      const joined = m.source?.parts === 2 && next?.role === "system" && sameSourceMessage(m, next);
      items.push(joined ? assistantOut(m, tag, 2) : assistantOut(m, tag));
      i += joined ? 2 : 1;
      continue;
    }
    // a run of tool results and user text from one source message, or adjacent new ones
    let j = i + 1;
    while (
      j < rest.length &&
      rest[j - 1].role === "tool" &&
      (rest[j].role === "tool" || rest[j].role === "user") &&
      groupKey(rest[j - 1]) === groupKey(rest[j])
    )
      j++;
    const run = rest.slice(i, j);
    const src = run[0].source;
    const oneSource =
      src?.format === "anthropic" && isJsonObject(src.raw) && run.every((r) => sameSourceMessage(run[0], r));
    const cleared = new Map<Json, Json>();
    for (const r of run) {
      const c = clearedBlock(r);
      if (c !== undefined) cleared.set(c[0], c[1]);
    }
    if (oneSource && cleared.size > 0 && run.length === src.parts && isJsonObject(src.raw)) {
      // cleared tool results, every block kept: the message as read, only their blocks' content replaced
      const edits = [...cleared].flatMap(([block, now]) =>
        isJsonObject(block) && isJsonObject(now) ? [{ holder: block, key: "content", value: now.content }] : [],
      );
      items.push({ kind: "edited", raw: src.raw, edits });
    } else if (oneSource && cleared.size > 0 && isJsonObject(src.raw) && Array.isArray(src.raw.content)) {
      // cleared tool results: the message as read, only their blocks' content replaced (and summarized blocks left out)
      const left = new Set(
        run.flatMap((r) => (r.source?.format === "anthropic" && Array.isArray(r.source.blocks) ? r.source.blocks : [])),
      );
      const content = src.raw.content.filter((b) => left.has(b)).map((b) => cleared.get(b) ?? b);
      items.push(fresh({ ...src.raw, content }));
    } else if (oneSource && run.length === src.parts && isJsonObject(src.raw))
      items.push({ kind: "source", raw: src.raw });
    else if (oneSource && isJsonObject(src.raw) && Array.isArray(src.raw.content)) {
      // some of its blocks were summarized away: the rest, in the order the file had them
      const left = new Set(
        run.flatMap((r) => (r.source?.format === "anthropic" && Array.isArray(r.source.blocks) ? r.source.blocks : [])),
      );
      items.push({ kind: "partial", raw: src.raw, blocks: src.raw.content.filter((b) => left.has(b)) });
    } else if (
      run.length === 1 &&
      run[0].role === "user" &&
      src?.format === "anthropic" &&
      typeof src.blocks === "string"
    ) {
      items.push(fresh({ role: "user", content: src.blocks }));
    } else if (run.length === 1 && run[0].role === "user" && src?.format !== "anthropic") {
      items.push(fresh({ role: "user", content: run[0].content }));
    } else {
      items.push(fresh({ role: "user", content: run.flatMap(blocksOf) }));
    }
    i = j;
  }
  return { system, items };
}

/** Writes model messages in Anthropic shape (untouched messages verbatim). */
export function writeAnthropicMessages(messages: readonly Message[], opts: FormatOptions = {}): AnthropicConversation {
  const plan = planAnthropicOutput(messages, opts);
  return { ...(plan.system !== undefined ? { system: plan.system.value } : {}), messages: plan.items.map(wireMessage) };
}
