// The sessions' section of bench/RESULTS.md (written by `npx tsx bench/session.ts`, kept by a
// full `npm run bench`): its heading and its text around the two tables.

/** The section's heading: bench/session.ts replaces the section under it in RESULTS.md. */
export const SESSION_HEADING = "## Sessions: the JSONL log and PostgreSQL";

/** The section's lines around the tables the bench printed. */
export function sessionSection(tables: readonly string[], when: string): string[] {
  return [
    SESSION_HEADING,
    "",
    `Run ${when} with \`npx tsx bench/session.ts\` on Node ${process.version}; wall time (fsync and the server's`,
    "commits are waits, not CPU), on a shared 2-core machine under load: only ratios within this run are meant to be",
    "quoted. The log's baselines: a bare write of the same line plus fsync; reading and parsing the file. PostgreSQL (a",
    "server started for the bench on 127.0.0.1, fsync on): a bare one-row INSERT (autocommit); a bare SELECT of the",
    "session's rows in order, each parsed. A compaction step (offline summarizer, its guarded durable write included)",
    "against the same run on an in-memory store. Throughput: 4 appending and 2 compacting processes on one session,",
    "from their start until the last append is acknowledged (0 lost, 0 duplicated, checked).",
    "",
    ...tables,
    "",
  ];
}
