// The message model: one shape for every conversation format. Adapters map their
// format in and out; the engine and the kernel views see only this.
import type { Role } from "../kernel/roles.ts";
import type { Json } from "./json.ts";

/** One tool call made by an assistant message; `arguments` is the raw JSON text. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** The format cannot hold `{}` as this call's arguments (an action, a patch, an approval request): never cleared (clear_inputs). */
  readonly keepArguments?: true;
}

/**
 * Where a message came from, so an untouched message is written back byte-for-byte
 * (unknown fields, images, cache hints survive). Never read by the engine's decisions.
 */
export interface SourceRef {
  readonly format: "openai" | "anthropic";
  /** index of the source message in the input (-1: Anthropic top-level `system`) */
  readonly index: number;
  /** the source message as read */
  readonly raw: Json;
  /** how many model messages the source message produced (Anthropic splits tool results out) */
  readonly parts: number;
  /** the source content blocks this model message came from (Anthropic), or its string content */
  readonly blocks?: Json[] | string;
}

interface MessageBase {
  /** the text the message carries (text parts joined); what is counted and summarized */
  readonly content: string;
  /**
   * tokens of the message's parts that are not text (images, audio, files, unknown parts), as
   * estimated by partTokens (media-tokens.ts) when the file was read; counted with the text
   */
  readonly mediaTokens?: number;
  /**
   * bytes of those parts in a request (their JSON, binary data as its base64 text), for a message
   * read with no `source` (AI SDK messages): messageBytes counts them with the text
   */
  readonly mediaBytes?: number;
  readonly source?: SourceRef;
}

/**
 * A system (or developer) instruction; never altered (L2). With `serverCompaction`, a provider's
 * own server-side compaction item held in place (Anthropic's compaction block, the Responses
 * compaction item): the kernel sees it under its own role, `compaction` (kernelRole).
 */
export interface SystemMessage extends MessageBase {
  readonly role: "system";
  /** a provider's server-side compaction item, opaque, kept byte for byte where it stands */
  readonly serverCompaction?: true;
}
/** A user turn; never altered (L2). */
export interface UserMessage extends MessageBase {
  readonly role: "user";
}
/** An assistant turn, possibly calling tools. */
export interface AssistantMessage extends MessageBase {
  readonly role: "assistant";
  readonly toolCalls: readonly ToolCall[];
  /**
   * The message as read, when clear_inputs replaced some of its calls' arguments (L13): writers
   * give back that item with only those calls' arguments replaced.
   */
  readonly clearedFrom?: AssistantMessage;
}
/** The result of one tool call. */
export interface ToolMessage extends MessageBase {
  readonly role: "tool";
  readonly toolCallId: string;
  readonly isError?: boolean;
  /**
   * The result as read, when the clearing tier replaced this one's content by a placeholder
   * (L13): writers give back that item with only its content replaced.
   */
  readonly clearedFrom?: ToolMessage;
  /** The format cannot hold a text placeholder here (a screenshot, a structured shell output, an approval answer): never cleared. */
  readonly keepContent?: true;
}
/**
 * What the engine learnt about a summary, kept in the summary itself so that it travels with the
 * conversation through calls that keep nothing between them (written in the summary tag's
 * attributes on the wire, summary-marker.ts).
 */
export interface SummaryMarker {
  /** how many times the summary was aged (re-summarized in place under a tighter budget) */
  readonly aged?: number;
  /** the summary's tokens when an aged summary of it was rejected: not asked again while it is no larger (the kernel's markedNotShrinkable) */
  readonly floor?: number;
  /**
   * the assistant messages after this summary when the last run that changed the conversation
   * ended (on the newest summary): the calls since that run are the ones after them (lawful floor)
   */
  readonly after?: number;
}

/** A summary written by an earlier compaction; may be summarized again (rolling summary). */
export interface SummaryMessage extends MessageBase {
  readonly role: "summary";
  readonly marker?: SummaryMarker;
}

/** Any message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage | SummaryMessage;

// The model's roles plus the kernel's own `compaction` (a system message marked serverCompaction)
// and the kernel's roles must stay the same set: these two lines fail to compile if either side
// gains a role the other lacks.
type SameRoles<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const rolesAgree: SameRoles<Message["role"] | "compaction", Role> = true;
void rolesAgree;

/** The role the kernel sees for a message: its own, or `compaction` for a server-side compaction item. */
export function kernelRole(m: Message): Role {
  return m.role === "system" && m.serverCompaction === true ? "compaction" : m.role;
}

/** Builds a summary message holding `content` (and `marker`, when the engine knows something of it). */
export function summaryMessage(content: string, marker?: SummaryMarker): SummaryMessage {
  return marker === undefined ? { role: "summary", content } : { role: "summary", content, marker };
}

/** The text a message contributes to token counts and prompts (content plus tool calls). */
export function messageText(m: Message): string {
  if (m.role !== "assistant" || m.toolCalls.length === 0) return m.content;
  const calls = m.toolCalls.map((c) => `${c.name}(${c.arguments})`).join("\n");
  return m.content === "" ? calls : `${m.content}\n${calls}`;
}
