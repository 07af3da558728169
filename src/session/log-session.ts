// The embedded default backend: one append-only JSONL file per session (log-lines.ts). Every
// write (appends, a compaction step) happens under the session's lock file (lock.ts), after
// reading what other processes wrote since, and is on disk (fsync) before it returns. A
// compaction runs the engine's compactStore on a PersistingStore; each step it commits is
// decided by the kernel against the log as it is under the lock (L9, decideLogCommit), its
// watermark moved only forward by the kernel (L10), and written as one line.

import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fsyncSync, linkSync, openSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import { writeConversationFile } from "../adapters/conversation-file.ts";
import type { FormatName } from "../adapters/detect.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import { gateAdvanceWatermark, gateDecideLogCommit } from "../engine/boundary/kernel-gate.ts";
import { compactStore } from "../engine/run/compact.ts";
import type { Plan } from "../engine/run/plan.ts";
import { dueBy } from "../engine/run/plan.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { PlannedAgainst } from "../engine/store/store.ts";
import { type Config, type ConfigInput, SAME_AS_AGENT } from "../model/config.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";
import type { Message, SummaryMessage } from "../model/message.ts";
import { tokenCounter } from "../model/tokens.ts";
import { summarizerFromConfig } from "../providers/from-config.ts";
import { withLock } from "./lock.ts";
import { readChunk, writeDurably } from "./log-file.ts";
import { compactionText, headerText, itemText, lineAt, setAsideText } from "./log-lines.ts";
import { LogState } from "./log-state.ts";
import { SessionPairing } from "./pairing.ts";
import { type PersistingStore, PersistingStore as Store } from "./persisting-store.ts";
import type { CompactionRecord } from "./record.ts";
import { itemOfMessage, messagesOf, readItems, replay } from "./replay.ts";
import type { Session, SessionCompactOptions, SessionOptions } from "./session.ts";

/** Creates the log with its header, atomically: a file that exists always has one. */
function create(path: string, format: FormatName): void {
  const tmp = `${path}.${process.pid}.${randomUUID()}.new`;
  const fd = openSync(tmp, "wx");
  try {
    writeDurably(fd, `${headerText(format, new Date().toISOString())}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    // created by another process meanwhile: open theirs
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(tmp);
  }
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** The index of the newest user message, or -1. */
function newestUser(ms: readonly Message[]): number {
  for (let i = ms.length - 1; i >= 0; i--) if (ms[i].role === "user") return i;
  return -1;
}

/** A session kept in an append-only JSONL log. */
export class LogSession implements Session {
  private closed = false;
  /** the tool pairing of the full history, read at the first append (pairing.ts) */
  private pairing: SessionPairing | undefined;

  private constructor(
    readonly location: string,
    private readonly fd: number,
    private readonly state: LogState,
    readonly format: FormatName,
  ) {}

  /** Opens (creating with `options.format` if absent) the log at `path`; never rewrites it. */
  static open(path: string, options: SessionOptions = {}): LogSession {
    if (!existsSync(path)) {
      if (options.format === undefined)
        throw new InputError("options.format", `${path} does not exist: creating a session needs its format`);
      create(path, options.format);
    }
    // read and append, never truncate: opening writes nothing
    const fd = openSync(path, "a+");
    try {
      const state = new LogState(path);
      state.apply(readChunk(fd, 0));
      if (state.format === undefined)
        throw new InputError(lineAt(path, 1), "not a safecut session log (no complete first line)");
      if (options.format !== undefined && options.format !== state.format)
        throw new InputError("options.format", `the session's format is ${state.format}, not ${options.format}`);
      const warn = options.onWarning ?? (() => {});
      for (const w of state.warnings) warn(w);
      if (state.tornBytes > 0)
        warn(
          `${lineAt(path, state.lines + 1)}: an incomplete last line (${state.tornBytes} bytes) is not read (a write in progress, or cut short: the next write sets it aside)`,
        );
      return new LogSession(path, fd, state, state.format);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  private get lockPath(): string {
    return `${this.location}.lock`;
  }

  private live(): void {
    if (this.closed) throw new SafecutError("usage", `the session ${this.location} is closed`);
  }

  /** Reads what was written since the last read. */
  private sync(): void {
    this.live();
    this.state.apply(readChunk(this.fd, this.state.offset));
  }

  /** Writes lines at the end of the log; the caller holds the lock and has synced. A torn tail is set aside first. */
  private writeLines(lines: readonly string[]): void {
    const s = this.state;
    const prefix = s.tornBytes > 0 ? `\n${setAsideText(s.lines + 1, s.tornBytes)}\n` : "";
    writeDurably(this.fd, `${prefix}${lines.join("\n")}\n`);
    this.sync();
  }

  async append(items: readonly Json[]): Promise<number> {
    if (!Array.isArray(items)) throw new InputError("items", "expected an array of items");
    return this.appendTexts(items.map((it) => JSON.stringify(it)));
  }

  async appendTexts(texts: readonly string[]): Promise<number> {
    this.live();
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
    const batch = readItems(texts, this.format);
    if (batch === undefined) {
      this.sync();
      return this.state.version;
    }
    return withLock(this.lockPath, () => {
      this.sync();
      // against everything the session holds now, whoever appended it
      const pairing = this.followPairing();
      try {
        pairing.extend(batch.messages, texts.length, itemOfMessage(batch));
        const first = this.state.version + 1;
        this.writeLines(texts.map((t, k) => itemText(first + k, t)));
      } catch (e) {
        // refused or not written: the pairing may hold some of the batch, read it again next time
        this.pairing = undefined;
        throw e;
      }
      return this.state.version;
    });
  }

  /** The pairing of the full history as read so far: built at the first use, then followed item by item. */
  private followPairing(): SessionPairing {
    const items = this.state.items;
    if (this.pairing === undefined) this.pairing = new SessionPairing(messagesOf(items, this.format), items.length);
    else if (this.pairing.items < items.length) {
      const since = items.slice(this.pairing.items);
      this.pairing.follow(messagesOf(since, this.format), since.length);
    }
    return this.pairing;
  }

  private replayed() {
    this.sync();
    return replay(this.state.items, this.state.entries, this.format);
  }

  async contextText(): Promise<string> {
    const { messages, file } = this.replayed();
    if (file === undefined) return "";
    return writeConversationFile(messages, {
      format: this.format,
      container: "jsonl",
      layout: file.layout,
      writeItems: file.writeItems,
    });
  }

  async context(): Promise<Json[]> {
    const text = await this.contextText();
    return text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Json);
  }

  async history(options: { readonly full?: boolean } = {}): Promise<string> {
    if (options.full !== true) return this.contextText();
    this.sync();
    return this.state.items.length === 0 ? "" : `${this.state.items.join("\n")}\n`;
  }

  async compactions(): Promise<CompactionRecord[]> {
    this.sync();
    return [...this.state.records];
  }

  async version(): Promise<number> {
    this.sync();
    return this.state.version;
  }

  async compact(config: ConfigInput | Config, options: SessionCompactOptions = {}): Promise<CompactionReport> {
    const c = parseConfig(config);
    const { messages } = this.replayed();
    const counter = options.counter ?? tokenCounter(c.tokenizer);
    const summarizer =
      options.summarizer ?? summarizerFromConfig(c, counter, options.env ?? process.env, options.agentModel);
    const model = c.model === SAME_AS_AGENT ? options.agentModel : c.model;
    const account = { summarizer: summarizer.name, ...(model === undefined ? {} : { model }) };
    const store = new Store(counter, messages, this.state.version, this.state.items.length, (st, p, s, e, sum) =>
      this.commitStep(st, p, s, e, sum, {
        ...account,
        trigger: () => dueBy(c, st.totalTokens, st.messages.length, st.userTurns),
      }),
    );
    return compactStore(store, c, {
      summarizer,
      agentModel: options.agentModel,
      signal: options.signal,
      onProgress: options.onProgress,
      maxSteps: options.maxSteps,
    });
  }

  /** One compaction step, under the lock: the kernel's decision against the log as it is now, then one line. */
  private commitStep(
    store: PersistingStore,
    planned: PlannedAgainst,
    start: number,
    end: number,
    summary: SummaryMessage,
    account: { readonly summarizer: string; readonly model?: string; readonly trigger: () => Plan["trigger"] },
  ) {
    return withLock(this.lockPath, () => {
      this.sync();
      const s = this.state;
      const plannedVersion = store.sessionVersionAt(planned.version);
      const plannedLength = "length" in planned ? planned.length : planned.messages.length;
      // items appended (by anyone) since the store last read the log
      const appended = messagesOf(s.items.slice(store.items), this.format);
      const decision = gateDecideLogCommit(
        { version: plannedVersion, length: plannedLength, stretchEnd: end },
        s.rewrites.slice(plannedVersion),
        store.messages.length + appended.length,
      );
      if (decision === "reject") return { decision, version: store.version };
      for (const m of appended) store.append(m);
      store.items = s.items.length;
      store.reflects(s.version);
      const tokensBefore = store.totalTokens;
      // the engine plans only when due, on at most this many items (one per message, or fewer for
      // Anthropic), and appends since can only add to every count a trigger reads
      // (not due any more: a run that was due goes on down to its low-water target)
      const fired = account.trigger();
      const trigger = fired === "none" ? "low-water" : fired;
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
        plannedVersion,
        committedVersion: s.version + 1,
        decision,
        watermark,
        time: new Date().toISOString(),
      };
      this.writeLines([compactionText(record.committedVersion, record)]);
      store.reflects(s.version);
      return out;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
