// The test server the global setup started: reachable at the URL it exported, a real PostgreSQL.
import postgres from "postgres";
import { expect, it } from "vitest";
import { testDatabaseUrl } from "../session/backends.ts";

it("the global setup's PostgreSQL server answers on loopback", async () => {
  const url = testDatabaseUrl();
  expect(url).toMatch(/^postgres:\/\/\w+@127\.0\.0\.1:\d+\/safecut$/);
  const sql = postgres(url, { onnotice: () => {} });
  try {
    const [row] = await sql`select current_setting('server_version_num')::int as v, inet_server_addr()::text as addr`;
    expect(row.v).toBeGreaterThanOrEqual(130000);
    expect(row.addr).toBe("127.0.0.1/32");
  } finally {
    await sql.end();
  }
});
