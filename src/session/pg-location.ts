// A PostgreSQL session location: a connection URL naming the session in its `session` query
// parameter (`postgres://user@host:port/db?session=ID`); the rest of the URL is the driver's.

import { InputError } from "../model/errors.ts";

/** A parsed PostgreSQL location: the connection URL (without `session`) and the session's id. */
export interface PgLocation {
  readonly url: string;
  readonly session: string;
}

/** True iff `location` names a PostgreSQL session (a postgres:// or postgresql:// URL). */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Parses a PostgreSQL location; refuses one without a session id. */
export function parsePgLocation(location: string): PgLocation {
  let u: URL;
  try {
    u = new URL(location);
  } catch {
    throw new InputError("location", "not a valid postgres:// URL");
  }
  const session = u.searchParams.get("session");
  if (session === null || session === "")
    throw new InputError(
      "location",
      "a PostgreSQL location names its session: postgres://user@host:port/db?session=ID",
    );
  u.searchParams.delete("session");
  return { url: u.toString(), session };
}
