// A conversation with a version number, for compactions that run while the agent keeps
// talking: appends are accepted at any time; a compaction is planned against a snapshot and
// committed through the kernel's version check (L9), then spliced (L6) and the watermark
// advanced (L10). At most one compaction runs at a time. Given a provider's usage report, the
// first messages may be left uncounted until a decision reads their counts (ledger.ts). Each
// message's bytes (message-bytes.ts), for the byte budget (max_request_bytes), are counted when
// first read after a load and kept in step from then on (byte-counts.ts).

import type { CommitDecision } from "../../kernel/commit.ts";
import { InputError, SafecutError } from "../../model/errors.ts";
import type { Message, SummaryMessage } from "../../model/message.ts";
import { assertMessage, hasMessageShape } from "../../model/message-shape.ts";
import { messageTokens, type TokenCounter } from "../../model/tokens.ts";
import { pairingError, ToolPairing } from "../../model/tool-pairing.ts";
import { EXACT_LIMIT_NAME } from "../boundary/exact.ts";
import {
  gateAdvanceWatermark,
  gateDecideCommit,
  gatePairingAfterAppend,
  gatePairingOk,
  gatePinnedViews,
  gateSplice,
  gateStretchCoherent,
} from "../boundary/kernel-gate.ts";
import { assertWellFormed } from "../boundary/wellformed.ts";
import { ByteCounts } from "./byte-counts.ts";
import { GapArray } from "./gap-array.ts";
import { TokenLedger } from "./ledger.ts";
import { type Pin, PinnedFlags } from "./pins.ts";
import { KNOWN, type KnownCounts, type KnownOption } from "./store-known.ts";
import { UnshrinkableMemory } from "./unshrinkable.ts";
import { appendToViews, DeferredViews, type KernelViews, liveViews, plainViews, spliceViews } from "./views.ts";

/** Options of a store's load. */
export interface StoreOptions {
  /**
   * how many of the first messages may be left uncounted until something reads their counts (a
   * provider's usage report covers them: the trigger then reads only the counts after it); they
   * are counted in one pass on first demand. Default 0: every message is counted at load.
   */
  readonly uncounted?: number;
  /**
   * the stretches of this conversation known not to shrink (kept by the caller across one-shot
   * compactions of the same conversation); default: a fresh, empty memory
   */
  readonly unshrinkable?: UnshrinkableMemory;
}

/** What a compaction was planned against. */
export interface StoreSnapshot {
  readonly version: number;
  readonly messages: readonly Message[];
  /** per-message token counts, aligned with `messages` */
  readonly tokens: readonly number[];
  readonly totalTokens: number;
  /** per-message bytes (message-bytes.ts), aligned with `messages`, and their total */
  readonly bytes: readonly number[];
  readonly totalBytes: number;
}

/**
 * A read-only view of the store's current state, to plan one step against without copying the
 * history: its arrays are live read-only views of the store's own sequences (they show later
 * changes too, and refuse writes), so plan against it before the store next changes. While the
 * store has uncounted messages, reading one's entry in `tokens`, or `totalTokens`, counts them.
 */
export interface StoreView extends StoreSnapshot {
  /** number of messages when the view was taken (the live `messages` may have grown since) */
  readonly length: number;
  /** the kernel views of `messages`, kept incrementally by the store */
  readonly views: KernelViews;
}

/** What a planned commit is stamped with: a snapshot, or a view (whose length was fixed when taken), or only the version and length they had. */
export type PlannedAgainst = StoreSnapshot | StoreView | PlannedStamp;

/** The version and length of the store a change was planned against. */
export interface PlannedStamp {
  readonly version: number;
  readonly length: number;
}

/** A tool result (or call) replaced in place by its cleared version, with the new message's count. */
export interface ClearedReplacement {
  readonly index: number;
  readonly message: Message;
  readonly tokens: number;
}

/** One change a run committed on a copy of the store (a background run), to be adopted with the rest of the run. */
export type StagedChange =
  | { readonly kind: "splice"; readonly start: number; readonly end: number; readonly summary: SummaryMessage }
  | { readonly kind: "clearing"; readonly replaced: readonly ClearedReplacement[] };

/** The outcome of trying to commit a planned splice. */
export interface CommitOutcome {
  readonly decision: CommitDecision;
  readonly version: number;
}

/** A versioned conversation with incremental token counts. */
export class ConversationStore {
  /** the conversation, in a gap buffer so that a splice does not move the whole tail */
  private msgs = new GapArray<Message>([]);
  private readonly ledger: TokenLedger;
  /** each message's bytes (messageBytes) and their total, counted on first demand (byte-counts.ts) */
  private bytes = new ByteCounts(this.msgs);
  private ver = 0;
  /** version of the last change that was not an append */
  private lastRewrite = 0;
  private mark = 0;
  private busy = false;
  /** the messages appended while the running compaction (or the last one) ran, for its law checks */
  private appendedInRun: Message[] = [];
  /** kernel views of msgs, kept in step with it, with their tool-pairing index (views.ts: LiveViews, built when first read after a load) */
  private live = new DeferredViews();
  /** the pins planning applies (usePins), and the views with them applied at one version */
  private pins = new PinnedFlags([]);
  private pinned: { readonly version: number; readonly views: KernelViews } | undefined;
  /**
   * false after the views were (re)built from messages: their Pairing has not been checked yet.
   * Once checked, `live.paired` says whether it holds, and the store keeps it true only through
   * changes the gate confirms keep Pairing (an append's two entries, a coherent splice).
   */
  private liveTracked = false;
  /** index of the newest user message, or -1 (for the watermark, L10) */
  private newestUser = -1;
  /** stretches whose summaries were rejected as not shorter, moved along by every splice */
  readonly unshrinkable: UnshrinkableMemory;

  constructor(counter: TokenCounter, messages: readonly Message[] = [], options: StoreOptions = {}) {
    this.ledger = new TokenLedger(counter);
    this.unshrinkable = options.unshrinkable ?? new UnshrinkableMemory();
    const uncounted = options.uncounted ?? 0;
    const n = Array.isArray(messages) ? messages.length : 0;
    if (!Number.isSafeInteger(uncounted) || uncounted < 0 || uncounted > n)
      throw new InputError("options.uncounted", `expected an integer from 0 to ${n}, got ${uncounted}`);
    // on a conversation that is not well-formed, assertWellFormed throws the exact error
    if (!this.load(messages, uncounted, (options as KnownOption)[KNOWN])) {
      assertWellFormed(messages);
      throw new Error("internal: the store's load rejected a conversation that assertWellFormed accepts");
    }
  }

  /**
   * Reads a whole conversation in one pass: shape and pairing checks (assertWellFormed's), token
   * counts (a copy's `known` ones taken over, with its byte counts: store-known.ts) and which call
   * each result answers, with one id table (the kernel views are built from it when first read:
   * views.ts DeferredViews); the byte counts wait for their first reader (byte-counts.ts). Returns false at the first message not well-shaped or not well-paired (the caller
   * lets assertWellFormed word the error): its verdict, since a tool result is accepted only if an
   * earlier call has its id and no result yet, and a call only if no earlier call has its id. The
   * first `uncounted` messages are not counted here (see StoreOptions). */
  private load(messages: readonly Message[], uncounted: number, known?: KnownCounts): boolean {
    if (!Array.isArray(messages)) return false;
    const n = messages.length;
    const pairing = new ToolPairing();
    const counter = this.ledger.counter;
    const counts = new Array<number>(n); // every entry is set below, in order (0 for an uncounted one)
    const answers = new Int32Array(n); // 1 + the index of the call's message each result answers (0: none), for the views
    let newestUser = -1;
    let userTurns = 0;
    for (let i = 0; i < n; i++) {
      const m: unknown = messages[i];
      if (!hasMessageShape(m)) return false;
      // at load, a message's ordinal is its index; undefined: a duplicate id, an orphan, a result
      // before its call, or a second result
      const answered = pairing.add(m, i);
      if (answered === undefined) return false;
      if (m.role === "user") {
        newestUser = i;
        userTurns++;
      }
      counts[i] = known !== undefined ? known.tokens[i] : i < uncounted ? 0 : messageTokens(counter, m);
      if (answered >= 0) answers[i] = answered + 1;
    }
    const list = messages.slice();
    this.msgs = new GapArray(list);
    this.bytes = new ByteCounts(this.msgs, known?.bytes?.slice());
    // an uncounted message is read from msgs when counted: the ledger counts them all before a splice moves any
    this.ledger.adopt(counts, { uncounted, messageAt: (i) => this.msgs.at(i) });
    this.live.load(list, answers, pairing, userTurns);
    this.newestUser = newestUser;
    return true;
  }

  private push(m: Message): void {
    const live = this.live.now();
    // first: the ledger refuses a message that would pass the token bound, before anything changed
    this.ledger.appendChecked(m);
    if (m.role === "user") this.newestUser = this.msgs.length;
    this.msgs.push(m);
    this.bytes.push(m);
    const answered = appendToViews(live, m);
    // views not known to have Pairing stay unknown: the gate checks them in full at every use
    if (live.paired) live.paired = gatePairingAfterAppend(live, live.rolesAt.length - 1, answered);
  }

  /** Appends one message (one tokenizer call; the history is not recounted). */
  append(m: Message): void {
    const at = `messages[${this.msgs.length}]`;
    // only the new message is checked, so an append stays O(1) in the history
    assertMessage(m, at);
    // the views' pairing index, asked before anything changes (push updates it)
    const problem = this.live.now().pairing.problem(m);
    if (problem !== null) throw pairingError(at, problem);
    this.push(m);
    this.ver++;
    if (this.busy) this.appendedInRun.push(m);
  }

  /** The current messages: a read-only view that follows the store's later changes. */
  get messages(): readonly Message[] {
    return this.msgs.view();
  }
  /** Bumped by every change. */
  get version(): number {
    return this.ver;
  }
  /** The running token total (counting the uncounted messages first, if any). */
  get totalTokens(): number {
    return this.ledger.total;
  }
  /** The byte total of the messages (messageBytes each; the byte budget's count), counting them first after a load. */
  get totalBytes(): number {
    return this.bytes.total;
  }
  /** How many of the first messages are not counted yet (see StoreOptions); 0 once all are. */
  get uncounted(): number {
    return this.ledger.uncounted;
  }
  /** The counter this store counts with. */
  get counter(): TokenCounter {
    return this.ledger.counter;
  }
  /** The persisted compaction watermark: index just past the latest summary, clamped by the kernel (L10: only grows, never past the newest user message). */
  get watermark(): number {
    return this.mark;
  }

  /** Number of user messages (user turns). */
  get userTurns(): number {
    return this.live.userTurns;
  }

  /**
   * Sets the pins (setting `pin`, pins.ts) that the views handed to planning apply (the kernel's
   * pinnedOngoing, L15): no stretch and no clearing takes a pinned message. [] for none.
   */
  usePins(pins: readonly Pin[]): void {
    this.pins = new PinnedFlags(pins);
    this.pinned = undefined;
  }

  /** The live views with the pins applied, built once per version (O(n): only when pins are set). */
  private plannedViews(): KernelViews {
    const live = this.live.now();
    if (this.pins.pins.length === 0) return live;
    if (this.pinned?.version !== this.ver) {
      // the kernel reads every entry: plain copies (a live view's read is a property trap, a
      // pairing entry's a search over the ordinals)
      const plain = { ...plainViews(live), paired: live.paired };
      this.pinned = { version: this.ver, views: gatePinnedViews(plain, this.pins.of(this.msgs.slice())) };
    }
    return this.pinned.views;
  }

  /** A read-only view to plan one step against (O(1) unless the views must be rebuilt); see StoreView. */
  view(): StoreView {
    if (!this.liveTracked) {
      // views built from messages (untrusted input, or after an incoherent splice): Pairing is
      // checked in full once (on plain copies: reading every entry through the views would cost
      // a property trap per read); a failure leaves them unvouched, so the gate checks them in
      // full at every use and reports the violation
      const live = this.live.now();
      live.paired = gatePairingOk(plainViews(live));
      this.liveTracked = true;
    }
    // a total not known yet would count every message: only when read
    const ledger = this.ledger;
    const bytes = this.bytes;
    const tokensNow = ledger.uncounted === 0 ? ledger.total : undefined;
    const bytesNow = bytes.counted ? bytes.total : undefined;
    return {
      version: this.ver,
      length: this.msgs.length,
      messages: this.msgs.view(),
      tokens: ledger.countsView,
      bytes: bytes.view(),
      views: this.plannedViews(),
      get totalTokens() {
        return tokensNow ?? ledger.total;
      },
      get totalBytes() {
        return bytesNow ?? bytes.total;
      },
    };
  }

  /** A copy of the current messages, as a plain array the caller owns. */
  messageList(): Message[] {
    return this.msgs.slice();
  }

  /** A consistent copy to plan against. */
  snapshot(): StoreSnapshot {
    return {
      version: this.ver,
      messages: this.msgs.slice(),
      tokens: this.ledger.perMessage(),
      totalTokens: this.ledger.total,
      bytes: this.bytes.slice(),
      totalBytes: this.bytes.total,
    };
  }

  /** Marks a compaction as running; two compactions never overlap (L9). */
  beginCompaction(): void {
    if (this.busy) throw new SafecutError("usage", "a compaction is already running on this conversation");
    this.busy = true;
    this.appendedInRun = [];
  }

  /** The messages appended since the running (or last) compaction began, in order. */
  appendedDuringCompaction(): readonly Message[] {
    return this.appendedInRun;
  }

  /** Marks the running compaction as finished. */
  endCompaction(): void {
    this.busy = false;
  }

  /** L9: may a change planned against `planned`, touching nothing at or after `stretchEnd`, be applied now? */
  private decide(planned: PlannedAgainst, stretchEnd: number): CommitDecision {
    return gateDecideCommit(
      { version: planned.version, length: "length" in planned ? planned.length : planned.messages.length, stretchEnd },
      { version: this.ver, length: this.msgs.length, onlyAppends: this.lastRewrite <= planned.version },
    );
  }

  /**
   * Replaces [start, end) of the planned snapshot by `summary` if the kernel allows it
   * (commit: nothing changed; rebase: only appends since, so the indices still hold).
   */
  commitSplice(planned: PlannedAgainst, start: number, end: number, summary: SummaryMessage): CommitOutcome {
    // a caller may commit its own summary: a user or system message here would bypass L2
    if (assertMessage(summary, "summary").role !== "summary") {
      throw new InputError("summary.role", `expected "summary", got ${JSON.stringify(summary.role)}`);
    }
    const decision = this.decide(planned, end);
    if (decision === "reject") return { decision, version: this.ver };
    // the token total stays <= 2^53 - 1 (kept by appends too), checked before anything changes;
    // an out-of-range stretch is left to the splice's own boundary check below. Uncounted messages
    // are counted first: the ledger reads them by index, which the splice shifts.
    this.ledger.countAll();
    const t = this.ledger.countSummary(summary);
    if (Number.isSafeInteger(start) && 0 <= start && start < end && !this.ledger.spliceFits(start, end, t)) {
      throw new InputError("summary", `the conversation's token total would pass ${EXACT_LIMIT_NAME}`);
    }
    // in place: the history is not copied at every step (a StoreView taken before is stale now)
    gateSplice(this.msgs.view(), start, end);
    const live = this.live.now();
    this.bytes.splice(start, end, summary);
    this.msgs.replace(start, end, summary);
    this.ledger.splice(start, end, summary, t);
    if (live.paired && gateStretchCoherent(live, start, end)) spliceViews(live, start, end);
    else {
      // a stretch the kernel would not choose (a caller's own commit), or views not known to
      // have Pairing: rebuild and re-check
      this.live.set(liveViews(this.msgs.slice()));
      this.liveTracked = false;
    }
    this.unshrinkable.afterSplice(start, end);
    this.ver++;
    this.lastRewrite = this.ver;
    if (this.newestUser >= end) this.newestUser -= end - start - 1;
    else if (this.newestUser >= start) {
      // a user message was spliced away (only a caller's own commit does that): find the newest left
      this.newestUser = -1;
      for (let i = start; i >= 0; i--)
        if (this.msgs.at(i).role === "user") {
          this.newestUser = i;
          break;
        }
    }
    this.mark = gateAdvanceWatermark(this.mark, start + 1, this.newestUser);
    return { decision, version: this.ver };
  }

  /**
   * The commit the engine's run awaits: commitSplice here. A store whose conversation lives
   * elsewhere (a session: a log, a database) overrides it to decide and write there, which may
   * take I/O; the run does nothing else until it resolves.
   */
  commitSpliceAsync(
    planned: PlannedAgainst,
    start: number,
    end: number,
    summary: SummaryMessage,
  ): Promise<CommitOutcome> {
    return Promise.resolve(this.commitSplice(planned, start, end, summary));
  }

  /**
   * Replaces tool results in place by their cleared versions (L13), if the kernel allows it
   * against the planned snapshot (commit, or rebase over pure appends: positions still hold).
   * `replaced` pairs an index with its new message and that message's count; each replacement
   * must be a tool message answering the same call, or an assistant message with the same text
   * and the same calls (ids and names; clear_inputs), so the pairing views stay as they are.
   */
  commitClearing(
    planned: PlannedAgainst,
    replaced: readonly { readonly index: number; readonly message: Message; readonly tokens: number }[],
  ): CommitOutcome {
    const last = replaced.reduce((m, r) => Math.max(m, r.index), -1);
    const decision = this.decide(planned, last + 1);
    if (decision === "reject" || replaced.length === 0) return { decision, version: this.ver };
    for (const r of replaced) {
      if (!sameCalls(this.msgs.at(r.index), r.message))
        throw new Error(`internal: clearing message ${r.index} would change its role, its call ids or its text`);
    }
    this.live.now(); // the loaded list is msgs' own buffer: deferred views are built before it changes
    for (const r of replaced) {
      this.msgs.set(r.index, r.message);
      this.bytes.set(r.index, r.message);
      this.ledger.replaceCount(r.index, r.tokens);
    }
    this.ver++;
    this.lastRewrite = this.ver;
    return { decision, version: this.ver };
  }

  /** The clearing commit the engine's run awaits: commitClearing here; a session's store overrides it (as commitSpliceAsync). */
  commitClearingAsync(
    planned: PlannedAgainst,
    replaced: readonly { readonly index: number; readonly message: Message; readonly tokens: number }[],
  ): Promise<CommitOutcome> {
    return Promise.resolve(this.commitClearing(planned, replaced));
  }

  /**
   * Adopts at one step every change a run committed on a copy of this store taken at `planned`
   * (a background run): the kernel decides the adoption as one change touching everything before
   * the last position any of them touched (L9: commit, or rebase over pure appends since), then
   * they are applied in the run's order, each against the store as the one before left it (what
   * the copy saw). A rejected adoption applies none of them.
   */
  adopt(planned: PlannedStamp, changes: readonly StagedChange[]): CommitDecision {
    const end = changes.reduce(
      (e, ch) => Math.max(e, ch.kind === "splice" ? ch.end : ch.replaced.reduce((m, r) => Math.max(m, r.index + 1), 0)),
      0,
    );
    const decision = this.decide(planned, end);
    if (decision === "reject") return decision;
    for (const ch of changes) {
      const now = { version: this.ver, length: this.msgs.length };
      const done =
        ch.kind === "splice"
          ? this.commitSplice(now, ch.start, ch.end, ch.summary)
          : this.commitClearing(now, ch.replaced);
      if (done.decision !== "commit") throw new Error("internal: a step of an adopted run was not committed");
    }
    return decision;
  }

  /** Per-message byte counts (a copy; counting them first after a load). */
  byteCountsList(): number[] {
    return this.bytes.slice();
  }

  /** Per-message byte counts (a copy) if they are counted yet, else undefined (for a copy of the store, which then counts on its own demand). */
  countedBytes(): number[] | undefined {
    return this.bytes.countedCopy();
  }

  /** Per-message token counts (a copy). */
  tokenCounts(): number[] {
    return this.ledger.perMessage();
  }
}

/** `now` may stand for `was` in a clearing: a tool result of the same call, or an assistant message with the same text and calls (only arguments may differ). */
function sameCalls(was: Message, now: Message): boolean {
  if (was.role === "tool") return now.role === "tool" && now.toolCallId === was.toolCallId;
  if (was.role !== "assistant" || now.role !== "assistant" || now.content !== was.content) return false;
  const a = was.toolCalls;
  const b = now.toolCalls;
  return a.length === b.length && a.every((c, k) => c.id === b[k].id && c.name === b[k].name);
}
