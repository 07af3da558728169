// What every session backend shares: checking and reading appends (the format's adapter, the
// tool pairing against everything the session holds), rebuilding the context from the entries,
// running the engine on a PersistingStore, and taking the decision of each compaction step against
// the session as it is at the commit (the decisions themselves: commit-decisions.ts). A backend
// supplies only its reads and its guarded writes: the log under its lock file, PostgreSQL in a
// transaction holding the session's row. It does not parse a session's file (log-lines.ts,
// replay.ts) nor decide a commit itself (commit-decisions.ts).

import type { ConversationFile } from "../adapters/conversation-file.ts";
import type { FormatName } from "../adapters/detect.ts";
import { configForRun, parseConfig } from "../engine/boundary/config-rules.ts";
import { type MemoryCandidate, memoryCandidates } from "../engine/memory/candidates.ts";
import { adoptedReport } from "../engine/run/background.ts";
import { compactStore, summarizerCallsModel } from "../engine/run/compact.ts";
import { dueVerdict } from "../engine/run/due-verdict.ts";
import { notDueReport } from "../engine/run/not-due-report.ts";
import { budgetBytes, dueBy } from "../engine/run/plan.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { CommitOutcome } from "../engine/store/store.ts";
import { type Config, type ConfigInput, parseConfigShape, summaryModel } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import type { Message } from "../model/message.ts";
import { type TokenCounter, tokenCounter } from "../model/tokens.ts";
import { summarizerFromConfig } from "../providers/from-config.ts";
import { CallLedger } from "./call-ledger.ts";
import { decideClearing, decideStep, decideUnshrinkable } from "./commit-decisions.ts";
import { FoundMemory } from "./found-memory.ts";
import { SessionPairing } from "./pairing.ts";
import { PersistingStore } from "./persisting-store.ts";
import { shownLocation } from "./pg-location.ts";
import type { ClearingRecord, ClearRecord, CompactionRecord, PopRecord, RestoreRecord } from "./record.ts";
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
import type { StepDecision } from "./step-entries.ts";

export { type NewEntry, recordsOf, type StepAccount, type StepDecision, type StepEntry } from "./step-entries.ts";

import { StagedRun } from "./staged-run.ts";

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
    // parsed at this edge, the rules checked once with the model limits filled in (configForRun),
    // and handed down typed: the run takes the checked configuration as it is
    const parsed = parseConfigShape(config);
    const { config: c, limits } = configForRun(parsed, {
      ...(options.agentModel === undefined ? {} : { agentModel: options.agentModel }),
      summarizerCallsModel:
        options.summarizer === undefined ? parsed.provider !== "offline" : summarizerCallsModel(options.summarizer),
    });
    const counter = options.counter ?? tokenCounter(parsed.tokenizer);
    const summarizer =
      options.summarizer ?? summarizerFromConfig(parsed, counter, options.env ?? process.env, options.agentModel);
    // not due by the context's running counts (the kernel's trigger): the report of a run that changes
    // nothing, without loading a store or reading the history
    const counts = await this.contextCounts(counter);
    // decided once: the run takes this verdict (the trigger that fired) when its counts are these
    const due = dueVerdict(c, counts);
    const notDue = notDueReport(due, {
      ...counts,
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
      staged?.guards((st) => dueBy(c, st.totalTokens, st.messages.length, st.userTurns), candidates) ?? {
        splice: (st, p, s, e, sum) =>
          this.commitStep(() =>
            decideStep({ state: this.state, format: this.format }, st, p, s, e, sum, {
              ...account,
              trigger: () => dueBy(c, st.totalTokens, st.messages.length, st.userTurns, false, budgetBytes(c, st)),
            }),
          ),
        clearing: (st, p, replaced) =>
          this.commitStep(() => decideClearing({ state: this.state, format: this.format }, st, p, replaced)),
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
      due,
      hooks: { call: ledger.onCall },
    });
    const found = memory.foundIn(store.messages);
    if (staged !== undefined) {
      const { decision } = await this.commitStep(() => staged.decide(this.state, store, this.format, account, found));
      // the candidates of the records the run's one commit wrote (none when it was rejected)
      if (handed.length > 0) options.onMemoryCandidates?.(handed);
      return adoptedReport(report, decision, staged.changed);
    }
    if (found.length > 0)
      await this.commitStep(() => decideUnshrinkable({ state: this.state, format: this.format }, store, found, ledger));
    if (handed.length > 0) options.onMemoryCandidates?.(handed);
    return report;
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
