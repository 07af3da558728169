// What a reader knows of a session, whatever keeps it: the items (original text) and compaction
// records in order, the entry kinds the kernel's log commit rule reads, the last sequence number
// (the session's version) and the watermark. Entries are added in sequence order, from an open
// or a later incremental read; every inconsistency is refused naming where the entry lies (a
// log's line, a database's row).

import type { FormatName } from "../adapters/detect.ts";
import { InputError } from "../model/errors.ts";
import type { Json } from "../model/json.ts";
import type { EntryLine } from "./log-lines.ts";
import type {
  ClearingRecord,
  ClearRecord,
  CompactionRecord,
  PopRecord,
  RestoreRecord,
  UnshrinkableRecord,
} from "./record.ts";

/** An item or a record, in order: an item's index among items, a record's place (`FILE line N`, a row). */
export type Entry =
  | { readonly kind: "item"; readonly index: number }
  | { readonly kind: "compaction"; readonly record: CompactionRecord; readonly where: string }
  | { readonly kind: "clearing"; readonly record: ClearingRecord; readonly where: string }
  | { readonly kind: "restore"; readonly record: RestoreRecord; readonly where: string }
  | { readonly kind: "unshrinkable"; readonly record: UnshrinkableRecord; readonly where: string }
  | { readonly kind: "pop"; readonly record: PopRecord; readonly where: string }
  | { readonly kind: "clear"; readonly record: ClearRecord; readonly where: string };

/** The in-memory reading of one session. */
export class SessionState {
  format: FormatName | undefined;
  /** original text of every item, in order */
  readonly items: string[] = [];
  readonly records: CompactionRecord[] = [];
  /** the clearing steps and restores, in order */
  readonly clearings: (ClearingRecord | RestoreRecord)[] = [];
  /** `rewrites[k]`: entry k (sequence number k + 1) rewrites the context (a compaction, a clearing, a restore), not an append */
  readonly rewrites: boolean[] = [];
  /** every entry in order (items and records) */
  readonly entries: Entry[] = [];
  watermark = 0;
  /** how many pop and clear entries it holds: once there is one, the context no longer holds every item after the last clear */
  takenOut = 0;

  /**
   * the items' values as their reader parsed them (log lines: ItemLine.value), by item index,
   * kept until the context's first reading takes them (takeParsed), so that it need not parse them again
   */
  private parsed: (Json | undefined)[] | undefined = [];
  /** the records holding calls by committed version (the calls a later record shares are found there) */
  private readonly byVersion = new Map<number, CompactionRecord | UnshrinkableRecord>();

  /** The session's version: its number of entries (the last sequence number). */
  get version(): number {
    return this.rewrites.length;
  }

  /** The items' values their reader parsed (undefined where it did not), once: later items are not kept. */
  takeParsed(): readonly (Json | undefined)[] | undefined {
    const p = this.parsed;
    this.parsed = undefined;
    return p;
  }

  /** Refuses a shared call no earlier record holds. */
  private checkShared(refs: UnshrinkableRecord["sharedCalls"], at: string): void {
    for (const ref of refs ?? [])
      if (this.byVersion.get(ref.record)?.calls?.[ref.call] === undefined)
        throw new InputError(at, `shares call ${ref.call} of record ${ref.record}, which holds no such call`);
  }

  /** Adds the next entry, read at `at`; refuses one out of sequence or inconsistent with those before it. */
  add(l: EntryLine, at: string): Entry {
    if (l.seq !== this.version + 1) throw new InputError(at, `sequence number ${l.seq}, expected ${this.version + 1}`);
    if (l.kind === "item") {
      this.items.push(l.text);
      this.parsed?.push(l.value);
      this.rewrites.push(false);
      const e: Entry = { kind: "item", index: this.items.length - 1 };
      this.entries.push(e);
      return e;
    }
    if (l.record.items !== this.items.length)
      throw new InputError(
        at,
        `the record counts ${l.record.items} items before it, the session has ${this.items.length}`,
      );
    if (l.kind === "unshrinkable") {
      this.checkShared(l.record.sharedCalls, at);
      // not a change of the context: the log commit rule reads it as an append
      this.rewrites.push(false);
      const e: Entry = { kind: "unshrinkable", record: l.record, where: at };
      this.entries.push(e);
      return e;
    }
    if (l.kind !== "compaction") {
      if (l.kind === "clearing" && l.record.plannedVersion > l.seq - 1)
        throw new InputError(at, `planned against version ${l.record.plannedVersion}, after the version it follows`);
      // a pop or a clear takes items out of the context; the watermark stays where it is (L10)
      if (l.kind === "pop" || l.kind === "clear") this.takenOut++;
      else this.clearings.push(l.record);
      // a rewrite of the context: the log commit rule rejects a compaction planned before it (L9)
      this.rewrites.push(true);
      const e = { kind: l.kind, record: l.record, where: at } as Entry;
      this.entries.push(e);
      return e;
    }
    const r = l.record;
    if (r.plannedVersion > l.seq - 1)
      throw new InputError(at, `planned against version ${r.plannedVersion}, after the version it follows`);
    if (r.watermark < this.watermark)
      throw new InputError(at, `the watermark moves back from ${this.watermark} to ${r.watermark}`);
    this.checkShared(r.sharedCalls, at);
    this.records.push(r);
    this.byVersion.set(r.committedVersion, r);
    this.rewrites.push(true);
    this.watermark = r.watermark;
    const e: Entry = { kind: "compaction", record: r, where: at };
    this.entries.push(e);
    return e;
  }
}
