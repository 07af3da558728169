// A PostgreSQL session location: a connection URL naming the session in its `session` query
// parameter (`postgres://user@host:port/db?session=ID`); the rest of the URL is the driver's.
// A location is shown (in reports, messages, errors) only through shownLocation, which masks a
// password: a credential is never printed.

import { InputError } from "../model/errors.ts";

/** The longest session id, in UTF-8 bytes: the id is a primary key, and an index entry holds at most ~2,700 bytes. */
export const MAX_SESSION_ID_BYTES = 1000;

/** Which server, database and user a location reaches: what an error names (never the password). */
export interface PgServerName {
  readonly host: string;
  readonly port: string;
  readonly database: string;
  readonly user: string;
}

/** A parsed PostgreSQL location: the connection URL (without `session`), the session's id, and what to name in errors. */
export interface PgLocation {
  readonly url: string;
  readonly session: string;
  readonly server: PgServerName;
}

/** True iff `location` names a PostgreSQL session (a postgres:// or postgresql:// URL). */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The mask shown in place of a password. */
const MASK = "***";

/**
 * A location as it may be shown: a file path as given; a postgres:// URL with its password (in
 * the user part or a `password` query parameter) replaced by ***. The one place a location is
 * turned into text for a person.
 */
export function shownLocation(location: string): string {
  if (!isPostgresLocation(location)) return location;
  let u: URL;
  try {
    u = new URL(location);
  } catch {
    // not a URL: show its scheme only, never what may be a credential after it
    return `${location.slice(0, location.indexOf("://") + 3)}(not a valid URL)`;
  }
  if (u.password !== "") u.password = MASK;
  if (u.searchParams.has("password")) u.searchParams.set("password", MASK);
  return u.toString().replace(encodeURIComponent(MASK), MASK);
}

/** Refuses a session id the database cannot key a row by (NUL, or too long for its index), naming the rule. */
function checkSessionId(id: string): void {
  if (id.includes("\u0000"))
    throw new InputError("location", "the session id holds a NUL character, which PostgreSQL text cannot hold");
  const bytes = Buffer.byteLength(id, "utf8");
  if (bytes > MAX_SESSION_ID_BYTES)
    throw new InputError(
      "location",
      `the session id is ${bytes} bytes long; at most ${MAX_SESSION_ID_BYTES} (UTF-8) fit the sessions' index`,
    );
}

/** Parses a PostgreSQL location; refuses one without a session id, or with an id the database cannot hold. */
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
  checkSessionId(session);
  u.searchParams.delete("session");
  const user = decodeURIComponent(u.username);
  const server: PgServerName = {
    host: u.hostname === "" ? "localhost" : u.hostname,
    port: u.port === "" ? "5432" : u.port,
    database: decodeURIComponent(u.pathname.slice(1)) || user || "postgres",
    user: user === "" ? "(the default user)" : user,
  };
  return { url: u.toString(), session, server };
}
