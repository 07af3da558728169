// What every session backend shares: checking and reading appends (the format's adapter, the
// tool pairing against everything the session holds), rebuilding the context from the entries,
// running the engine on a PersistingStore, and the decision of each compaction step against the
// session as it is at the commit. A backend supplies only its reads and its guarded writes: the
// log under its lock file, PostgreSQL in a transaction holding the session's row.

import type { ConversationFile } from "../adapters/conversation-file.ts";
import type { FormatName } from "../adapters/detect.ts";
import { configForRun, parseConfig } from "../engine/boundary/config-rules.ts";
import { gateAdvanceWatermark, gateDecideLogCommit } from "../engine/boundary/kernel-gate.ts";
import { type MemoryCandidate, memoryCandidates } from "../engine/memory/candidates.ts";
import { adoptedReport } from "../engine/run/background.ts";
import { compactStore, summarizerCallsModel } from "../engine/run/compact.ts";
import { notDueReport } from "../engine/run/not-due-report.ts";
import type { Plan } from "../engine/run/plan.ts";
import { dueBy } from "../engine/run/plan.ts";
import { type CompactionReport, stepTriggerOf } from "../engine/run/report.ts";
import type { CommitOutcome, PlannedAgainst } from "../engine/store/store.ts";
import type { CommitDecision } from "../kernel/commit.ts";
import { type Config, type ConfigInput, summaryModel } from "../model/config.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import type { Message, SummaryMessage } from "../model/message.ts";
import { type TokenCounter, tokenCounter } from "../model/tokens.ts";
import { summarizerFromConfig } from "../providers/from-config.ts";
import { CallLedger } from "./call-ledger.ts";
import { FoundMemory } from "./found-memory.ts";
import { SessionPairing } from "./pairing.ts";
import { PersistingStore, type Replacements } from "./persisting-store.ts";
import { shownLocation } from "./pg-location.ts";
import type {
  ClearingRecord,
  ClearRecord,
  CompactionRecord,
  PopRecord,
  RestoreRecord,
  StretchBounds,
  UnshrinkableRecord,
} from "./record.ts";
import {
  itemOfMessage,
  messagesOf,
  newestItemMessages,
  readItems,
  replay,
  restoredArguments,
  spansOf,
} from "./replay.ts";
import type { Session, SessionCompactOptions } from "./session.ts";
import { type ContextCounts, SessionContext } from "./session-context.ts";
import type { SessionState } from "./session-state.ts";
import type { SessionStats } from "./session-stats.ts";
import { statsOf } from "./session-stats.ts";
import { clearedParts, newestUser, StagedRun, unshrinkableRecord } from "./staged-run.ts";

/** The account of a compaction run, written into each of its records. */
export interface StepAccount {
  readonly summarizer: string;
  readonly model?: string;
  /** the trigger reached, read on the store just before the splice */
  readonly trigger: () => Plan["trigger"];
  /** the run's summarizer calls, accounted to its steps */
  readonly ledger: CallLedger;
  /** the memory flush candidates of the stretch [start, end) of `messages` (memory_candidates > 0), else undefined */
  readonly candidates?: (messages: readonly Message[], start: number, end: number) => MemoryCandidate[];
  /** the candidates of the records the run wrote, in commit order (handed to onMemoryCandidates after it) */
  readonly handed: MemoryCandidate[];
}

/** A record to write, of its kind. */
export type StepEntry =
  | { readonly kind: "compaction"; readonly record: CompactionRecord }
  | { readonly kind: "clearing"; readonly record: ClearingRecord }
  | { readonly kind: "restore"; readonly record: RestoreRecord }
  | { readonly kind: "unshrinkable"; readonly record: UnshrinkableRecord }
  | { readonly kind: "pop"; readonly record: PopRecord }
  | { readonly kind: "clear"; readonly record: ClearRecord };

/** What one guarded write writes: a record, or a run's records together (staged-run.ts), numbered in sequence. */
export type NewEntry = StepEntry | { readonly kind: "run"; readonly entries: readonly StepEntry[] };

/** The records of an entry to write, in order. */
export function recordsOf(e: NewEntry): readonly StepEntry[] {
  return e.kind === "run" ? e.entries : [e];
}

/** A step's decision at the commit: rejected, or applied to the store with the entry to write. */
export interface StepDecision {
  readonly outcome: CommitOutcome;
  readonly entry?: NewEntry;
}

/** An append refused because items were appended since the version it was checked against. */
class AppendedSince extends Error {}

/** A session whose entries are read into a SessionState; backends supply the reads and guarded writes. */
export abstract class StoredSession<S extends SessionState = SessionState> implements Session {
  /** the tool pairing of the full history, read at the first append (pairing.ts); of the context once an item was taken out */
  private pairing: SessionPairing | undefined;
  /** the session's pop and clear entries when the pairing was read */
  private pairingTakenOut = 0;
  /** the context as read so far, with the counts the triggers read */
  private readonly ctx: SessionContext;

  protected constructor(
    readonly location: string,
    protected readonly state: S,
    readonly format: FormatName,
  ) {
    this.ctx = new SessionContext(format);
  }

  /** Reads what was written since the last read. */
  protected abstract sync(): Promise<void>;
  /**
   * Writes the items, guarded: with the session's writers excluded, reads what was written
   * since, runs `check` (which throws to refuse the batch), then writes them in one durable
   * write. Resolves to the session's version after them.
   */
  protected abstract writeItems(texts: readonly string[], check: () => void): Promise<number>;
  /** One compaction step, guarded: reads what was written since, `decide`s, and writes its record in one durable write. */
  protected abstract commitStep(decide: () => StepDecision): Promise<CommitOutcome>;
  abstract close(): Promise<void>;

  async append(items: readonly Json[]): Promise<number> {
    if (!Array.isArray(items)) throw new InputError("items", "expected an array of items");
    return this.appendTexts(items.map((it) => JSON.stringify(it)));
  }

  async appendTexts(texts: readonly string[]): Promise<number> {
    return (await this.appendChecked(texts, undefined)) as number;
  }

  async appendSince(version: number, items: readonly Json[]): Promise<number | undefined> {
    if (!Number.isSafeInteger(version) || version < 0)
      throw new InputError("version", `expected a session version (an integer >= 0), got ${String(version)}`);
    if (!Array.isArray(items)) throw new InputError("items", "expected an array of items");
    return this.appendChecked(
      items.map((it) => JSON.stringify(it)),
      version,
    );
  }

  /**
   * Appends the items in one guarded write; with `since`, refused (undefined, nothing written)
   * when an item was appended after session version `since`, as read under the writers' exclusion.
   */
  private async appendChecked(texts: readonly string[], since: number | undefined): Promise<number | undefined> {
    if (!Array.isArray(texts)) throw new InputError("texts", "expected an array of item texts");
    texts.forEach((t, i) => {
      let v: Json;
      try {
        v = JSON.parse(t) as Json;
      } catch (e) {
        throw new InputError(`items[${i}]`, `not JSON: ${(e as Error).message}`);
      }
      if (!isJsonObject(v)) throw new InputError(`items[${i}]`, "expected a JSON object");
    });
    // the format's adapter reads them (an unknown role, a malformed part is refused here)
    const batch = readItems(texts, this.format, true);
    if (batch === undefined) {
      await this.sync();
      return this.state.version;
    }
    try {
      return await this.writeItems(texts, () => {
        if (since !== undefined && this.appendedSince(since)) throw new AppendedSince();
        this.checkPairing(batch, texts.length);
      });
    } catch (e) {
      if (e instanceof AppendedSince) return undefined;
      throw e;
    }
  }

  /** Whether an item was appended after session version `v` (the caller has read everything written). */
  private appendedSince(v: number): boolean {
    const es = this.state.entries;
    if (v > es.length) throw new InputError("version", `the session is at version ${es.length}, not yet ${v}`);
    // a pop or a clear changed the context the items would continue: refused too
    for (let k = v; k < es.length; k++)
      if (es[k].kind === "item" || es[k].kind === "pop" || es[k].kind === "clear") return true;
    return false;
  }

  /** Checks a batch's tool pairing against everything the session holds now, whoever appended it. */
  private checkPairing(batch: ConversationFile, items: number): void {
    const pairing = this.followPairing();
    try {
      pairing.extend(batch.messages, items, itemOfMessage(batch));
    } catch (e) {
      // refused: the pairing may hold some of the batch, read it again next time
      this.pairing = undefined;
      throw e;
    }
  }

  /** Forgets the pairing (a batch it was extended with was not written after all). */
  protected dropPairing(): void {
    this.pairing = undefined;
  }

  /** The pairing of the full history as read so far: built at the first use, then followed item by item. */
  private followPairing(): SessionPairing {
    const items = this.state.items;
    if (this.pairingTakenOut !== this.state.takenOut) this.pairing = undefined;
    if (this.pairing === undefined && this.state.takenOut > 0) {
      // items were taken out of the context: an append continues the context, not the history
      this.pairingTakenOut = this.state.takenOut;
      this.pairing = new SessionPairing(replay(items, this.state.entries, this.format).messages, items.length);
    } else if (this.pairing === undefined)
      this.pairing = new SessionPairing(messagesOf(items, this.format), items.length);
    else if (this.pairing.items < items.length) {
      const since = items.slice(this.pairing.items);
      this.pairing.follow(messagesOf(since, this.format), since.length);
    }
    return this.pairing;
  }

  /** The context as read now: what was written since is read, and followed (session-context.ts). */
  private async current(): Promise<SessionContext> {
    await this.sync();
    this.ctx.follow(this.state);
    return this.ctx;
  }

  async contextText(): Promise<string> {
    return (await this.current()).text();
  }

  async context(): Promise<Json[]> {
    return (await this.current()).itemValues();
  }

  async contextCounts(counter: TokenCounter): Promise<ContextCounts> {
    return (await this.current()).counts(counter);
  }

  async history(options: { readonly full?: boolean } = {}): Promise<string> {
    if (options.full !== true) return this.contextText();
    await this.sync();
    return this.state.items.length === 0 ? "" : `${this.state.items.join("\n")}\n`;
  }

  async compactions(): Promise<CompactionRecord[]> {
    await this.sync();
    return [...this.state.records];
  }

  async stats(options: { readonly counter?: TokenCounter } = {}): Promise<SessionStats> {
    const counter = options.counter ?? tokenCounter(parseConfig({}).tokenizer);
    const { items, tokens } = await this.contextCounts(counter);
    return statsOf(this.state.entries, this.state.items.length, { items, tokens, tokenizer: counter.name });
  }

  async version(): Promise<number> {
    await this.sync();
    return this.state.version;
  }

  async compact(config: ConfigInput | Config, options: SessionCompactOptions = {}): Promise<CompactionReport> {
    const parsed = parseConfig(config);
    const counter = options.counter ?? tokenCounter(parsed.tokenizer);
    const summarizer =
      options.summarizer ?? summarizerFromConfig(parsed, counter, options.env ?? process.env, options.agentModel);
    // the model limits (the catalogue's, or the settings'): the trigger below and the run judge with them
    const { config: c, limits } = configForRun(parsed, {
      ...(options.agentModel === undefined ? {} : { agentModel: options.agentModel }),
      summarizerCallsModel: summarizerCallsModel(summarizer),
    });
    // not due by the context's running counts (the kernel's trigger): the report of a run that changes
    // nothing, without loading a store or reading the history
    const notDue = notDueReport(c, {
      ...(await this.contextCounts(counter)),
      // the store a run loads starts at watermark 0
      watermark: 0,
      summarizer: summarizer.name,
      tokenizer: counter.name,
      modelLimits: limits,
    });
    if (notDue !== undefined) return notDue;
    // the stretches known not to shrink, as the session's records say; what this run finds is kept apart
    const memory = new FoundMemory();
    const { messages } = replay(this.state.items, this.state.entries, this.format, memory);
    memory.track();
    const model = summaryModel(c.model, options.agentModel);
    const ledger = new CallLedger();
    const handed: MemoryCandidate[] = [];
    // the candidates of each step's stretch, stored with its record (the password of a location never shown)
    const sessionId = options.sessionId ?? shownLocation(this.location);
    const candidates =
      c.memory_candidates === 0
        ? undefined
        : (ms: readonly Message[], start: number, end: number) =>
            memoryCandidates({
              messages: ms,
              first: start,
              last: end - 1,
              sessionId,
              max: c.memory_candidates,
              bytes: c.memory_candidate_bytes,
              time: new Date().toISOString(),
            });
    const account = {
      summarizer: summarizer.name,
      ...(model === undefined ? {} : { model }),
      ledger,
      handed,
      ...(candidates === undefined ? {} : { candidates }),
    };
    // adopted at one step: the run's steps stay in memory and are written together at its end
    const staged =
      options.atOneStep === true && options.dryRun !== true
        ? new StagedRun({ version: this.state.version, length: messages.length, items: this.state.items.length })
        : undefined;
    const store = new PersistingStore(
      counter,
      messages,
      this.state.version,
      this.state.items.length,
      staged?.guards((st) => dueBy(c, st.totalTokens, st.messages.length, st.userTurns)) ?? {
        splice: (st, p, s, e, sum) =>
          this.commitStep(() =>
            this.decideStep(st, p, s, e, sum, {
              ...account,
              trigger: () => dueBy(c, st.totalTokens, st.messages.length, st.userTurns, false, st.totalBytes),
            }),
          ),
        clearing: (st, p, replaced) => this.commitStep(() => this.decideClearing(st, p, replaced)),
      },
      memory,
    );
    const report = await compactStore(store, c, {
      summarizer,
      agentModel: options.agentModel,
      signal: options.signal,
      onProgress: options.onProgress,
      onState: options.onState,
      // plans the first step and writes nothing
      dryRun: options.dryRun,
      maxSteps: options.maxSteps,
      limits,
      hooks: { call: ledger.onCall },
    });
    const found = memory.foundIn(store.messages);
    if (staged !== undefined) {
      const { decision } = await this.commitStep(() => staged.decide(this.state, store, this.format, account, found));
      return adoptedReport(report, decision, staged.changed);
    }
    if (found.length > 0) await this.commitStep(() => this.decideUnshrinkable(store, found, ledger));
    if (handed.length > 0) options.onMemoryCandidates?.(handed);
    return report;
  }

  /**
   * The stretches the run found not to shrink, as one record, against the session as read now:
   * written only if the kernel's log commit rule says their positions in the store still name them
   * in the session (nothing but appends since the store last reflected it), else dropped (a later
   * run may pay for them again, nothing else is lost).
   */
  private decideUnshrinkable(
    store: PersistingStore,
    found: readonly StretchBounds[],
    ledger: CallLedger,
  ): StepDecision {
    const s = this.state;
    const last = found.reduce((m, x) => Math.max(m, x.end), 0);
    const { decision } = this.decideOnLog(store, store.view(), last);
    if (decision === "reject") return { outcome: { decision, version: store.version } };
    const version = s.version + 1;
    const record = unshrinkableRecord(s, store, found, ledger, version);
    return { outcome: { decision, version }, entry: { kind: "unshrinkable", record } };
  }

  /**
   * A step's decision against the session as read now (the caller excludes other writers and
   * has synced): the kernel's log commit rule (L9) over the entries written since the plan; if
   * it allows the step, the store takes the items appended since, applies the splice, and the
   * watermark moves only forward (L10). Returns the record to write.
   */
  private decideStep(
    store: PersistingStore,
    planned: PlannedAgainst,
    start: number,
    end: number,
    summary: SummaryMessage,
    account: StepAccount,
  ): StepDecision {
    const s = this.state;
    const { decision, plannedVersion } = this.decideOnLog(store, planned, end);
    if (decision === "reject") return { outcome: { decision, version: store.version } };
    const tokensBefore = store.totalTokens;
    // the engine starts a run only when due, on at most this many items (one per message, or fewer
    // for Anthropic), and appends since can only add to every count a trigger reads; a step under
    // every trigger is one of a run that was due going on down to its target
    const calls = account.ledger.forStep(store.messages.slice(start, end), s.version + 1);
    const candidates = account.candidates?.(store.messages, start, end) ?? [];
    const fired = account.trigger();
    const trigger = stepTriggerOf(fired);
    const out = store.applySplice(planned, start, end, summary);
    if (out.decision !== decision)
      throw new SafecutError("internal", `the session decided ${decision}, its store ${out.decision}`);
    // L10, checked where the data lives: the persisted watermark only moves forward
    const watermark = gateAdvanceWatermark(s.watermark, start + 1, newestUser(store.messages));
    if (watermark < s.watermark)
      throw new SafecutError("internal", `the watermark would move back from ${s.watermark} to ${watermark}`);
    const record: CompactionRecord = {
      items: s.items.length,
      start,
      end,
      summary: summary.content,
      trigger,
      tokensBefore,
      tokensAfter: store.totalTokens,
      summarizer: account.summarizer,
      ...(account.model === undefined ? {} : { model: account.model }),
      ...calls,
      ...(candidates.length === 0 ? {} : { memoryCandidates: candidates }),
      plannedVersion,
      committedVersion: s.version + 1,
      decision,
      watermark,
      time: new Date().toISOString(),
    };
    // the store now reflects the session with this record written
    store.reflects(record.committedVersion);
    account.handed.push(...candidates);
    return { outcome: out, entry: { kind: "compaction", record } };
  }

  /**
   * The kernel's log commit rule (L9) for a change planned on the store that touches nothing at
   * or after `stretchEnd`, against the entries written since the plan; unless it rejects, the
   * store takes the items appended since (by anyone) and reflects the session as read now.
   */
  private decideOnLog(
    store: PersistingStore,
    planned: PlannedAgainst,
    stretchEnd: number,
  ): { decision: CommitDecision; plannedVersion: number } {
    const s = this.state;
    const plannedVersion = store.sessionVersionAt(planned.version);
    const plannedLength = "length" in planned ? planned.length : planned.messages.length;
    const appended = messagesOf(s.items.slice(store.items), this.format);
    const decision = gateDecideLogCommit(
      { version: plannedVersion, length: plannedLength, stretchEnd },
      s.rewrites.slice(plannedVersion),
      store.messages.length + appended.length,
    );
    if (decision === "reject") return { decision, plannedVersion };
    for (const m of appended) store.append(m);
    store.items = s.items.length;
    store.reflects(s.version);
    return { decision, plannedVersion };
  }

  /** A clearing's decision against the session as read now (as decideStep): the results' contents replaced, one record. */
  private decideClearing(store: PersistingStore, planned: PlannedAgainst, replaced: Replacements): StepDecision {
    const s = this.state;
    const last = replaced.reduce((m, r) => Math.max(m, r.index), -1);
    const { decision, plannedVersion } = this.decideOnLog(store, planned, last + 1);
    if (decision === "reject" || replaced.length === 0) return { outcome: { decision, version: store.version } };
    const tokensBefore = store.totalTokens;
    const before = store.tokenCounts();
    const prior = replaced.map((r) => store.messages[r.index]);
    const out = store.applyClearing(planned, replaced);
    if (out.decision !== decision)
      throw new SafecutError("internal", `the session decided ${decision}, its store ${out.decision}`);
    const { results, inputs } = clearedParts(
      replaced,
      prior,
      replaced.map((r) => before[r.index]),
    );
    const record: ClearingRecord = {
      items: s.items.length,
      results,
      ...(inputs.length === 0 ? {} : { inputs }),
      tokensBefore,
      tokensAfter: store.totalTokens,
      plannedVersion,
      committedVersion: s.version + 1,
      decision,
      time: new Date().toISOString(),
    };
    store.reflects(record.committedVersion);
    return { outcome: out, entry: { kind: "clearing", record } };
  }

  async clearings(): Promise<(ClearingRecord | RestoreRecord)[]> {
    await this.sync();
    return [...this.state.clearings];
  }

  /**
   * Takes the newest item out of the context (with the items read together with it: a Responses
   * reasoning item before the item it travels with) as one guarded write, a pop record; the item
   * stays in the history. Resolves to the items taken out, as the context held them, or undefined
   * (nothing written) when the context is empty or ends with a summary (its newest item was
   * summarized away). A compaction planned before it is rejected (L9: a rewrite).
   */
  async pop(): Promise<Json[] | undefined> {
    let taken: Json[] | undefined;
    await this.commitStep(() => {
      const s = this.state;
      taken = undefined;
      const { messages, file } = replay(s.items, s.entries, this.format);
      const at = file === undefined ? undefined : newestItemMessages(messages, spansOf(file));
      if (at === undefined) return { outcome: { decision: "reject", version: s.version } };
      this.ctx.follow(s);
      taken = this.ctx.itemValues().slice(-(at.last - at.first + 1));
      const record: PopRecord = {
        items: s.items.length,
        ...at,
        committedVersion: s.version + 1,
        time: new Date().toISOString(),
      };
      return { outcome: { decision: "commit", version: record.committedVersion }, entry: { kind: "pop", record } };
    });
    return taken;
  }

  /**
   * Empties the context as one guarded write, a clear record: the conversation starts again from
   * the items appended after it; every item stays in the history. Nothing is written when the
   * context is empty. Resolves to the session's version after it.
   */
  async clear(): Promise<number> {
    await this.commitStep(() => {
      const s = this.state;
      this.ctx.follow(s);
      if (this.ctx.itemValues().length === 0) return { outcome: { decision: "reject", version: s.version } };
      const record: ClearRecord = {
        items: s.items.length,
        committedVersion: s.version + 1,
        time: new Date().toISOString(),
      };
      return { outcome: { decision: "commit", version: record.committedVersion }, entry: { kind: "clear", record } };
    });
    return this.state.version;
  }

  /**
   * Brings the cleared result of the tool call `toolCallId` back into the context (its original
   * text, kept in the session), and its call's arguments when clear_inputs cleared them, as one
   * guarded write. Refused when the context holds no cleared
   * result of that call (never cleared, restored already, or summarized away since). Resolves to
   * the session's version after it.
   */
  async restore(toolCallId: string): Promise<number> {
    if (typeof toolCallId !== "string" || toolCallId === "")
      throw new InputError("toolCallId", "expected a tool call id");
    await this.commitStep(() => {
      const s = this.state;
      const { messages } = replay(s.items, s.entries, this.format);
      const index = messages.findIndex((m) => m.role === "tool" && m.toolCallId === toolCallId);
      const m = messages[index];
      if (m?.role !== "tool")
        throw new InputError(
          "toolCallId",
          `the context holds no result of ${toolCallId} (never appended, or summarized)`,
        );
      if (m.clearedFrom === undefined) throw new InputError("toolCallId", `the result of ${toolCallId} is not cleared`);
      // the call's arguments come back too when clear_inputs cleared them
      const call = messages.findIndex((a) => a.role === "assistant" && restoredArguments(a, toolCallId) !== undefined);
      const record: RestoreRecord = {
        items: s.items.length,
        toolCallId,
        index,
        ...(call < 0 ? {} : { call }),
        committedVersion: s.version + 1,
        time: new Date().toISOString(),
      };
      return { outcome: { decision: "commit", version: record.committedVersion }, entry: { kind: "restore", record } };
    });
    return this.state.version;
  }
}
