// The PostgreSQL schema of the session backend, as versioned migrations: the database records
// the version it is at (safecut_schema_version); opening applies the migrations it lacks, in
// one transaction serialized by an advisory lock, and refuses a database at a newer version.
// Sessions: one row each (format, version = entry count, watermark); entries: items (original
// text) and records (compaction, clearing, restore, unshrinkable, pop, clear) by (session, seq), the primary
// key that makes reading one session's entries in order a range read. Entries are append-only: a
// trigger refuses any UPDATE or DELETE of them. A session's watermark and version only move
// forward: a trigger refuses an UPDATE that lowers either, whoever writes it.

import type { Sql } from "postgres";
import { InputError } from "../model/errors.ts";

/** The migrations, in order: migration k takes the schema from version k to k + 1. */
export const MIGRATIONS: readonly string[] = [
  `create table safecut_sessions (
     id text primary key,
     format text not null,
     created timestamptz not null default now(),
     version bigint not null default 0 check (version >= 0),
     watermark bigint not null default 0 check (watermark >= 0)
   );
   create table safecut_entries (
     session text not null references safecut_sessions (id),
     seq bigint not null check (seq >= 1),
     kind text not null check (kind in ('item', 'compaction')),
     text text,
     record jsonb,
     primary key (session, seq),
     check ((kind = 'item') = (text is not null) and (kind = 'compaction') = (record is not null))
   );
   create function safecut_entries_append_only() returns trigger language plpgsql as $$
     begin raise exception 'safecut_entries is append-only: nothing is updated or deleted'; end $$;
   create trigger safecut_entries_append_only before update or delete or truncate on safecut_entries
     for each statement execute function safecut_entries_append_only();`,
  // 2: clearing records and restores (a cleared tool result brought back)
  `alter table safecut_entries drop constraint safecut_entries_kind_check;
   alter table safecut_entries drop constraint safecut_entries_check;
   alter table safecut_entries add constraint safecut_entries_kind
     check (kind in ('item', 'compaction', 'clearing', 'restore'));
   alter table safecut_entries add constraint safecut_entries_body
     check ((kind = 'item') = (text is not null) and (kind <> 'item') = (record is not null));`,
  // 3: unshrinkable records (stretches a run found not to shrink, kept for later runs)
  `alter table safecut_entries drop constraint safecut_entries_kind;
   alter table safecut_entries add constraint safecut_entries_kind
     check (kind in ('item', 'compaction', 'clearing', 'restore', 'unshrinkable'));`,
  // 4: pop records (the newest item taken out of the context) and clear records (the context emptied)
  `alter table safecut_entries drop constraint safecut_entries_kind;
   alter table safecut_entries add constraint safecut_entries_kind
     check (kind in ('item', 'compaction', 'clearing', 'restore', 'unshrinkable', 'pop', 'clear'));`,
  // 5: the database itself keeps a session's watermark (L10) and version only moving forward,
  // whoever writes the UPDATE (safecut's own carries the same guard in its WHERE clause)
  `create function safecut_sessions_forward() returns trigger language plpgsql as $$
     begin
       if new.watermark < old.watermark then
         raise exception 'the watermark of session % may not move back from % to %', old.id, old.watermark, new.watermark
           using errcode = 'check_violation';
       end if;
       if new.version < old.version then
         raise exception 'the version of session % may not move back from % to %', old.id, old.version, new.version
           using errcode = 'check_violation';
       end if;
       return new;
     end $$;
   create trigger safecut_sessions_forward before update on safecut_sessions
     for each row execute function safecut_sessions_forward();`,
];

/** The schema version this safecut writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;
/** The advisory lock key that serializes migrations between processes. */
const MIGRATION_LOCK = 0x5afec07;

/** Brings the database to SCHEMA_VERSION; refuses a newer one naming `where`. */
export async function migrate(sql: Sql, where: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`create table if not exists safecut_schema_version (version integer not null)`;
    const rows = await tx<{ version: number }[]>`select version from safecut_schema_version`;
    if (rows.length > 1) throw new InputError(`${where} safecut_schema_version`, `${rows.length} rows, expected one`);
    const at = rows.length === 0 ? 0 : rows[0].version;
    if (at > SCHEMA_VERSION)
      throw new InputError(
        `${where} safecut_schema_version`,
        `the database has safecut schema version ${at}, newer than this safecut reads (${SCHEMA_VERSION})`,
      );
    if (at === SCHEMA_VERSION) return;
    for (let v = at; v < SCHEMA_VERSION; v++) await tx.unsafe(MIGRATIONS[v]);
    if (rows.length === 0) await tx`insert into safecut_schema_version (version) values (${SCHEMA_VERSION})`;
    else await tx`update safecut_schema_version set version = ${SCHEMA_VERSION}`;
  });
}
