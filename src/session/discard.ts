// Removing a session that holds nothing: what an import created before its items were refused
// or failed to be written, so that a failed import leaves nothing behind and can be retried.

import { LogSession } from "./log-session.ts";
import { PgSession } from "./pg-session.ts";
import type { Session } from "./session.ts";

/**
 * Removes `s` if it holds nothing (version 0), and closes it; resolves to whether it was removed.
 * PostgreSQL: one guarded DELETE of its row. A log: its file, under its write lock and re-read
 * there (a log another process wrote to meanwhile holds entries and is kept; one that opened it
 * before and writes after is refused, the file being gone).
 */
export async function discardIfEmpty(s: Session): Promise<boolean> {
  try {
    if (s instanceof PgSession) return await s.discardIfEmpty();
    if (s instanceof LogSession) return await s.discardIfEmpty();
    return false;
  } finally {
    await s.close();
  }
}
