// Crash safety of the PostgreSQL backend when the server itself goes down (issue 33): a server
// of its own (fsync on) is crashed (pg_ctl -m immediate) and started again while a session
// appends. An append the client saw succeed is never lost; one that failed is all there or not at
// all; the failures are environment errors naming the server (never "internal error"), the CLI
// exits 1 without hanging while the server is down, and the same session works again after it
// is back, with every law holding.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgServer, startPgServer } from "../../scripts/pg-server.ts";
import { InputError } from "../../src/model/errors.ts";
import { openSession } from "../../src/session/open.ts";
import { runSourceProcess, tempDir } from "../support/cli-run.ts";
import { questionCounts, SMALL_CONFIG, turn } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";

let server: PgServer | undefined;
beforeAll(async () => {
  server = await startPgServer({ db: "restarted", fsync: true });
}, 120_000);
afterAll(() => server?.stop());

const APPENDS = 60;

describe("postgresql: the server restarted during appends", () => {
  it("loses no acknowledged append, fails clearly while down, and works again after the restart", async () => {
    const pg = server as PgServer;
    const at = `${pg.url}?session=restart`;
    const s = await openSession(at, { format: "openai" });
    const acked: number[] = [];
    const failed: { i: number; e: unknown }[] = [];
    let restartedAt = -1;
    const appending = (async () => {
      for (let i = 0; i < APPENDS; i++) {
        try {
          await s.append(turn(`r${i}`));
          acked.push(i);
        } catch (e) {
          failed.push({ i, e });
        }
        await sleep(10);
      }
    })();
    while (acked.length < 20) await sleep(5);
    pg.crash();
    // while it is down: the CLI says what to check and exits 1, without hanging
    const cwd = tempDir();
    const down = await runSourceProcess(["session", "show", at], { cwd, limitMs: 30_000 });
    expect(down.timedOut).toBe(false);
    expect(down.code, down.stderr).toBe(1);
    expect(down.stderr).toMatch(/PostgreSQL server 127\.0\.0\.1:\d+, database restarted.*cannot reach the server/);
    await sleep(300);
    pg.start();
    restartedAt = acked.length + failed.length;
    await appending;

    expect(failed.length).toBeGreaterThan(0);
    for (const { e } of failed) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(
        /PostgreSQL server 127\.0\.0\.1:\d+, database restarted, user \w+: .*(cannot reach the server|shut down or restarted|terminating connection)/,
      );
    }
    // after the restart, the same session appends again: the last appends all succeeded
    expect(acked.at(-1)).toBe(APPENDS - 1);
    expect(acked.filter((i) => i >= restartedAt + 2).length).toBeGreaterThan(0);

    const again = await openSession(at);
    const counts = questionCounts(await again.history({ full: true }));
    for (const i of acked) expect(counts.get(`r${i}`), `acknowledged append r${i}`).toBe(1);
    // a failed append is all there or not at all
    const full = (await again.history({ full: true })).trim().split("\n");
    expect(full.length % 4).toBe(0);
    for (const { i } of failed) expect([undefined, 1]).toContain(counts.get(`r${i}`));
    // and the session compacts, every law holding
    const report = await again.compact(SMALL_CONFIG);
    expect(report.stretches.length).toBeGreaterThan(0);
    expect(await sessionLawProblems(again)).toEqual([]);
    await again.close();
    await s.close();
  });
});
