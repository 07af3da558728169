// Vitest global setup: one real PostgreSQL server on loopback for the whole run (scripts/pg-server.ts),
// its database's URL given to the tests in SAFECUT_TEST_PG_URL; stopped and removed at the end.
// When no server can be started (PostgreSQL not installed), the run goes on: the tests that need
// one fail with the reason (SAFECUT_TEST_PG_ERROR), the others are not held up.
import { startPgServer } from "../../scripts/pg-server.ts";

/** The environment variable the tests read the server's URL from. */
export const PG_URL_ENV = "SAFECUT_TEST_PG_URL";
/** Why no server was started, for the tests that need one. */
export const PG_ERROR_ENV = "SAFECUT_TEST_PG_ERROR";

export default async function setup(): Promise<() => void> {
  // a caller's own database (e.g. a CI service) is used as given
  if (process.env[PG_URL_ENV] !== undefined) return () => {};
  try {
    const server = await startPgServer();
    process.env[PG_URL_ENV] = server.url;
    return () => server.stop();
  } catch (e) {
    process.env[PG_ERROR_ENV] = (e as Error).message;
    return () => {};
  }
}
