// The OpenAI Agents SDK's `Session` (memory of `run(agent, input, { session })`) kept in a safecut
// session of format "responses" (a JSONL log or PostgreSQL): the SDK's items (`AgentInputItem`,
// the Responses items in the SDK's camelCase, read by the Responses adapter) are appended as their
// JSON text, kept byte for byte; after each addition the session is compacted when a trigger of
// the configuration fires (blocking), or started in the background at soft_token_threshold
// (background-session.ts); `getItems` hands the SDK the session's context: every user message, no
// tool result parted from its call, summaries in place as assistant messages. `popItem` and
// `clearSession` are the session's pop and clear records: nothing is deleted from its history.

import type { AgentInputItem, Session as AgentsSdkSession } from "@openai/agents";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import { sessionStep } from "./agent-step.ts";
import { BackgroundSession, type BackgroundSessionOptions } from "./background-session.ts";
import type { Session } from "./session.ts";

/** Options of an Agents SDK session: a compaction's options, the SDK's session id, where reports go. */
export interface AgentsSessionOptions extends BackgroundSessionOptions {
  /** what getSessionId() answers (default: the session's location) */
  readonly sessionId?: string;
}

/**
 * A context item as the SDK reads it: a summary safecut wrote (an assistant message whose content
 * is its text) as the SDK's assistant message (content as output_text parts); every other item as
 * it was stored, in a new object (the SDK may change what it is given).
 */
function agentItem(v: Json): AgentInputItem {
  if (isJsonObject(v) && v.type === "message" && v.role === "assistant" && typeof v.content === "string")
    return {
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: v.content }],
    };
  return structuredClone(v) as unknown as AgentInputItem;
}

/** The JSON value of the SDK's items: what the session keeps (fields holding `undefined` are not kept, as JSON says). */
function asJson(items: readonly AgentInputItem[]): Json[] {
  return JSON.parse(JSON.stringify(items)) as Json[];
}

/**
 * The Agents SDK's Session over a safecut session of format "responses"; see the file comment.
 * Call `settle()` before closing the safecut session (a background run may be in flight).
 */
export class SafecutAgentsSession implements AgentsSdkSession {
  private readonly c: Config;
  private readonly background: BackgroundSession | undefined;

  constructor(
    readonly session: Session,
    config: ConfigInput | Config = {},
    private readonly options: AgentsSessionOptions = {},
  ) {
    if (session.format !== "responses")
      throw new InputError("session", `expected a session of format responses, not ${session.format}`);
    this.c = parseConfig(config); // a bad configuration fails when the session is made
    this.background =
      this.c.soft_token_threshold === null ? undefined : new BackgroundSession(session, this.c, options);
  }

  async getSessionId(): Promise<string> {
    return this.options.sessionId ?? this.session.location;
  }

  /** The session's context (the newest `limit` items of it when given), in the SDK's item shape. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const items = await this.session.context();
    if (limit !== undefined && limit <= 0) return [];
    return (limit === undefined ? items : items.slice(-limit)).map(agentItem);
  }

  /** Appends the items (durable when this resolves) and compacts the session when due. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    const added = asJson(items);
    // in background mode, the background session tells onReport of each run it ran or waited for
    if (this.background !== undefined) {
      await this.background.step(added);
      return;
    }
    const { report } = await sessionStep(this.session, added, this.c, this.options);
    this.options.onReport?.(report);
  }

  /**
   * Takes the newest item out of the context and returns it (a reasoning item read with it goes
   * too: the API refuses one without the item after it); undefined when there is none, or when the
   * newest item was summarized away (the session's pop).
   */
  async popItem(): Promise<AgentInputItem | undefined> {
    await this.background?.settle();
    const taken = await this.session.pop();
    const last = taken?.at(-1);
    return last === undefined ? undefined : agentItem(last);
  }

  /** Empties the context (the session's clear record); the history keeps every item. */
  async clearSession(): Promise<void> {
    await this.background?.settle();
    await this.session.clear();
  }

  /** Waits for a background compaction still in flight (its failure is thrown here). */
  async settle(): Promise<void> {
    await this.background?.settle();
  }
}
