// LangChain.js messages (`@langchain/core` BaseMessage: human, system, ai with `tool_calls`, tool)
// as AI SDK ModelMessages and back, for the LangChain middleware (library/langchain.ts), which runs
// the AI SDK's before-step compaction on them. One LangChain message is one AI SDK message. A
// bridge keeps each message's conversion per object, so an unchanged message keeps its identity
// across steps (the due tracker and a background run's commit check compare messages by
// identity) and is given back as the caller's own object. Decides nothing about compaction.
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { AssistantModelMessage, ModelMessage, TextPart, ToolModelMessage, UserModelMessage } from "ai";
import { InputError } from "../model/errors.ts";

/** One block of a LangChain message's content array, as far as the bridge reads it. */
interface Block {
  readonly type?: unknown;
  readonly text?: unknown;
  readonly image_url?: unknown;
  readonly url?: unknown;
}

const isBlock = (b: unknown): b is Block => typeof b === "object" && b !== null && !Array.isArray(b);

/** A block's text: a text block's own, any other block's JSON (counted and summarized as written). */
function blockText(b: unknown): string {
  return isBlock(b) && b.type === "text" && typeof b.text === "string" ? b.text : JSON.stringify(b);
}

/** The text of a content string or array (blocks joined by newlines). */
function contentText(content: BaseMessage["content"]): string {
  return typeof content === "string" ? content : content.map(blockText).join("\n");
}

/** Whether a content array holds a provider's compaction block (`type: "compaction"`). */
function holdsCompaction(content: BaseMessage["content"]): boolean {
  return typeof content !== "string" && content.some((b) => isBlock(b) && b.type === "compaction");
}

/**
 * A content block as an AI SDK assistant part: a compaction block (Anthropic's server-side
 * compaction) as the text part the AI SDK carries it in, its summary as the text and
 * providerOptions.anthropic `{ type: "compaction", encryptedContent }`, which the AI SDK reader
 * holds under the kernel's compaction role; any other block as its text.
 */
function assistantPart(b: unknown): TextPart {
  if (!isBlock(b) || b.type !== "compaction") return { type: "text", text: blockText(b) };
  const c = b as Block & { content?: unknown; encrypted_content?: unknown };
  const encrypted = typeof c.encrypted_content === "string" ? { encryptedContent: c.encrypted_content } : {};
  return {
    type: "text",
    text: typeof c.content === "string" ? c.content : "",
    providerOptions: { anthropic: { type: "compaction", ...encrypted } },
  };
}

/** The URL of an image block (`image_url` as OpenAI spells it, or a standard `image` block's `url`), if it is one. */
function imageUrl(b: unknown): string | undefined {
  if (!isBlock(b)) return undefined;
  if (b.type === "image_url") {
    const u = b.image_url;
    if (typeof u === "string") return u;
    if (isBlock(u) && typeof u.url === "string") return u.url;
  }
  if (b.type === "image" && typeof b.url === "string") return b.url;
  return undefined;
}

/** A human message's content: its text, its images as image parts (counted as media). */
function userContent(content: BaseMessage["content"]): UserModelMessage["content"] {
  if (typeof content === "string") return content;
  return content.map((b) => {
    const url = imageUrl(b);
    return url === undefined ? { type: "text" as const, text: blockText(b) } : { type: "image" as const, image: url };
  });
}

/** Reads LangChain messages into AI SDK messages and writes the AI SDK result back, keeping identities. */
export class LangChainBridge {
  /** each LangChain message read, its AI SDK message (the same object at every step) */
  private readonly read = new WeakMap<BaseMessage, ModelMessage>();
  /** each AI SDK message made here, the LangChain message it came from */
  private readonly origin = new WeakMap<ModelMessage, BaseMessage>();

  /** The AI SDK messages of `messages`; an InputError names `messages[i]` of a kind it cannot read. */
  toModel(messages: readonly BaseMessage[]): ModelMessage[] {
    return messages.map((m, i) => {
      const known = this.read.get(m);
      if (known !== undefined) return known;
      const converted = toModelMessage(m, `messages[${i}]`);
      this.read.set(m, converted);
      this.origin.set(converted, m);
      return converted;
    });
  }

  /**
   * The LangChain messages of a compaction's result: an untouched message is the caller's own
   * object; a cleared tool result is its ToolMessage with only the content replaced; a call whose
   * arguments were cleared is its AIMessage with only those `args` replaced; a summary is a new
   * AIMessage holding the marked summary text.
   */
  fromModel(messages: readonly ModelMessage[], before: readonly BaseMessage[]): BaseMessage[] {
    const byCall = new Map<string, BaseMessage>();
    for (const m of before) {
      if (ToolMessage.isInstance(m)) byCall.set(`result:${m.tool_call_id}`, m);
      if (AIMessage.isInstance(m))
        for (const c of m.tool_calls ?? []) if (c.id !== undefined) byCall.set(`call:${c.id}`, m);
    }
    return messages.map((mm) => {
      const own = this.origin.get(mm);
      if (own !== undefined) return own;
      const made = fromModelMessage(mm, byCall);
      this.read.set(made, mm);
      this.origin.set(mm, made);
      return made;
    });
  }
}

function toModelMessage(m: BaseMessage, path: string): ModelMessage {
  switch (m.type) {
    case "system":
      return { role: "system", content: contentText(m.content) };
    case "human":
      return { role: "user", content: userContent(m.content) };
    case "ai": {
      const ai = m as AIMessage;
      const text = contentText(ai.content);
      const calls = ai.tool_calls ?? [];
      // a provider's compaction block (Anthropic's server-side compaction): its blocks as parts, the
      // block as the AI SDK carries it, so the reader holds it under the kernel's compaction role,
      // protected where it stands; with tool calls the message is kept whole with its results
      // (readModelMessages); given back as the caller's own message
      const compaction = holdsCompaction(ai.content) && typeof ai.content !== "string";
      if (calls.length === 0 && !compaction) return { role: "assistant", content: text };
      const content: AssistantModelMessage["content"] = compaction
        ? (ai.content as unknown[]).map(assistantPart)
        : text === ""
          ? []
          : [{ type: "text", text }];
      calls.forEach((c, k) => {
        if (typeof c.id !== "string" || c.id === "")
          throw new InputError(`${path}.tool_calls[${k}].id`, "a tool call needs an id to be paired with its result");
        content.push({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: c.args });
      });
      return { role: "assistant", content };
    }
    case "tool": {
      const t = m as ToolMessage;
      const value = contentText(t.content);
      const output = t.status === "error" ? { type: "error-text" as const, value } : { type: "text" as const, value };
      return {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: t.tool_call_id, toolName: t.name ?? "", output }],
      };
    }
    default:
      throw new InputError(
        `${path}.type`,
        `a LangChain message of type ${JSON.stringify(m.type)} is not read (human, system, ai and tool are)`,
      );
  }
}

/** The text of an AI SDK assistant message's text parts, or its string content. */
function assistantText(content: AssistantModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
}

function fromModelMessage(mm: ModelMessage, byCall: ReadonlyMap<string, BaseMessage>): BaseMessage {
  if (mm.role === "tool") return clearedResult(mm, byCall);
  if (mm.role === "assistant") {
    const calls = typeof mm.content === "string" ? [] : mm.content.filter((p) => p.type === "tool-call");
    if (calls.length === 0) return new AIMessage({ content: assistantText(mm.content) });
    const was = byCall.get(`call:${calls[0].toolCallId}`);
    if (was === undefined || !AIMessage.isInstance(was))
      throw new Error(`safecut: a rewritten tool call ${calls[0].toolCallId} has no LangChain message it came from`);
    const input = new Map(calls.map((p) => [p.toolCallId, p.input]));
    return new AIMessage({
      id: was.id,
      name: was.name,
      content: was.content,
      additional_kwargs: was.additional_kwargs,
      response_metadata: was.response_metadata,
      usage_metadata: was.usage_metadata,
      tool_calls: (was.tool_calls ?? []).map((c) =>
        c.id !== undefined && input.has(c.id) ? { ...c, args: input.get(c.id) as Record<string, unknown> } : c,
      ),
    });
  }
  throw new Error(`safecut: the compaction wrote a new ${mm.role} message, which it never does`);
}

/** A cleared tool result: the ToolMessage as it was, only its content now the placeholder. */
function clearedResult(mm: ToolModelMessage, byCall: ReadonlyMap<string, BaseMessage>): BaseMessage {
  const part = mm.content.find((p) => p.type === "tool-result");
  const was = part === undefined ? undefined : byCall.get(`result:${part.toolCallId}`);
  if (part === undefined || was === undefined || !ToolMessage.isInstance(was))
    throw new Error("safecut: a rewritten tool result has no LangChain message it came from");
  const o = part.output;
  const content = o.type === "text" || o.type === "error-text" ? o.value : JSON.stringify(o);
  return new ToolMessage({
    id: was.id,
    name: was.name,
    tool_call_id: was.tool_call_id,
    status: was.status,
    artifact: was.artifact,
    additional_kwargs: was.additional_kwargs,
    response_metadata: was.response_metadata,
    content,
  });
}
