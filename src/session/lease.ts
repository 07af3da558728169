// The compaction lease of a session: at most one background compaction at a time per session,
// across processes. In the log, a lock file beside the session's (`.safecut-INODE.compacting`,
// lock-files.ts; lock.ts: O_EXCL with the owner's identity, broken when its owner is dead); in PostgreSQL, a session-level
// advisory lock on a connection of its own, which the server releases when that connection ends
// (a killed worker's lease goes with its connection). Taking it never waits; a lease is held
// across the run's summarizer calls and released when the run ends.

import type { Sql } from "postgres";
import { tryLocks } from "./lock.ts";
import { logLockFiles } from "./lock-files.ts";
import { isPostgresLocation, parsePgLocation } from "./pg-location.ts";

/** A lease held: release it once the run it covers ended. */
export interface Lease {
  release(): Promise<void>;
}

/** The advisory lock's first key: safecut's leases, apart from other users of advisory locks. */
const LEASE_CLASS = 0x5afec07;

/** Takes the PostgreSQL lease on a connection of its own; closes it again when another process holds the lease. */
async function tryPgLease(location: string): Promise<Lease | undefined> {
  const { url, session } = parsePgLocation(location);
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
    throw e;
  }
  await sql.end({ timeout: 5 });
  return undefined;
}

/** Takes the compaction lease of the session at `location` if no live process holds it; undefined otherwise. */
export async function tryLease(location: string): Promise<Lease | undefined> {
  if (isPostgresLocation(location)) return tryPgLease(location);
  const release = tryLocks(logLockFiles(location, "compacting"));
  return release === undefined ? undefined : { release: async () => release() };
}
