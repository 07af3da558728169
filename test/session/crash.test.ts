// Crash safety: a writer SIGKILLed at random instants, during appends and during compaction
// commits, many times over one session. After every kill the session opens, every append the
// writer saw resolve is there exactly once, no item is there twice, and every law holds on every
// committed step (no half-applied step: a step is one line).
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../src/session/open.ts";
import { type Backend, backends, logBackend, pgBackend, removeFresh } from "./backends.ts";
import { questionCounts } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";
import { bundleWorker, startWorker } from "./worker-process.ts";

afterAll(removeFresh);

/** Kills per mode and lane, and the lanes run at once (one session each): 200 kills in all, the floor. */
const KILLS = { append: 50, mixed: 50 };
const LANES = 2;
/**
 * The longest wait before a kill, per mode, from the first append or the first compaction step
 * on, wide enough to land before, in and after commits: a PostgreSQL commit is a few round trips
 * to the server (under load, 40 ms let one lane of 50 mixed kills commit only 4 steps), and a run
 * now summarizes its stretches as one batch before it commits them (under load, 40 ms let a log
 * lane commit only 2 steps in 50 mixed kills), so the mixed window is 150 ms on both backends.
 */
const MAX_DELAY_MS: Record<string, { append: number; mixed: number }> = {
  [logBackend.name]: { append: 25, mixed: 150 },
  [pgBackend.name]: { append: 25, mixed: 150 },
};

let bundle = "";
beforeAll(() => {
  bundle = bundleWorker();
});

/** One lane: a session and its sequence of killed writers; returns the acknowledged ids and the records committed. */
async function lane(backend: Backend, name: string): Promise<{ acked: number; records: number }> {
  const at = backend.fresh();
  await (await openSession(at, { format: "openai" })).close();
  let acked = 0;
  for (const mode of ["append", "mixed"] as const) {
    for (let i = 0; i < KILLS[mode]; i++) {
      const w = startWorker(bundle, [mode, at, `${name}${mode[0]}${i}`, "0"]);
      // an appender is killed in its stream of appends (its first one reads the whole history for
      // the pairing check), a mixed writer once its compaction is under way
      await (mode === "append" ? w.firstAck : w.firstStep);
      // a random instant from then on: mid-append, mid-commit, or between
      await sleep(Math.floor(Math.random() * MAX_DELAY_MS[backend.name][mode]));
      w.child.kill("SIGKILL");
      await w.exited;
      expect(w.stderr).toBe("");
      acked += w.acked.length;
      const s = await openSession(at);
      const counts = questionCounts(await s.history({ full: true }));
      for (const id of w.acked) expect(counts.get(id), `acknowledged ${id}`).toBe(1);
      for (const [id, n] of counts) expect(n, `item ${id}`).toBe(1);
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    }
  }
  const s = await openSession(at);
  const records = (await s.compactions()).length;
  await s.close();
  return { acked, records };
}

describe.each(backends)("crash safety: $name", (backend) => {
  const kills = LANES * (KILLS.append + KILLS.mixed);
  it(`survives ${kills} SIGKILLs during appends and compaction commits`, async () => {
    const lanes = await Promise.all(Array.from({ length: LANES }, (_, k) => lane(backend, `l${k}`)));
    // the kills landed while there was work: appends acknowledged, steps committed
    for (const l of lanes) {
      expect(l.acked).toBeGreaterThan(20);
      expect(l.records).toBeGreaterThan(10);
    }
  }, 600_000);
});
