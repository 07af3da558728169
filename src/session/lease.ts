// The compaction lease of a session: at most one background compaction at a time per session,
// across processes. In the log, a lock file beside the session's (`.safecut-INODE.compacting`,
// lock-files.ts; lock.ts: O_EXCL with the owner's identity, broken when its owner is dead); in PostgreSQL, a session-level
// advisory lock on a connection of its own, which the server releases when that connection ends
// (a killed worker's lease goes with its connection). Taking it never waits; what the server,
// the network or the file system refuses is an environment error (pg-errors.ts, fs-errors.ts); a lease is held
// across the run's summarizer calls and released when the run ends.

import type { Sql } from "postgres";
import { environmentError } from "./fs-errors.ts";
import { tryLocks } from "./lock.ts";
import { logLockFiles } from "./lock-files.ts";
import { pgFailure } from "./pg-errors.ts";
import { isPostgresLocation, parsePgLocation } from "./pg-location.ts";

/** A lease held: release it once the run it covers ended. */
export interface Lease {
  release(): Promise<void>;
}

/** The advisory lock's first key: safecut's leases, apart from other users of advisory locks. */
const LEASE_CLASS = 0x5afec07;

/** Takes the PostgreSQL lease on a connection of its own; closes it again when another process holds the lease. */
async function tryPgLease(location: string): Promise<Lease | undefined> {
  const { url, session, server } = parsePgLocation(location);
  const { default: postgres } = await import("postgres");
  const sql: Sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ ok: boolean }[]>`
      select pg_try_advisory_lock(${LEASE_CLASS}, hashtext(${session})) as ok`;
    if (row?.ok === true)
      return {
        // ending the connection releases the session-level lock with it
        release: () => sql.end({ timeout: 5 }),
      };
  } catch (e) {
    await sql.end({ timeout: 5 });
    // the server's or the network's refusal, told as every session operation tells it (exit 1)
    throw pgFailure(e, server);
  }
  await sql.end({ timeout: 5 });
  return undefined;
}

/** Takes the compaction lease of the session at `location` if no live process holds it; undefined otherwise. */
export async function tryLease(location: string): Promise<Lease | undefined> {
  if (isPostgresLocation(location)) return tryPgLease(location);
  let at = location;
  let release: (() => void) | undefined;
  try {
    const files = logLockFiles(location, "compacting");
    at = files[0];
    release = tryLocks(files);
  } catch (e) {
    // a read-only mount, no permission, a directory in the way: what the file system refused (exit 1)
    throw environmentError(e, at, "taking the session's compaction lease");
  }
  return release === undefined ? undefined : { release: async () => release() };
}
