// The compaction lease (lease.ts) meets the environment as every session operation does (issue
// 33): what the database or the file system refuses is an InputError (exit 1 in the CLI) naming
// the server or the path and what to check, never the driver's or Node's raw error, which the CLI
// calls a bug (exit 4).
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/pg-server.ts";
import { InputError } from "../../src/model/errors.ts";
import { tryLease } from "../../src/session/lease.ts";
import { openSession } from "../../src/session/open.ts";
import { removeFresh, testDatabaseUrl } from "./backends.ts";
import { turn } from "./conversation.ts";
import { remountReadOnly, tmpfs, unmountAll, whyNoMount } from "./tmpfs.ts";

const noMount = whyNoMount();
afterAll(() => {
  unmountAll();
  removeFresh();
});

/** What `p` rejected with. */
async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a refusal");
}

describe("the compaction lease's environment errors", () => {
  it("PostgreSQL: a refused port is an input error naming the server, not a raw driver error", async () => {
    const port = await freePort();
    const e = await refusal(tryLease(`postgres://agent:pw-secret@127.0.0.1:${port}/agents?session=s1`));
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).toMatch(
      new RegExp(`PostgreSQL server 127\\.0\\.0\\.1:${port}, database agents, user agent: cannot reach the server`),
    );
    expect((e as Error).message).not.toContain("pw-secret");
  });

  it("PostgreSQL: an unknown database is an input error saying what to check", async () => {
    const u = new URL(testDatabaseUrl());
    u.pathname = "/no_such_database";
    const e = await refusal(tryLease(`${u.toString()}?session=s1`));
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).toMatch(/database no_such_database.*check the database name/);
  });

  it.skipIf(noMount !== undefined)(
    `a log on a read-only mount: an input error naming the lease's path${noMount === undefined ? "" : ` (skipped: ${noMount})`}`,
    async () => {
      const dir = tmpfs(64 * 1024);
      const at = join(dir, "session.jsonl");
      const s = await openSession(at, { format: "openai" });
      await s.append(turn("a"));
      await s.close();
      remountReadOnly(dir);
      const e = await refusal(tryLease(at));
      expect(e).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(
        /\.compacting: taking the session's compaction lease: read-only file system/,
      );
    },
  );
});
