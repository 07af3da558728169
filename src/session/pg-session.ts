// The PostgreSQL backend: a session is one row of safecut_sessions and its entries rows of
// safecut_entries (pg-schema.ts). Every write is one transaction holding the session's row
// (SELECT ... FOR UPDATE), so the writers of one session are serialized while nothing waits on
// a summarizer call. An append is one statement: checked (tool pairing) against the session as
// read, it inserts its items and moves the session's version under a version guard, and is
// durable when that statement commits; when another writer was first, it writes nothing, and the
// append (and the next few) run as one transaction holding the session's row, which loses no race. A
// compaction step is decided against the session as it is in that transaction (stored-session.ts:
// L9 through decideLogCommit) and written with the version compare-and-set and the watermark
// guard in the UPDATE's WHERE clause (L10: `watermark <= $new`, the kernel's watermark never
// decreasing), in the same transaction as its record.

import type { Sql, TransactionSql } from "postgres";
import { FORMAT_NAMES, type FormatName } from "../adapters/detect.ts";
import type { CommitOutcome } from "../engine/store/store.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import { isJsonObject, type JsonObject } from "../model/json.ts";
import { type EntryLine, rewriteLine } from "./log-lines.ts";
import { pgFailure } from "./pg-errors.ts";
import { type PgServerName, parsePgLocation, shownLocation } from "./pg-location.ts";
import { migrate } from "./pg-schema.ts";
import type { SessionOptions } from "./session.ts";
import { SessionState } from "./session-state.ts";
import { recordsOf, type StepDecision, StoredSession } from "./stored-session.ts";

/** After an append lost a race to another writer, this many appends take the session's row first. */
const CONTENDED_APPENDS = 16;

/** A row of safecut_entries as read. */
interface EntryRow {
  readonly seq: string;
  readonly kind: string;
  readonly text: string | null;
  readonly record: unknown;
}

function isFormat(x: unknown): x is FormatName {
  return FORMAT_NAMES.some((f) => f === x);
}

/** A session kept in PostgreSQL. */
export class PgSession extends StoredSession {
  private closed = false;
  /** appends left that take the session's row first, after one lost a race (CONTENDED_APPENDS) */
  private contended = 0;
  /** the session's operations, one at a time (a read adds entries in sequence) */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    location: string,
    private readonly sql: Sql,
    private readonly id: string,
    /** names the session in errors */
    private readonly where: string,
    /** the server, database and user, as errors name them */
    private readonly server: PgServerName,
    format: FormatName,
  ) {
    super(location, new SessionState(), format);
  }

  /** Opens (creating with `options.format` if absent) the session named by `location`, migrating an older schema. */
  static async open(location: string, options: SessionOptions = {}): Promise<PgSession> {
    const { url, session: id, server } = parsePgLocation(location);
    const { default: postgres } = await import("postgres");
    // one connection: a session's operations run one at a time
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const where = `postgres session ${JSON.stringify(id)}`;
    try {
      await migrate(sql, where);
      let rows = await sql<{ format: string }[]>`select format from safecut_sessions where id = ${id}`;
      if (rows.length === 0) {
        if (options.format === undefined)
          throw new InputError("options.format", `${where} does not exist: creating a session needs its format`);
        await sql`insert into safecut_sessions (id, format) values (${id}, ${options.format}) on conflict (id) do nothing`;
        rows = await sql<{ format: string }[]>`select format from safecut_sessions where id = ${id}`;
      }
      const format = rows[0].format;
      if (!isFormat(format)) throw new InputError(where, `unknown conversation format ${JSON.stringify(format)}`);
      if (options.format !== undefined && options.format !== format)
        throw new InputError("options.format", `the session's format is ${format}, not ${options.format}`);
      const s = new PgSession(location, sql, id, where, server, format);
      await s.sync();
      return s;
    } catch (e) {
      await sql.end({ timeout: 5 });
      throw pgFailure(e, server);
    }
  }

  /** Runs `f` after the session's earlier operations. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    if (this.closed)
      return Promise.reject(new SafecutError("usage", `the session ${shownLocation(this.location)} is closed`));
    const told = () =>
      f().catch((e: unknown) => {
        throw pgFailure(e, this.server);
      });
    const run = this.queue.then(told, told);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Reads the entries written since the last read, through `q` (the pool, or a transaction). */
  private async readSince(q: Sql | TransactionSql): Promise<void> {
    const rows = await q<EntryRow[]>`
      select seq::text as seq, kind, text, record from safecut_entries
      where session = ${this.id} and seq > ${this.state.version} order by safecut_entries.seq`;
    for (const r of rows) this.state.add(this.lineOf(r), `${this.where} seq ${r.seq}`);
  }

  /**
   * Reads what was written since, after an append's version guard found the session moved on: the
   * session must still exist, and hold entries this reader has not read (else the row's version
   * and its entries disagree).
   */
  private async readSinceChecked(): Promise<void> {
    const [row] = await this.sql<{ version: string }[]>`
      select version::text as version from safecut_sessions where id = ${this.id}`;
    if (row === undefined) throw this.removed();
    await this.readSince(this.sql);
    if (Number(row.version) > this.state.version)
      throw new InputError(
        this.where,
        `the session row's version ${row.version} is not its ${this.state.version} entries`,
      );
  }

  /** The error of a write to a session removed since this process opened it. */
  private removed(): InputError {
    return new InputError(
      this.where,
      "the session was removed after this process opened it (an import that failed removes the session it created): nothing was written; open the session again",
    );
  }

  /** An entry row as the line it stands for; a corrupt row is refused naming it. */
  private lineOf(r: EntryRow): EntryLine {
    const at = `${this.where} seq ${r.seq}`;
    const seq = Number(r.seq);
    if (r.kind === "item" && typeof r.text === "string") return { kind: "item", seq, text: r.text };
    if (r.kind !== "item" && isJsonObject(r.record as JsonObject))
      return rewriteLine(r.kind, seq, r.record as JsonObject, at);
    throw new InputError(at, `corrupt entry (kind ${JSON.stringify(r.kind)})`);
  }

  protected sync(): Promise<void> {
    return this.serial(() => this.readSince(this.sql));
  }

  /** Runs `f` in a transaction holding the session's row, after reading what was written since. */
  private guarded<T>(f: (tx: TransactionSql) => Promise<T>): Promise<T> {
    return this.serial(
      () =>
        this.sql.begin(async (tx) => {
          const [row] = await tx<{ version: string }[]>`
          select version::text as version from safecut_sessions where id = ${this.id} for update`;
          if (row === undefined) throw this.removed();
          await this.readSince(tx);
          if (Number(row.version) !== this.state.version)
            throw new InputError(
              this.where,
              `the session row's version ${row.version} is not its ${this.state.version} entries`,
            );
          return f(tx);
        }) as Promise<T>,
    );
  }

  protected async writeItems(texts: readonly string[], check: () => void): Promise<number> {
    if (this.contended > 0) {
      this.contended--;
      return this.writeItemsHolding(texts, check);
    }
    try {
      for (;;) {
        // checked against the session as read so far; a refusal is final only once everything
        // written since has been read
        try {
          check();
        } catch (e) {
          const read = this.state.version;
          await this.sync();
          if (this.state.version === read) throw e;
          this.dropPairing();
          continue;
        }
        const from = this.state.version;
        const written = await this.serial(async () => {
          if (this.state.version !== from || !(await this.insertItems(texts, from))) return false;
          // what this statement wrote, in sequence: no other entry came between (its version guard)
          texts.forEach((text, k) => this.state.add({ kind: "item", seq: from + 1 + k, text }, this.where));
          return true;
        });
        if (written) return from + texts.length;
        // another writer wrote first: read what it wrote; this append and the next few take the
        // session's row first (no race lost again, so the pairing is not read again each time)
        this.dropPairing();
        await this.serial(() => this.readSinceChecked());
        this.contended = CONTENDED_APPENDS;
        return this.writeItemsHolding(texts, check);
      }
    } catch (e) {
      // refused or not written: the pairing may hold the batch, read it again next time
      this.dropPairing();
      throw e;
    }
  }

  /** An append as one transaction holding the session's row: read what was written since, check, insert (a writer that lost a race). */
  private async writeItemsHolding(texts: readonly string[], check: () => void): Promise<number> {
    try {
      const v = await this.guarded(async (tx) => {
        check();
        const from = this.state.version;
        await tx`
          insert into safecut_entries (session, seq, kind, text)
          select ${this.id}, ${from}::bigint + u.k, 'item', u.t
          from unnest(${tx.array(texts as string[])}::text[]) with ordinality as u(t, k)`;
        const up = await tx`
          update safecut_sessions set version = ${from + texts.length}
          where id = ${this.id} and version = ${from}`;
        if (up.count !== 1) throw new SafecutError("internal", `${this.where}: the version moved during an append`);
        return from + texts.length;
      });
      // what this transaction wrote, read back in sequence
      await this.sync();
      return v;
    } catch (e) {
      this.dropPairing();
      throw e;
    }
  }

  /**
   * Inserts the items as entries from + 1, ... and moves the session's version from `from`, in
   * one statement (one round trip, one commit): the UPDATE's version guard takes the session's
   * row, and the INSERT reads its row, so nothing is written when the version is no longer
   * `from` (another writer was first). The texts go as one array parameter, numbered by the
   * server: any number of items is one statement (a row's own parameters would stop at the
   * driver's 65,534). Resolves to whether it wrote them.
   */
  private async insertItems(texts: readonly string[], from: number): Promise<boolean> {
    const rows = await this.sql<{ n: string }[]>`
      with up as (
        update safecut_sessions set version = ${from + texts.length}
        where id = ${this.id} and version = ${from}
        returning id
      ), ins as (
        insert into safecut_entries (session, seq, kind, text)
        select up.id, ${from}::bigint + u.k, 'item', u.t
        from up, unnest(${this.sql.array(texts as string[])}::text[]) with ordinality as u(t, k)
        returning 1
      )
      select count(*)::text as n from ins`;
    const n = Number(rows[0]?.n ?? 0);
    if (n !== 0 && n !== texts.length)
      throw new SafecutError("internal", `${this.where}: ${n} of ${texts.length} items written`);
    return n === texts.length;
  }

  protected async commitStep(decide: () => StepDecision): Promise<CommitOutcome> {
    const out = await this.guarded(async (tx) => {
      const d = decide();
      if (d.entry === undefined) return d.outcome;
      // a run's records are rows of their own, written in this one transaction: all or none
      const records = recordsOf(d.entry);
      const first = records[0].record.committedVersion;
      const seq = records[records.length - 1].record.committedVersion;
      // a clearing or a restore leaves the watermark where it is
      const watermark = records.reduce(
        (w, e) => (e.kind === "compaction" ? e.record.watermark : w),
        this.state.watermark,
      );
      await tx`
        insert into safecut_entries (session, seq, kind, record)
        select ${this.id}, u.seq, u.kind, u.record
        from unnest(${tx.array(records.map((e) => e.record.committedVersion))}::bigint[],
          ${tx.array(records.map((e) => e.kind))}::text[],
          ${tx.array(records.map((e) => JSON.stringify(e.record)))}::jsonb[]) as u(seq, kind, record)`;
      // serialized by the row lock, and guarded here too: the version it was decided on, and
      // the watermark only forward (L10)
      const up = await tx`
        update safecut_sessions set version = ${seq}, watermark = ${watermark}
        where id = ${this.id} and version = ${first - 1} and watermark <= ${watermark}`;
      if (up.count !== 1)
        throw new SafecutError(
          "internal",
          `${this.where}: the database refused the step (its version or watermark guard): nothing was written`,
        );
      return d.outcome;
    });
    await this.sync();
    return out;
  }

  /**
   * Removes the session if it holds nothing (version 0: created, never written), in one
   * statement; resolves to whether it did. A failed import leaves no empty session behind.
   */
  discardIfEmpty(): Promise<boolean> {
    return this.serial(async () => {
      const gone = await this.sql`delete from safecut_sessions where id = ${this.id} and version = 0`;
      return gone.count === 1;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    await this.sql.end({ timeout: 5 });
  }
}
