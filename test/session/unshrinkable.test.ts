// The memory of stretches known not to shrink is kept in the session (issue 20 item 2, issue 21):
// a new process opening the session pays no summarizer call again for a stretch a run already
// found not to shrink, while the stretch is unchanged; it moves with compactions before it (the
// kernel's recordAfterSplice) and is dropped once its messages change (a clearing). Both
// backends, over real HTTP (the OpenAI summarizer against the imitation on 127.0.0.1): requests
// are counted at the server.
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { callTotals } from "../../src/engine/run/run-hooks.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import type { JsonObject } from "../../src/model/json.ts";
import { openSession } from "../../src/session/open.ts";
import type { UnshrinkableRecord } from "../../src/session/record.ts";
import type { Session } from "../../src/session/session.ts";
import { type Behavior, promptOf, type RecordedRequest } from "../support/http-imitation.ts";
import { backends, removeFresh } from "./backends.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";
import { answer, factsSummary, imitationPerTest } from "./imitation-answers.ts";
import { sessionLawProblems } from "./session-laws.ts";

const slot = imitationPerTest();
afterAll(removeFresh);

/** A lone short reply between two user messages: no summary of it is shorter. */
const TINY = "Hi tiny";
const tinyTurn = (): JsonObject[] => [
  { role: "user", content: "hello" },
  { role: "assistant", content: TINY },
];
/** A summary longer than any stretch here. */
const LONG = "a summary longer than what it replaces ".repeat(20);

function config(url: string, extra: ConfigInput = {}): ConfigInput {
  return { ...SMALL_CONFIG, provider: "openai", base_url: url, model: "gpt-4o-mini", timeout_ms: 5_000, ...extra };
}

/** Requests since the `from`-th whose prompt holds `text`. */
function asked(text: string, from = 0): number {
  return (slot.server?.requests ?? []).slice(from).filter((r) => promptOf(r).includes(text)).length;
}

/** Opens `at` in a new session object, appends `turns` turns named `name`, compacts, closes; the number of requests it made. */
async function runInNewProcess(at: string, name: string, turns: number, extra: ConfigInput = {}): Promise<number> {
  const from = slot.server?.requests.length ?? 0;
  const s = await openSession(at);
  for (let i = 0; i < turns; i++) await s.append(turn(`${name}${i}`));
  await s.compact(config(slot.server?.url ?? "", extra), { env: {} });
  expect(await sessionLawProblems(s)).toEqual([]);
  await s.close();
  return from;
}

/** The imitation: every summary of a stretch holding one of `stubborn` is longer than it; `fail` answers 400. */
async function imitation(stubborn: readonly string[], fail: () => string | undefined = () => undefined) {
  await slot.start((_n: number, req: RecordedRequest): Behavior => {
    const f = fail();
    if (f !== undefined && promptOf(req).includes(f)) return { kind: "raw", status: 400, body: "{}" };
    return {
      kind: "summary",
      text: answer(req, (p) => (stubborn.some((t) => p.includes(t)) ? LONG : factsSummary(p))),
    };
  });
}

/** The session's unshrinkable records, read where the session keeps them (its log's lines, its rows). */
async function unshrinkableRecords(at: string): Promise<UnshrinkableRecord[]> {
  if (!at.startsWith("postgres")) {
    return readFileSync(at, "utf8")
      .split("\n")
      .filter((l) => l.includes('"t":"unshrinkable"'))
      .map((l) => JSON.parse(l) as UnshrinkableRecord);
  }
  const sql = postgres(at.slice(0, at.indexOf("?")), { max: 1, onnotice: () => {} });
  try {
    const id = new URL(at).searchParams.get("session");
    const rows = await sql<{ record: UnshrinkableRecord }[]>`
      select record from safecut_entries where session = ${id} and kind = 'unshrinkable' order by seq`;
    return rows.map((r) => r.record);
  } finally {
    await sql.end();
  }
}

async function contextHolds(at: string, text: string): Promise<boolean> {
  const s: Session = await openSession(at);
  const holds = (await s.contextText()).includes(text);
  await s.close();
  return holds;
}

describe.each(backends)("stretches known not to shrink, kept in the session: $name", (backend) => {
  it("a new process pays no call again for a stretch found not to shrink", async () => {
    await imitation([TINY]);
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 2; i++) await s.append(turn(`a${i}`));
    await s.append(tinyTurn());
    for (let i = 2; i < 12; i++) await s.append(turn(`a${i}`));
    const first = await s.compact(config(slot.server?.url ?? ""), { env: {} });
    expect(asked(TINY)).toBeGreaterThan(0);
    expect(first.skipped.some((x) => x.reason.includes("not shorter"))).toBe(true);
    // one record of the stretches found not to shrink, holding the calls spent on them: with the
    // compaction records', every call of the run is counted once
    const found = await unshrinkableRecords(at);
    expect(found).toHaveLength(1);
    // the calls that asked for it: its own, and a batch call counted on a compaction record
    expect((found[0].calls?.length ?? 0) + (found[0].sharedCalls?.length ?? 0)).toBe(asked(TINY));
    const counted = [...(await s.compactions()).flatMap((r) => r.calls ?? []), ...(found[0].calls ?? [])];
    expect(counted).toHaveLength(first.calls.length);
    expect(callTotals(counted).durationMs).toBeCloseTo(first.callTotals.durationMs, 6);
    await s.close();
    const from = await runInNewProcess(at, "b", 8);
    expect(slot.server?.requests.length).toBeGreaterThan(from);
    expect(asked(TINY, from)).toBe(0);
    expect(await contextHolds(at, TINY)).toBe(true);
  });

  it("the record moves with a compaction before it, made by another process", async () => {
    // the first run fails to summarize the stretch just before the tiny one and finds the tiny one
    // does not shrink; the second summarizes the one before (the record moves); the third reads
    // the record moved by the second's compaction record
    let failing: string | undefined = "answer a1 ";
    await imitation([TINY], () => failing);
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 2; i++) await s.append(turn(`a${i}`));
    await s.append(tinyTurn());
    for (let i = 2; i < 12; i++) await s.append(turn(`a${i}`));
    // one stretch per call: the failed one does not keep the others from being asked
    const first = await s.compact(config(slot.server?.url ?? "", { batch_tokens: 1 }), { env: {} });
    await s.close();
    expect(first.outcome).toBe("degraded");
    expect(asked(TINY)).toBeGreaterThan(0);
    expect(await contextHolds(at, "answer a1 ")).toBe(true);
    failing = undefined;
    const second = await runInNewProcess(at, "b", 8);
    expect(asked("answer a1 ", second)).toBeGreaterThan(0);
    expect(await contextHolds(at, "answer a1 ")).toBe(false);
    expect(asked(TINY, second)).toBe(0);
    // a run that frees little while staying over the trigger is spaced (batchWorthRewrite): the
    // third run here must go, to show it does not ask for the tiny stretch again
    const third = await runInNewProcess(at, "c", 8, { floor_run_every: 1, floor_free_tokens: 1 });
    expect(slot.server?.requests.length).toBeGreaterThan(third);
    expect(asked(TINY, third)).toBe(0);
    expect(await contextHolds(at, TINY)).toBe(true);
  });

  it("a stretch whose messages changed (a tool result cleared) is worth a call again", async () => {
    const stubborn = "answer a1 ";
    await imitation([stubborn]);
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`a${i}`));
    await s.compact(config(slot.server?.url ?? ""), { env: {} });
    expect(asked(stubborn)).toBeGreaterThan(0);
    await s.close();
    // unchanged: not asked again
    const again = await runInNewProcess(at, "b", 4);
    expect(asked(stubborn, again)).toBe(0);
    // its tool result cleared: the stretch changed, a summarizing run asks for it again
    await runInNewProcess(at, "c", 4, { strategy: "clear", clear_at_least: 0, clear_keep: 0 });
    const reader = await openSession(at);
    const cleared = (await reader.clearings()).flatMap((r) => ("results" in r ? r.results : []));
    expect(cleared.map((r) => r.toolCallId)).toContain("call-a1");
    await reader.close();
    const changed = await runInNewProcess(at, "d", 4);
    expect(asked(stubborn, changed)).toBeGreaterThan(0);
  });
});
