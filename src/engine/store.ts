// A conversation with a version number, for compactions that run while the agent keeps
// talking: appends are accepted at any time; a compaction is planned against a snapshot and
// committed through the kernel's version check (L9), then spliced (L6) and the watermark
// advanced (L10). At most one compaction runs at a time.
import { InputError, SafecutError } from "./errors.ts";
import { gateAdvanceWatermark, gateDecideCommit, gateSplice } from "./kernel-gate.ts";
import { TokenLedger } from "./ledger.ts";
import type { Message, SummaryMessage } from "./message.ts";
import { assertMessage } from "./message-shape.ts";
import type { TokenCounter } from "./tokens.ts";
import { assertWellFormed } from "./wellformed.ts";
import type { CommitDecision } from "../kernel/commit.ts";

/** What a compaction was planned against. */
export interface StoreSnapshot {
  readonly version: number;
  readonly messages: readonly Message[];
  /** per-message token counts, aligned with `messages` */
  readonly tokens: readonly number[];
  readonly totalTokens: number;
}

/** The outcome of trying to commit a planned splice. */
export interface CommitOutcome {
  readonly decision: CommitDecision;
  readonly version: number;
}

/** A versioned conversation with incremental token counts. */
export class ConversationStore {
  private msgs: Message[] = [];
  private readonly ledger: TokenLedger;
  private ver = 0;
  /** version of the last change that was not an append */
  private lastRewrite = 0;
  private mark = 0;
  private busy = false;
  private readonly callIds = new Set<string>();
  private readonly answered = new Set<string>();

  constructor(counter: TokenCounter, messages: readonly Message[] = []) {
    assertWellFormed(messages);
    this.ledger = new TokenLedger(counter);
    for (const m of messages) this.push(m);
  }

  private push(m: Message): void {
    if (m.role === "assistant") for (const c of m.toolCalls) this.callIds.add(c.id);
    if (m.role === "tool") this.answered.add(m.toolCallId);
    this.msgs.push(m);
    this.ledger.append(m);
  }

  /** Appends one message (one tokenizer call; the history is not recounted). */
  append(m: Message): void {
    const at = `messages[${this.msgs.length}]`;
    // only the new message is checked, so an append stays O(1) in the history
    assertMessage(m, at);
    if (m.role === "assistant") {
      const seen = new Set<string>();
      for (const c of m.toolCalls) {
        if (this.callIds.has(c.id) || seen.has(c.id)) throw new InputError(at, `duplicate tool call id "${c.id}"`);
        seen.add(c.id);
      }
    }
    if (m.role === "tool") {
      if (!this.callIds.has(m.toolCallId)) throw new InputError(at, `orphan tool result: no tool call has id "${m.toolCallId}"`);
      if (this.answered.has(m.toolCallId)) throw new InputError(at, `second tool result for "${m.toolCallId}"`);
    }
    this.push(m);
    this.ver++;
  }

  /** The current messages (do not mutate). */
  get messages(): readonly Message[] {
    return this.msgs;
  }
  /** Bumped by every change. */
  get version(): number {
    return this.ver;
  }
  /** The running token total. */
  get totalTokens(): number {
    return this.ledger.total;
  }
  /** The counter this store counts with. */
  get counter(): TokenCounter {
    return this.ledger.counter;
  }
  /** The persisted compaction watermark: index just past the latest summary, clamped by the kernel (L10: only grows, never past the newest user message). */
  get watermark(): number {
    return this.mark;
  }

  /** A consistent copy to plan against. */
  snapshot(): StoreSnapshot {
    return { version: this.ver, messages: this.msgs.slice(), tokens: this.ledger.perMessage(), totalTokens: this.ledger.total };
  }

  /** Marks a compaction as running; two compactions never overlap (L9). */
  beginCompaction(): void {
    if (this.busy) throw new SafecutError("usage", "a compaction is already running on this conversation");
    this.busy = true;
  }

  /** Marks the running compaction as finished. */
  endCompaction(): void {
    this.busy = false;
  }

  /**
   * Replaces [start, end) of the planned snapshot by `summary` if the kernel allows it
   * (commit: nothing changed; rebase: only appends since, so the indices still hold).
   */
  commitSplice(planned: StoreSnapshot, start: number, end: number, summary: SummaryMessage): CommitOutcome {
    // a caller may commit its own summary: a user or system message here would bypass L2
    if (assertMessage(summary, "summary").role !== "summary") {
      throw new InputError("summary.role", `expected "summary", got ${JSON.stringify(summary.role)}`);
    }
    const decision = gateDecideCommit(
      { version: planned.version, length: planned.messages.length, stretchEnd: end },
      { version: this.ver, length: this.msgs.length, onlyAppends: this.lastRewrite <= planned.version },
    );
    if (decision === "reject") return { decision, version: this.ver };
    this.msgs = gateSplice(this.msgs, start, end, summary as Message);
    this.ledger.splice(start, end, summary);
    this.ver++;
    this.lastRewrite = this.ver;
    let newestUser = -1;
    for (let i = this.msgs.length - 1; i >= 0; i--) if (this.msgs[i].role === "user") { newestUser = i; break; }
    this.mark = gateAdvanceWatermark(this.mark, start + 1, newestUser);
    return { decision, version: this.ver };
  }

  /** Per-message token counts (a copy). */
  tokenCounts(): number[] {
    return this.ledger.perMessage();
  }
}
