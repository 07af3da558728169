// What the database or the network refuses, told as an environment error (exit 1): the server,
// port, database and user it was (never the password), what happened, and what to check. A
// PostgreSQL error is never a bug in safecut: a refused or lost connection, a missing database, a
// wrong password, a missing right, a table safecut did not create, a full disk on the server.

import { InputError, SafecutError } from "../model/errors.ts";
import type { PgServerName } from "./pg-location.ts";

/** The driver's own error codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

/** An error as the driver and Node give it: a code, and for the server's errors its SQLSTATE in `code`. */
interface CodedError {
  readonly name?: string;
  readonly message: string;
  readonly code?: unknown;
}

function codedError(e: unknown): CodedError | undefined {
  return e instanceof Error ? (e as CodedError) : undefined;
}

/** What a server error means and what to check, by its SQLSTATE (class or exact code). */
function serverAdvice(code: string, s: PgServerName): string {
  if (code === "3D000") return `check the database name in the URL, or create it (createdb ${s.database})`;
  if (code === "28P01" || code === "28000")
    return `authentication failed: check the user (${s.user}) and the password in the URL (not shown here)`;
  if (code === "42501")
    return `the user ${s.user} lacks a right safecut needs: to create safecut's tables on first use, CREATE on the database's schema (GRANT CREATE ON SCHEMA public TO ${s.user}), or tables made by a user who has it; then SELECT, INSERT and UPDATE on them`;
  if (["42P07", "42703", "42P01", "42804", "42P16", "23502"].includes(code))
    return "a table there is not safecut's: safecut_schema_version, safecut_sessions and safecut_entries are safecut's names; use another database, or rename the foreign table";
  if (code.startsWith("57P") || code === "08006" || code === "08003")
    return "the server shut down or restarted: nothing this command did is half written (each write is one transaction); run it again";
  if (code.startsWith("53"))
    return "the server is out of a resource (disk, memory or connections): free some and run it again";
  if (code.startsWith("08")) return "the connection failed: check the server, the host and the port";
  return "see the server's message";
}

/**
 * The error a PostgreSQL session's operation failed with, told for a person: a connection or
 * server error as an InputError (exit 1) naming the server and what to check; safecut's own
 * errors as they are; anything else (a bug) as it is.
 */
export function pgFailure(e: unknown, s: PgServerName): unknown {
  if (e instanceof SafecutError) return e;
  const c = codedError(e);
  if (c === undefined || typeof c.code !== "string") return e;
  const at = `PostgreSQL server ${s.host}:${s.port}, database ${s.database}, user ${s.user}`;
  if (CONNECTION_CODES.has(c.code))
    return new InputError(
      "",
      `${at}: cannot reach the server or lost the connection (${c.code}): check that the server runs and that the URL's host and port are right; nothing half written stays (each write is one transaction)`,
    );
  if (c.name === "PostgresError")
    return new InputError("", `${at}: ${c.message} (SQLSTATE ${c.code}): ${serverAdvice(c.code, s)}`);
  return e;
}
