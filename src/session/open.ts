// openSession: the one entry to a session, by location: a file path (the JSONL log backend) or
// a PostgreSQL URL naming the session (postgres://user@host:port/db?session=ID).

import { InputError } from "../model/errors.ts";
import { LogSession } from "./log-session.ts";
import { isPostgresLocation } from "./pg-location.ts";
import type { Session, SessionOptions } from "./session.ts";

/**
 * Opens the session at `location` (a file path, or a postgres:// URL with `?session=ID`;
 * created on first use with `options.format`). A corrupt, foreign or newer log or database is
 * refused with an error naming the line or row; opening never rewrites a session (it may
 * create one, or migrate an older database schema).
 */
export async function openSession(location: string, options: SessionOptions = {}): Promise<Session> {
  if (typeof location !== "string" || location === "")
    throw new InputError("location", "expected a session location (a file path or a postgres:// URL)");
  if (isPostgresLocation(location)) {
    const { PgSession } = await import("./pg-session.ts");
    return PgSession.open(location, options);
  }
  return LogSession.open(location, options);
}
