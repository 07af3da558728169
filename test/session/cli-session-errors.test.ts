// `safecut session ...` when something goes wrong: the process ends after every error (an open
// database connection must not keep it alive), a password in a postgres:// location is never
// shown, and what the database or the network refuses is an environment error (exit 1) naming the
// server, its port and the database and what to check, never "a bug in safecut" (exit 4). Against
// the real PostgreSQL server of the test run (test/pg/global-setup.ts), and a second one that
// asks for a password.
import { randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type PgServer, startPgServer } from "../../scripts/pg-server.ts";
import { openSession } from "../../src/session/open.ts";
import { runInProcess, runSourceProcess, tempDir } from "../support/cli-run.ts";
import { backends, removeFresh, testDatabaseUrl } from "./backends.ts";
import { turn } from "./conversation.ts";

const jsonl = (items: readonly object[]) => items.map((x) => `${JSON.stringify(x)}\n`).join("");
/** A tool result answering no call: every backend refuses to append it. */
const orphan = jsonl([{ role: "tool", tool_call_id: "call-nowhere", content: "x" }]);
const SECRET = "s3cret-Pw";

/** The test server's URL with a user and password in it (trust auth: the password is not checked). */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = SECRET;
  return u.toString();
}

/** A new database on the test server, made with `setup` run in it as the server's superuser. */
async function freshDatabase(setup: (sql: postgres.Sql) => Promise<unknown>): Promise<string> {
  const admin = postgres(testDatabaseUrl(), { max: 1, onnotice: () => {} });
  const name = `t_${randomUUID().replaceAll("-", "")}`;
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(testDatabaseUrl());
  u.pathname = `/${name}`;
  const sql = postgres(u.toString(), { max: 1, onnotice: () => {} });
  try {
    await setup(sql);
  } finally {
    await sql.end();
  }
  return u.toString();
}

afterAll(removeFresh);

describe.each(backends)("the session commands end after an error: $name", (backend) => {
  it("import and append that fail exit 1 and the process ends by itself", async () => {
    const cwd = tempDir();
    const at = backend.fresh();
    writeFileSync(join(cwd, "orphan.jsonl"), orphan);
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("a")));
    let r = await runSourceProcess(
      ["session", "import", "orphan.jsonl", "--to", backend.fresh(), "--format", "openai"],
      {
        cwd,
        limitMs: 30_000,
      },
    );
    expect(r.timedOut, r.stderr).toBe(false);
    expect(r.code, r.stderr).toBe(1);
    r = await runSourceProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], {
      cwd,
      limitMs: 30_000,
    });
    expect(r.timedOut, r.stderr).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    r = await runSourceProcess(["session", "append", at, "orphan.jsonl"], { cwd, limitMs: 30_000 });
    expect(r.timedOut, r.stderr).toBe(false);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/call-nowhere/);
  }, 90_000);
});

describe("a password in a postgres:// location is never shown", () => {
  it("not in the import line, the compact report, an error, or the library's closed-session error", async () => {
    const cwd = tempDir();
    const at = `${withPassword(testDatabaseUrl())}?session=${randomUUID()}`;
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("a")));
    let r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/imported 4 items into postgres:\/\/\w+:\*+@127\.0\.0\.1:\d+\/safecut\?session=/);
    r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exists already/);
    const told = [r.stderr];
    r = await runInProcess(["session", "compact", at, "--tokenizer", "chars"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/127\.0\.0\.1/);
    told.push(r.stderr);
    const s = await openSession(at);
    await s.close();
    const closed = await s.append(turn("b")).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(closed).toMatch(/is closed/);
    told.push(closed);
    for (const t of told) expect(t).not.toContain(SECRET);
  });
});

describe("PostgreSQL refusals are environment errors (exit 1) naming the server and what to check", () => {
  const cwd = tempDir();
  let locked: PgServer | undefined;
  beforeAll(async () => {
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("a")));
    locked = await startPgServer({ db: "locked", password: SECRET });
  });
  afterAll(() => locked?.stop());

  /** Imports into `at` in process; the stderr, after checking the exit code and that no secret shows. */
  async function refusedImport(at: string): Promise<string> {
    const r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.code, r.stderr).toBe(1);
    return r.stderr;
  }

  it("a refused connection names host, port and database", async () => {
    const port = await freePort();
    const err = await refusedImport(`postgres://me:${SECRET}@127.0.0.1:${port}/nowhere?session=s`);
    expect(err).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}`));
    expect(err).toMatch(/database nowhere/);
    expect(err).toMatch(/server/);
  });

  it("a missing database", async () => {
    const u = new URL(withPassword(testDatabaseUrl()));
    u.pathname = "/no_such_db";
    const err = await refusedImport(`${u}?session=s`);
    expect(err).toMatch(/database no_such_db/);
    expect(err).toMatch(/does not exist/);
  });

  it("a wrong password names the user, never the password", async () => {
    const u = new URL((locked as PgServer).url);
    u.password = "wrong-one";
    const err = await refusedImport(`${u}?session=s`);
    expect(err).toMatch(/password/);
    expect(err).not.toContain("wrong-one");
    expect(err).toMatch(/database locked/);
  });

  it("a user without the right to create safecut's tables", async () => {
    const url = await freshDatabase((sql) => sql.unsafe("create role nocreate login"));
    const u = new URL(url);
    u.username = "nocreate";
    const err = await refusedImport(`${u}?session=s`);
    expect(err).toMatch(/permission|right/);
    expect(err).toMatch(/CREATE/);
  });

  it("a foreign safecut_entries table", async () => {
    const url = await freshDatabase((sql) => sql`create table safecut_entries (x int)`);
    const err = await refusedImport(`${url}?session=s`);
    expect(err).toMatch(/safecut_entries/);
    expect(err).toMatch(/not safecut's/);
  });

  it("a session id too long for the index, or holding NUL, names the id's rule", async () => {
    let err = await refusedImport(`${withPassword(testDatabaseUrl())}?session=${randomBytes(1500).toString("hex")}`);
    expect(err).toMatch(/session id/);
    err = await refusedImport(`${withPassword(testDatabaseUrl())}?session=a%00b`);
    expect(err).toMatch(/NUL/);
  });
});
