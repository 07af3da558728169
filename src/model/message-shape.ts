// The runtime shape check of the message model. Adapters build messages themselves,
// but library callers build them by hand, and the declared types do not stop a JavaScript
// caller (or a cast) from passing a missing toolCalls, a numeric content or a role the kernel
// does not know. Every public entry that takes Message objects runs this one schema first, so a
// bad message is an InputError naming its JSON path, in the adapters' wording, instead of a
// TypeError deep in the engine or a NaN at a kernel boundary.
import { z } from "zod";
import { InputError } from "./errors.ts";
import { describeJson, type Json } from "./json.ts";
import type { AssistantMessage, Message, ToolMessage } from "./message.ts";

const text = z.string();
const toolCall = z.object({ id: text, name: text, arguments: text, keepArguments: z.literal(true).optional() });

// `raw` and `blocks` are the source message as read, kept verbatim for the writers; only their
// outer kind matters here (the writers test it before use).
const json = z.custom<Json>((v) => v !== undefined);
const source = z.object({
  format: z.enum(["openai", "anthropic"]),
  index: z.number().int().min(-1),
  raw: json,
  parts: z.number().int().min(1),
  blocks: z.union([z.array(json), z.string()]).optional(),
});

const base = {
  content: text,
  mediaTokens: z.number().int().min(0).optional(),
  mediaBytes: z.number().int().min(0).optional(),
  source: source.optional(),
};

/** A message's role and text, when it is an object with them (the first test of a cleared message's original). */
function roleWithText(v: unknown): string | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  return typeof o.content === "string" && typeof o.role === "string" ? o.role : undefined;
}

/** A summary's marker: an object whose `aged`, `floor` and `after`, when present, are counts (safe integers >= 0). */
function isMarkerShape(v: unknown): boolean {
  if (!isObjectValue(v)) return false;
  const count = (n: unknown) => n === undefined || (Number.isSafeInteger(n) && (n as number) >= 0);
  return count(v.aged) && count(v.floor) && count(v.after);
}

/** A cleared result's original: a tool message (checked one level deep: its own clearedFrom is not followed). */
function isClearedFromShape(v: unknown): v is ToolMessage {
  return roleWithText(v) === "tool" && typeof (v as Record<string, unknown>).toolCallId === "string";
}

/** A cleared call's original: an assistant message (checked one level deep: its own clearedFrom is not followed). */
function isAssistantFromShape(v: unknown): v is AssistantMessage {
  return roleWithText(v) === "assistant" && Array.isArray((v as Record<string, unknown>).toolCalls);
}

/** The schema of one message of the engine's model (extra fields are allowed and kept). */
export const messageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), ...base }),
  z.object({ role: z.literal("user"), ...base }),
  z.object({
    role: z.literal("assistant"),
    ...base,
    toolCalls: z.array(toolCall).readonly(),
    clearedFrom: z
      .custom<AssistantMessage>(isAssistantFromShape, "expected the assistant message it was cleared from")
      .optional(),
  }),
  z.object({
    role: z.literal("tool"),
    ...base,
    toolCallId: text,
    isError: z.boolean().optional(),
    clearedFrom: z.custom<ToolMessage>(isClearedFromShape, "expected the tool message it was cleared from").optional(),
    keepContent: z.literal(true).optional(),
  }),
  z.object({
    role: z.literal("summary"),
    ...base,
    marker: z
      .object({
        aged: z.number().int().min(0).optional(),
        floor: z.number().int().min(0).optional(),
        after: z.number().int().min(0).optional(),
      })
      .readonly()
      .optional(),
  }),
]);

// The schema and the Message type must describe the same shapes: this fails to compile if
// either side gains a field or a role the other lacks.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const shapesAgree: Same<z.output<typeof messageSchema>, Message> = true;
void shapesAgree;

function pathText(start: string, keys: readonly PropertyKey[]): string {
  return keys.reduce<string>((p, k) => (typeof k === "number" ? `${p}[${k}]` : `${p}.${String(k)}`), start);
}

function valueAt(v: unknown, keys: readonly PropertyKey[]): unknown {
  let cur = v;
  for (const k of keys) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

// What an object is called in errors, by where it sits: the message itself, a tool call, ...
function objectName(keys: readonly PropertyKey[]): string {
  if (keys.length === 0) return "a message object";
  if (keys.length === 2 && keys[0] === "toolCalls") return "a tool call object";
  return "an object";
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  array: "an array",
  boolean: "a boolean",
  number: "a number",
  int: "an integer",
};

// One zod issue in the adapters' words: "expected an array, got nothing (field missing)".
function issueText(issue: z.core.$ZodIssue, value: unknown): string {
  const got = describeJson(value);
  switch (issue.code) {
    case "invalid_type": {
      if (issue.expected === "int" && typeof value === "number") return `expected an integer, got ${value}`;
      const what =
        issue.expected === "object" ? objectName(issue.path) : (EXPECTED[issue.expected] ?? `a ${issue.expected}`);
      return `expected ${what}, got ${got}`;
    }
    case "invalid_union":
      // only the role discriminator reaches here (the other unions are of plain kinds)
      if (issue.path[issue.path.length - 1] === "role") {
        return typeof value === "string"
          ? `unknown role ${JSON.stringify(value)} (expected system, user, assistant, tool or summary)`
          : `expected a role (system, user, assistant, tool or summary), got ${got}`;
      }
      return `expected a string or an array, got ${got}`;
    case "invalid_value":
      return `expected one of ${issue.values.map((x) => JSON.stringify(x)).join(", ")}, got ${typeof value === "string" ? JSON.stringify(value) : got}`;
    case "custom":
      // only `raw` is a custom check: present, any JSON value
      return `expected a JSON value, got ${got}`;
    case "too_small":
      return `must be >= ${String(issue.minimum)}, got ${String(value)}`;
    default:
      return issue.message.replace(/^Invalid input: /, "");
  }
}

// The hand-written fast path. Running the schema costs about a microsecond and several objects
// per message, which dominated a fresh decision on a long history; this predicate reads the same
// fields with the same tests and allocates nothing. It accepts exactly what messageSchema accepts
// (test/model/message-shape-fast.test.ts compares the two verdicts on generated valid and
// near-valid messages); when it rejects, the schema runs to find and word the first issue, so the
// errors are the schema's own and a disagreement could only cost time, never strictness.

/** What z.object accepts as an object: anything of type "object" but null and arrays. */
function isObjectValue(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isToolCallShape(c: unknown): boolean {
  return (
    isObjectValue(c) &&
    typeof c.id === "string" &&
    typeof c.name === "string" &&
    typeof c.arguments === "string" &&
    (c.keepArguments === undefined || c.keepArguments === true)
  );
}

function isSourceShape(s: unknown): boolean {
  if (s === undefined) return true;
  if (!isObjectValue(s)) return false;
  const { format, index, parts, blocks } = s;
  if (format !== "openai" && format !== "anthropic") return false;
  // z.number().int() is Number.isSafeInteger (NaN and the infinities fail z.number() first)
  if (!Number.isSafeInteger(index) || (index as number) < -1) return false;
  if (s.raw === undefined) return false;
  if (!Number.isSafeInteger(parts) || (parts as number) < 1) return false;
  if (blocks === undefined || typeof blocks === "string") return true;
  if (!Array.isArray(blocks)) return false;
  // a plain loop: a hole reads as undefined, which the element schema rejects
  for (let i = 0; i < blocks.length; i++) if (blocks[i] === undefined) return false;
  return true;
}

/** Whether messageSchema accepts `m` (the same verdict, without running the schema). */
export function hasMessageShape(m: unknown): m is Message {
  if (!isObjectValue(m) || typeof m.content !== "string") return false;
  const media = m.mediaTokens;
  if (media !== undefined && (!Number.isSafeInteger(media) || (media as number) < 0)) return false;
  const mediaBytes = m.mediaBytes;
  if (mediaBytes !== undefined && (!Number.isSafeInteger(mediaBytes) || (mediaBytes as number) < 0)) return false;
  switch (m.role) {
    case "system":
    case "user":
      break;
    case "summary":
      if (m.marker !== undefined && !isMarkerShape(m.marker)) return false;
      break;
    case "assistant": {
      const calls = m.toolCalls;
      if (!Array.isArray(calls)) return false;
      for (let i = 0; i < calls.length; i++) if (!isToolCallShape(calls[i])) return false;
      if (m.clearedFrom !== undefined && !isAssistantFromShape(m.clearedFrom)) return false;
      break;
    }
    case "tool":
      if (typeof m.toolCallId !== "string") return false;
      if (m.isError !== undefined && typeof m.isError !== "boolean") return false;
      if (m.clearedFrom !== undefined && !isClearedFromShape(m.clearedFrom)) return false;
      if (m.keepContent !== undefined && m.keepContent !== true) return false;
      break;
    default:
      return false;
  }
  return isSourceShape(m.source);
}

/**
 * Which provider's wire shape `m` has, when it is not safecut's own message but a provider's (an
 * OpenAI chat message with `tool_calls`, `tool_call_id` or null or array content; an Anthropic or
 * AI SDK message with an array of typed content blocks; an OpenAI Responses item with a `type`).
 */
function wireShapeOf(m: unknown): string | undefined {
  if (!isObjectValue(m)) return undefined;
  if ("tool_calls" in m || "tool_call_id" in m || (m.role === "assistant" && m.content === null))
    return "an OpenAI chat message";
  if (typeof m.type === "string" && m.role === undefined) return "an OpenAI Responses item";
  if (Array.isArray(m.content) && m.content.some((b) => isObjectValue(b) && typeof b.type === "string"))
    return "a provider's message with content blocks (Anthropic, OpenAI or AI SDK)";
  return undefined;
}

/** Checks one message's shape; throws an InputError naming `path` and the field, or returns it unchanged. */
export function assertMessage(m: unknown, path: string): Message {
  if (hasMessageShape(m)) return m; // the caller's own object: never copied, never mutated
  const wire = wireShapeOf(m);
  if (wire !== undefined)
    throw new InputError(
      path,
      `this is ${wire}, not safecut's own message shape ({ role, content: string, toolCalls, toolCallId }): ` +
        "read a provider's messages with readOpenAIMessages or readAnthropicMessages first, " +
        "or compact them as they are with compactOpenAIMessages or compactAnthropicMessages",
    );
  const r = messageSchema.safeParse(m);
  if (r.success) return m as Message; // the caller's own object: never copied, never mutated
  const issue = r.error.issues[0];
  throw new InputError(pathText(path, issue.path), issueText(issue, valueAt(m, issue.path)));
}

/** Checks that `messages` is an array of well-shaped messages; throws an InputError naming `path[i]` and the field. */
export function assertMessages(messages: unknown, path = "messages"): readonly Message[] {
  if (!Array.isArray(messages))
    throw new InputError(path, `expected an array of messages, got ${describeJson(messages)}`);
  // a plain loop: sparse arrays have holes that forEach would skip
  // the path text is built only for a message the fast check rejects
  for (let i = 0; i < messages.length; i++)
    if (!hasMessageShape(messages[i])) assertMessage(messages[i], `${path}[${i}]`);
  return messages;
}
