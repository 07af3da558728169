// The PostgreSQL backend's own failure cases, on the real test server: a newer schema, a
// corrupt row, entries that may not be changed, the watermark guard of the commit's UPDATE, an
// older schema migrated on open, the trigger that refuses a lower watermark whoever writes it. Each is a clear error naming the row or table, and the
// database is left as it was.
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import type { Summarizer } from "../../src/model/summarizer.ts";
import { openSession } from "../../src/session/open.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/session/pg-schema.ts";
import { pgBackend, testDatabaseUrl } from "./backends.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";

const admin = postgres(testDatabaseUrl(), { max: 2, onnotice: () => {} });
afterAll(() => admin.end());

/** A new empty database on the test server; its URL. */
async function freshDatabase(): Promise<string> {
  const name = `safecut_${randomUUID().replaceAll("-", "")}`;
  await admin.unsafe(`create database ${name}`);
  const u = new URL(testDatabaseUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

/** The session id of a location. */
const idOf = (at: string) => new URL(at).searchParams.get("session") as string;

/** Every entry row of a session, as text. */
async function rowsOf(at: string): Promise<string> {
  const rows =
    await admin`select seq, kind, text, record::text from safecut_entries where session = ${idOf(at)} order by seq`;
  const [s] = await admin`select version, watermark from safecut_sessions where id = ${idOf(at)}`;
  return JSON.stringify([rows, s]);
}

/** A summarizer whose every summary is longer than any stretch here. */
const longSummaries: Summarizer = {
  name: "long",
  summarize: async () => "a summary longer than what it replaces ".repeat(40),
};

/** Writes a session "old" of 12 turns with `sql` (a database at schema version 1 or 2); its full history. */
async function seedOldSession(sql: postgres.Sql): Promise<string> {
  await sql`insert into safecut_sessions (id, format, version) values ('old', 'openai', 48)`;
  const items = Array.from({ length: 12 }, (_, i) => turn(`m${i}`)).flat();
  await sql`insert into safecut_entries ${sql(
    items.map((it, k) => ({ session: "old", seq: k + 1, kind: "item", text: JSON.stringify(it) })),
    "session",
    "seq",
    "kind",
    "text",
  )}`;
  return `${items.map((it) => JSON.stringify(it)).join("\n")}\n`;
}

describe("postgresql session recovery", () => {
  it("refuses a database whose schema is newer, naming the table, and changes nothing", async () => {
    const db = await freshDatabase();
    await (await openSession(`${db}?session=a`, { format: "openai" })).close();
    const sql = postgres(db, { max: 1, onnotice: () => {} });
    try {
      await sql`update safecut_schema_version set version = ${SCHEMA_VERSION + 1}`;
      await expect(openSession(`${db}?session=a`)).rejects.toThrow(
        new RegExp(
          `safecut_schema_version: the database has safecut schema version ${SCHEMA_VERSION + 1}, newer than this safecut reads \\(${SCHEMA_VERSION}\\)`,
        ),
      );
      const [v] = await sql`select version from safecut_schema_version`;
      expect(v.version).toBe(SCHEMA_VERSION + 1);
    } finally {
      await sql.end();
    }
  });

  it("migrates an empty database on first open, once, with concurrent openers", async () => {
    const db = await freshDatabase();
    const sessions = await Promise.all(
      Array.from({ length: 4 }, (_, k) => openSession(`${db}?session=s${k}`, { format: "openai" })),
    );
    await Promise.all(sessions.map((s) => s.close()));
    const sql = postgres(db, { max: 1, onnotice: () => {} });
    try {
      expect(await sql`select version from safecut_schema_version`).toEqual([{ version: SCHEMA_VERSION }]);
      expect((await sql`select id from safecut_sessions order by id`).map((r) => r.id)).toEqual([
        "s0",
        "s1",
        "s2",
        "s3",
      ]);
    } finally {
      await sql.end();
    }
  });

  it("migrates a database at schema version 1 on open, keeping its sessions, and clears in it", async () => {
    const db = await freshDatabase();
    const sql = postgres(db, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(MIGRATIONS[0]);
      await sql`create table safecut_schema_version (version integer not null)`;
      await sql`insert into safecut_schema_version values (1)`;
      await seedOldSession(sql);
      const s = await openSession(`${db}?session=old`);
      expect(await sql`select version from safecut_schema_version`).toEqual([{ version: SCHEMA_VERSION }]);
      expect((await s.history({ full: true })).split("\n").filter((l) => l !== "")).toHaveLength(48);
      const report = await s.compact({ ...SMALL_CONFIG, strategy: "clear", clear_at_least: 0 });
      expect(report.clearing?.results).toBeGreaterThan(0);
      expect(await s.clearings()).toHaveLength(1);
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    } finally {
      await sql.end();
    }
  });

  it("migrates a database at schema version 2 on open, keeping its sessions, and records unshrinkable stretches in it", async () => {
    const db = await freshDatabase();
    const sql = postgres(db, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(MIGRATIONS[0]);
      await sql.unsafe(MIGRATIONS[1]);
      await sql`create table safecut_schema_version (version integer not null)`;
      await sql`insert into safecut_schema_version values (2)`;
      const before = await seedOldSession(sql);
      // schema 2 refuses the new kind of entry
      await expect(
        sql`insert into safecut_entries (session, seq, kind, record) values ('old', 49, 'unshrinkable', '{}')`,
      ).rejects.toThrow(/safecut_entries_kind/);
      const s = await openSession(`${db}?session=old`);
      expect(await sql`select version from safecut_schema_version`).toEqual([{ version: SCHEMA_VERSION }]);
      expect(SCHEMA_VERSION).toBe(5);
      expect(await s.history({ full: true })).toBe(before);
      // every stretch's summary is longer than it: the run records them as not shrinking
      const report = await s.compact(SMALL_CONFIG, { summarizer: longSummaries });
      expect(report.skipped.length).toBeGreaterThan(0);
      const rows = await sql`select kind from safecut_entries where session = 'old' and seq > 48`;
      expect(rows.map((r) => r.kind)).toEqual(["unshrinkable"]);
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    } finally {
      await sql.end();
    }
  });

  it("migrates a database at schema version 3 on open, keeping its sessions; then the database refuses a lower watermark", async () => {
    const db = await freshDatabase();
    const sql = postgres(db, { max: 1, onnotice: () => {} });
    try {
      for (const m of MIGRATIONS.slice(0, 3)) await sql.unsafe(m);
      await sql`create table safecut_schema_version (version integer not null)`;
      await sql`insert into safecut_schema_version values (3)`;
      const before = await seedOldSession(sql);
      // schema 3 lets a plain UPDATE lower the watermark
      await sql`update safecut_sessions set watermark = 5 where id = 'old'`;
      await sql`update safecut_sessions set watermark = 0 where id = 'old'`;
      const s = await openSession(`${db}?session=old`);
      expect(await sql`select version from safecut_schema_version`).toEqual([{ version: SCHEMA_VERSION }]);
      expect(await s.history({ full: true })).toBe(before);
      await s.compact(SMALL_CONFIG);
      const [row] = await sql`select watermark::int as w from safecut_sessions where id = 'old'`;
      expect(row.w).toBeGreaterThan(0);
      await expect(sql`update safecut_sessions set watermark = 0 where id = 'old'`).rejects.toThrow(
        /may not move back/,
      );
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    } finally {
      await sql.end();
    }
  });

  it("refuses a corrupt compaction row naming the session and its sequence number, and changes nothing", async () => {
    const at = pgBackend.fresh();
    const s = await openSession(at, { format: "openai" });
    await s.append(turn("a"));
    await s.close();
    await admin`insert into safecut_entries (session, seq, kind, record) values (${idOf(at)}, 5, 'compaction', ${admin.json({ committedVersion: 5 })})`;
    await admin`update safecut_sessions set version = 5 where id = ${idOf(at)}`;
    const before = await rowsOf(at);
    await expect(openSession(at)).rejects.toThrow(
      new RegExp(`postgres session "${idOf(at)}" seq 5: field "decision": expected "commit" or "rebase"`),
    );
    expect(await rowsOf(at)).toBe(before);
  });

  it("keeps entries append-only: the database refuses an UPDATE or DELETE of them", async () => {
    const at = pgBackend.fresh();
    const s = await openSession(at, { format: "openai" });
    await s.append(turn("a"));
    await s.close();
    await expect(admin`update safecut_entries set text = '{}' where session = ${idOf(at)}`).rejects.toThrow(
      /append-only/,
    );
    await expect(admin`delete from safecut_entries where session = ${idOf(at)}`).rejects.toThrow(/append-only/);
    expect((await admin`select count(*)::int as n from safecut_entries where session = ${idOf(at)}`)[0].n).toBe(4);
  });

  it("the commit's UPDATE refuses a step that would move the stored watermark back, writing nothing", async () => {
    const at = pgBackend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`w${i}`));
    // the stored watermark ahead of every step this compaction can make
    await admin`update safecut_sessions set watermark = 1000000 where id = ${idOf(at)}`;
    const before = await rowsOf(at);
    await expect(s.compact(SMALL_CONFIG)).rejects.toThrow(
      /the database refused the step \(its version or watermark guard\)/,
    );
    expect(await rowsOf(at)).toBe(before);
    await s.close();
  });

  it("the database itself refuses a lower watermark or version (a trigger), whoever writes the UPDATE", async () => {
    const at = pgBackend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`t${i}`));
    await s.compact(SMALL_CONFIG);
    const [row] =
      await admin`select watermark::int as w, version::int as v from safecut_sessions where id = ${idOf(at)}`;
    expect(row.w).toBeGreaterThan(0);
    expect(row.w).toBe((await s.compactions()).at(-1)?.watermark);
    const before = await rowsOf(at);
    // not safecut's guarded UPDATE: a plain one, as a bug or another client would write it
    await expect(admin`update safecut_sessions set watermark = ${row.w - 1} where id = ${idOf(at)}`).rejects.toThrow(
      /the watermark of session .* may not move back/,
    );
    await expect(admin`update safecut_sessions set version = ${row.v - 1} where id = ${idOf(at)}`).rejects.toThrow(
      /the version of session .* may not move back/,
    );
    expect(await rowsOf(at)).toBe(before);
    // forward is allowed, and safecut goes on
    await s.append(turn("after"));
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  });

  it("refuses a location without a session id", async () => {
    await expect(openSession(testDatabaseUrl(), { format: "openai" })).rejects.toThrow(
      /a PostgreSQL location names its session/,
    );
  });
});
