// Many writers on one session: 4 processes appending and 2 compacting at once, thousands of
// items. At the end: every item appended is there exactly once (0 lost, 0 duplicated), every
// law holds after every committed step, and the watermark never decreased (read back from the
// records; sessionLawProblems checks both). One log reached by two paths (a symbolic link, a hard
// link in another directory) is one log: its writers exclude each other whatever path they took.
import { linkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../src/session/open.ts";
import { backends, freshDir, logBackend, removeFresh } from "./backends.ts";
import { questionCounts } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";
import { bundleWorker, startWorker } from "./worker-process.ts";

afterAll(removeFresh);

const APPENDERS = 4;
const COMPACTORS = 2;
/** Turns per appender: 4 items each, so 4 * 130 * 4 = 2080 items in all. */
const TURNS = 130;

let bundle = "";
beforeAll(() => {
  bundle = bundleWorker();
});

describe.each(backends)("concurrency: $name", (backend) => {
  it(`${APPENDERS} appenders and ${COMPACTORS} compactors on one session lose and duplicate nothing`, async () => {
    const at = backend.fresh();
    await (await openSession(at, { format: "openai" })).close();
    const stop = join(freshDir(), "stop");
    const compactors = Array.from({ length: COMPACTORS }, () => startWorker(bundle, ["compact", at, stop]));
    const appenders = Array.from({ length: APPENDERS }, (_, k) =>
      startWorker(bundle, ["append", at, `w${k}`, String(TURNS)]),
    );
    const codes = await Promise.all(appenders.map((w) => w.exited));
    writeFileSync(stop, "");
    codes.push(...(await Promise.all(compactors.map((w) => w.exited))));
    for (const w of [...appenders, ...compactors]) expect(w.stderr).toBe("");
    expect(codes.every((c) => c === 0)).toBe(true);

    const s = await openSession(at);
    const counts = questionCounts(await s.history({ full: true }));
    expect(counts.size).toBe(APPENDERS * TURNS);
    for (const w of appenders) {
      expect(w.acked).toHaveLength(TURNS);
      for (const id of w.acked) expect(counts.get(id), id).toBe(1);
    }
    const records = await s.compactions();
    expect(records.length).toBeGreaterThan(10);
    // both kernel verdicts occurred: steps committed as planned, and rebased over others' appends
    expect(new Set(records.map((r) => r.decision))).toEqual(new Set(["commit", "rebase"]));
    expect(await sessionLawProblems(s)).toEqual([]);
  }, 600_000);
});

describe("concurrency: one log reached by two paths", () => {
  it.each(["a symbolic link", "a hard link"])(
    "two processes appending 300 items in turns, one through %s: every item there, in order",
    async (kind) => {
      const at = logBackend.fresh();
      await (await openSession(at, { format: "openai" })).close();
      const other = join(freshDir(), "other.jsonl");
      if (kind === "a hard link") linkSync(at, other);
      else symlinkSync(at, other);
      // 2 writers x 38 turns x 4 items: 304 appended items, the two writers' appends interleaved
      const writers = [at, other].map((where, k) => startWorker(bundle, ["append", where, `p${k}`, "38"]));
      const codes = await Promise.all(writers.map((w) => w.exited));
      for (const w of writers) expect(w.stderr).toBe("");
      expect(codes).toEqual([0, 0]);
      const s = await openSession(at);
      const history = await s.history({ full: true });
      const counts = questionCounts(history);
      expect(counts.size).toBe(76);
      for (const n of counts.values()) expect(n).toBe(1);
      // each writer's turns in the order it appended them
      for (const k of [0, 1]) {
        const order = [...history.matchAll(new RegExp(`"question p${k}-(\\d+) `, "g"))].map((m) => Number(m[1]));
        expect(order).toEqual(Array.from({ length: 38 }, (_, j) => j));
      }
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    },
    120_000,
  );
});
