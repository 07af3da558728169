// A session's context kept in memory as its entries are read: the engine's messages, the items
// to send (their text and parsed value), and the counts the triggers read (tokens under each
// counter asked for, items, user turns, user and system messages). Entries that only append
// (items, and records of stretches known not to shrink, which leave the context as it is) are
// followed item by item: the new items are read as a slice of the history, their lines added,
// their counts added. An entry that rewrites the context (a compaction, a clearing, a restore,
// whoever committed it) and an item read with the one after it (a Responses reasoning item
// ending what was read) make the next reading derive the whole context once from every entry
// (replay.ts), as opening the session does. Nothing is decided here.

import { writeConversationFile } from "../adapters/conversation-file.ts";
import type { FormatName } from "../adapters/detect.ts";
import { travelsWithNext } from "../adapters/responses.ts";
import { itemMapOf } from "../engine/run/item-map.ts";
import type { Json } from "../model/json.ts";
import type { Message } from "../model/message.ts";
import { messageBytes } from "../model/message-bytes.ts";
import { messageTokens, type TokenCounter } from "../model/tokens.ts";
import { oneLineItem, readItems, replay } from "./replay.ts";
import type { SessionState } from "./session-state.ts";

/** How many counters' token totals are kept (the oldest asked for is dropped first). */
const KEPT_COUNTERS = 4;

/** The counts the triggers read, of a session's context. */
export interface ContextCounts {
  /** the token total under the counter asked for */
  readonly tokens: number;
  /** the context's items (message_threshold counts them) */
  readonly items: number;
  readonly userTurns: number;
  /** user and system messages */
  readonly protectedMessages: number;
  /** the context's bytes (messageBytes of each message: the byte budget's count) */
  readonly bytes: number;
}

/** A parsed item, frozen: the same value is handed out at every step, and nobody may change it. */
function frozen(v: Json): Json {
  if (typeof v === "object" && v !== null) {
    for (const x of Object.values(v)) frozen(x);
    Object.freeze(v);
  }
  return v;
}

/** The context of a session as read so far; see the file comment. */
export class SessionContext {
  /** the session version it reflects; -1 before the first reading */
  private version = -1;
  /** how many of the session's items it has read */
  private itemsRead = 0;
  private messages: Message[] = [];
  /** the context's text, one item per line */
  private textValue = "";
  private values: Json[] = [];
  private items = 0;
  private userTurns = 0;
  private protectedMessages = 0;
  /** the byte total of the messages read (kept as they are read, like userTurns) */
  private bytes = 0;
  /** the token total under each counter asked for, kept from then on */
  private readonly tokens = new Map<TokenCounter, number>();
  /** the last item read waits for the next one to be read as it will be (travelsWithNext) */
  private lastWaits = false;
  /** items derive took as they are whose messages are not read yet (messagesNow); undefined: none */
  private unread: readonly string[] | undefined;

  constructor(private readonly format: FormatName) {}

  /** Brings the context up to the session's state as read (the caller has synced). */
  follow(s: SessionState): void {
    if (this.version === s.version) return;
    let appendsOnly = this.version >= 0 && !this.lastWaits;
    for (let k = this.version; appendsOnly && k < s.version; k++) appendsOnly = !s.rewrites[k];
    if (!appendsOnly) {
      this.derive(s);
      return;
    }
    if (s.items.length > this.itemsRead) this.add(s.items.slice(this.itemsRead));
    this.version = s.version;
    this.itemsRead = s.items.length;
  }

  /**
   * Reads every entry again (replay.ts), as an open does. A session nothing rewrote (items and
   * unshrinkable records only) has its items as its context: their text and values are taken as
   * they are, and their messages (what the counts and a compaction read, not context()) are read
   * when first asked for (messagesNow).
   */
  private derive(s: SessionState): void {
    const parsed = s.takeParsed();
    if (!s.rewrites.includes(true)) {
      const lines = s.items.map(oneLineItem);
      this.unread = s.items.slice();
      this.messages = [];
      this.textValue = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
      // each value as the reader parsed it, or parsed here
      this.values = lines.map((l, k) => frozen(parsed?.[k] ?? (JSON.parse(l) as Json)));
      this.items = 0;
      this.userTurns = 0;
      this.protectedMessages = 0;
      this.bytes = 0;
      this.tokens.clear();
      this.lastWaits = this.waits(s.items);
      this.version = s.version;
      this.itemsRead = s.items.length;
      return;
    }
    this.unread = undefined;
    const { messages, file } = replay(s.items, s.entries, this.format);
    const text =
      file === undefined
        ? ""
        : writeConversationFile(messages, {
            format: this.format,
            container: "jsonl",
            layout: file.layout,
            writeItems: file.writeItems,
          });
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    this.messages = messages;
    this.textValue = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    this.values = lines.map((l) => frozen(JSON.parse(l) as Json));
    this.items = itemMapOf(messages).items;
    this.userTurns = 0;
    this.protectedMessages = 0;
    this.bytes = 0;
    this.countRoles(messages);
    this.tokens.clear();
    this.lastWaits = this.waits(s.items);
    this.version = s.version;
    this.itemsRead = s.items.length;
  }

  /** Reads the messages of items derive took as they are, once (replay.ts reads them as a whole file, as an open does). */
  private messagesNow(): void {
    const unread = this.unread;
    if (unread === undefined) return;
    this.unread = undefined;
    const { messages } = replay(unread, [], this.format);
    this.messages = messages;
    this.items = itemMapOf(messages).items;
    this.countRoles(messages);
  }

  /** Adds items appended after everything read (no rewrite since): read as a slice of the history. */
  private add(texts: readonly string[]): void {
    this.messagesNow();
    const added = readItems(texts, this.format, true)?.messages ?? [];
    const lines = texts.map(oneLineItem);
    this.textValue += `${lines.join("\n")}\n`;
    for (const l of lines) this.values.push(frozen(JSON.parse(l) as Json));
    for (const m of added) this.messages.push(m);
    this.items += itemMapOf(added).items;
    this.countRoles(added);
    for (const [counter, total] of this.tokens) this.tokens.set(counter, total + tokensOf(counter, added));
    this.lastWaits = this.waits(texts);
  }

  private countRoles(ms: readonly Message[]): void {
    for (const m of ms) {
      if (m.role === "user") this.userTurns++;
      if (m.role === "user" || m.role === "system") this.protectedMessages++;
      this.bytes += messageBytes(m);
    }
  }

  /** Whether the last of these items is read with the one after it. */
  private waits(texts: readonly string[]): boolean {
    const last = texts.at(-1);
    if (this.format !== "responses" || last === undefined) return false;
    const v = JSON.parse(last) as Json;
    return typeof v === "object" && v !== null && !Array.isArray(v) && travelsWithNext(v);
  }

  /** The counts the triggers read, tokens under `counter` (counted once in full the first time it is asked for). */
  counts(counter: TokenCounter): ContextCounts {
    this.messagesNow();
    let tokens = this.tokens.get(counter);
    if (tokens === undefined) {
      tokens = tokensOf(counter, this.messages);
      // a caller making a new counter object at every call is counted in full every time; only the
      // last few counters' counts are kept, so such a caller does not make this grow
      if (this.tokens.size >= KEPT_COUNTERS) this.tokens.delete(this.tokens.keys().next().value as TokenCounter);
      this.tokens.set(counter, tokens);
    }
    return {
      tokens,
      items: this.items,
      userTurns: this.userTurns,
      protectedMessages: this.protectedMessages,
      bytes: this.bytes,
    };
  }

  /** The context as JSONL text, one item per line. */
  text(): string {
    return this.textValue;
  }

  /** The context's items (frozen values, in a new array). */
  itemValues(): Json[] {
    return this.values.slice();
  }
}

function tokensOf(counter: TokenCounter, ms: readonly Message[]): number {
  let t = 0;
  for (const m of ms) t += messageTokens(counter, m);
  return t;
}
