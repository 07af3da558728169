// What several bench scenarios share: the configuration they plan with, snapshots of generated
// conversations, and the bare chars/4 pass that planning and fresh decisions are compared with.

import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { ConversationStore, type StoreSnapshot } from "../src/engine/store/store.ts";
import type { Config } from "../src/model/config.ts";
import type { Message } from "../src/model/message.ts";
import { charCounter } from "../src/model/tokens.ts";
import { generateConversation } from "./conversation.ts";

/** The benchmark's configuration: the default trigger plus the keep-recent form, so the cut point is planned too. */
export function benchConfig(): Config {
  return parseConfig({
    token_threshold: 60_000,
    context_window: 200_000,
    reserve_tokens: 16_384,
    keep_recent_tokens: 20_000,
  });
}

/** A snapshot of a generated conversation of n messages (counted with the character heuristic: planning cost does not depend on the tokenizer). */
export function snapshotOf(n: number, seed = 1): StoreSnapshot {
  return new ConversationStore(charCounter(), generateConversation(n, { seed })).snapshot();
}

/**
 * The bare linear pass that the fresh decision is compared with: one loop estimating each
 * message's tokens as chars / 4 (its content and its tool calls' names and arguments), the
 * least any decision over the whole history must do.
 */
export function charsPass(messages: readonly Message[]): number {
  let t = 0;
  for (const m of messages) {
    let chars = m.content.length;
    if (m.role === "assistant") for (const c of m.toolCalls) chars += c.name.length + c.arguments.length;
    t += Math.ceil(chars / 4);
  }
  return t;
}
