// The session backends the suites run against: each gives a fresh location per test. The
// PostgreSQL one uses the server the global setup started (test/pg/global-setup.ts).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PG_ERROR_ENV, PG_URL_ENV } from "../pg/global-setup.ts";

/** A backend under test. */
export interface Backend {
  readonly name: string;
  /** a location no session lives at yet */
  fresh(): string;
}

/** The temporary directories made so far (removeFresh deletes them). */
const made: string[] = [];

/** A fresh temporary directory, removed by removeFresh. */
export function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "safecut-session-"));
  made.push(dir);
  return dir;
}

/** Removes every temporary directory made by this file's helpers (call in afterAll). */
export function removeFresh(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The embedded default: a JSONL log file in a temporary directory. */
export const logBackend: Backend = {
  name: "jsonl log",
  fresh: () => join(freshDir(), "session.jsonl"),
};

/** The test server's database URL (the global setup exports it). */
export function testDatabaseUrl(): string {
  const url = process.env[PG_URL_ENV];
  if (url === undefined)
    throw new Error(
      `no PostgreSQL server for the tests: ${process.env[PG_ERROR_ENV] ?? `${PG_URL_ENV} is not set (the vitest global setup starts the server)`}`,
    );
  return url;
}

/** PostgreSQL: a new session id in the test server's database. */
export const pgBackend: Backend = {
  name: "postgresql",
  fresh: () => `${testDatabaseUrl()}?session=${randomUUID()}`,
};

/** Every backend the suites run against. */
export const backends: readonly Backend[] = [logBackend, pgBackend];
