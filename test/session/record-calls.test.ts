// Each compaction record carries the summarizer calls that produced its summary (issue 21: the
// summarizer's model and reported usage; issue 20 item 7), on both backends, over real HTTP: the
// OpenAI summarizer talks to the node:http imitation on 127.0.0.1, whose answers carry usage.
// Every call is counted on one record (a batch call on the first of its stretches, named by the
// others), so the sums over a run's records are the report's call totals.
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { callTotals } from "../../src/engine/run/run-hooks.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import { openSession } from "../../src/session/open.ts";
import type { CompactionRecord } from "../../src/session/record.ts";
import { type Behavior, promptOf, type RecordedRequest } from "../support/http-imitation.ts";
import { backends, logBackend, removeFresh } from "./backends.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";
import { answer, factsSummary, imitationPerTest, partsOf } from "./imitation-answers.ts";
import { sessionLawProblems } from "./session-laws.ts";

const imitation = imitationPerTest();
afterAll(removeFresh);

const USAGE = { prompt_tokens: 1200, completion_tokens: 80, prompt_tokens_details: { cached_tokens: 1000 } };
const REPORTED = { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1000 };
const MODEL = "gpt-4o-mini";

function config(url: string, extra: ConfigInput = {}): ConfigInput {
  return { ...SMALL_CONFIG, provider: "openai", base_url: url, model: MODEL, timeout_ms: 5_000, ...extra };
}

/** The sums over the calls the records count, as the report sums its calls. */
function recordTotals(records: readonly CompactionRecord[]) {
  return callTotals(records.flatMap((r) => r.calls ?? []));
}

/** The records' sums are the report's, no call counted twice, every call with the provider's usage. */
function expectAccounted(records: readonly CompactionRecord[], report: CompactionReport): void {
  const counted = records.flatMap((r) => r.calls ?? []);
  expect(counted).toHaveLength(report.calls.length);
  const mine = recordTotals(records);
  const { durationMs, ...tokens } = report.callTotals;
  const { durationMs: myDuration, ...myTokens } = mine;
  expect(myTokens).toEqual(tokens);
  expect(myDuration).toBeCloseTo(durationMs, 6);
  for (const c of counted) expect(c).toMatchObject({ answered: true, usage: REPORTED });
  for (const r of records) expect(r.model).toBe(MODEL);
}

describe.each(backends)("compaction records carry their summarizer calls: $name", (backend) => {
  it("one call per step; a rejected summary's retry is counted on the same record", async () => {
    const server = await imitation.start((n: number, req: RecordedRequest): Behavior => {
      // the first answer is longer than the stretch (rejected), its retry is good
      if (n === 0)
        return { kind: "summary", text: `<summary>${"longer ".repeat(200)}</summary>`, usage: USAGE, delayMs: 5 };
      return { kind: "summary", text: answer(req), usage: USAGE, delayMs: 5 };
    });
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`u${i}`));
    const report = await s.compact(config(server.url, { batch_tokens: 0 }), { env: {} });
    expect(report.skipped).toEqual([]);
    expect(report.stretches.length).toBeGreaterThan(1);
    expect(report.calls).toHaveLength(server.requests.length);
    const records = await s.compactions();
    expect(records).toHaveLength(report.stretches.length);
    expect(records.map((r) => r.calls?.length)).toEqual(report.stretches.map((x) => x.attempts));
    expect(records[0].calls).toHaveLength(2);
    expect(records.every((r) => r.sharedCalls === undefined)).toBe(true);
    expectAccounted(records, report);
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
    // read back by a new process as written
    const again = await openSession(at);
    expect(await again.compactions()).toEqual(records);
    await again.close();
  });

  it("a batch call is counted on its first stretch's record and named by the others; a part asked alone is its own", async () => {
    let batches = 0;
    const server = await imitation.start((_n: number, req: RecordedRequest): Behavior => {
      const batch = partsOf(promptOf(req)).length > 1;
      // the first batch answer leaves out its second summary: that stretch is asked for alone
      const omit = batch && batches++ === 0 ? 2 : undefined;
      return {
        kind: "summary",
        text: answer(req, (p, k) => (k === omit ? undefined : factsSummary(p))),
        usage: USAGE,
      };
    });
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 16; i++) await s.append(turn(`b${i}`));
    const report = await s.compact(config(server.url), { env: {} });
    expect(batches).toBeGreaterThan(0);
    expect(report.skipped).toEqual([]);
    const records = await s.compactions();
    expect(records).toHaveLength(report.stretches.length);
    expectAccounted(records, report);
    const byVersion = new Map(records.map((r) => [r.committedVersion, r]));
    const sharing = records.filter((r) => r.sharedCalls !== undefined);
    expect(sharing.length).toBeGreaterThan(0);
    for (const r of sharing)
      for (const ref of r.sharedCalls ?? []) {
        expect(ref.record).toBeLessThan(r.committedVersion);
        expect(byVersion.get(ref.record)?.calls?.[ref.call]?.stretches).toBeGreaterThan(1);
      }
    // the stretch left out of the first batch answer: its own call, and the batch call it shares
    const second = records[1];
    expect(second.calls).toHaveLength(1);
    expect(second.calls?.[0].stretches).toBe(1);
    expect(second.sharedCalls).toEqual([{ record: records[0].committedVersion, call: 0 }]);
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  });
});

describe("a record's calls as read back", () => {
  it("refuses a record sharing a call no earlier record holds, naming its line, and leaves the log as it is", async () => {
    const server = await imitation.start(
      (_n: number, req: RecordedRequest): Behavior => ({
        kind: "summary",
        text: answer(req),
        usage: USAGE,
      }),
    );
    const at = logBackend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 16; i++) await s.append(turn(`x${i}`));
    await s.compact(config(server.url), { env: {} });
    await s.close();
    const lines = readFileSync(at, "utf8").split("\n");
    const k = lines.findIndex((l) => l.includes('"sharedCalls":[{"record":'));
    expect(k).toBeGreaterThan(0);
    lines[k] = lines[k].replace(/"sharedCalls":\[\{"record":(\d+),"call":0\}/, '"sharedCalls":[{"record":$1,"call":7}');
    writeFileSync(at, lines.join("\n"));
    const bytes = readFileSync(at);
    await expect(openSession(at)).rejects.toThrow(
      new RegExp(`line ${k + 1}: shares call 7 of record \\d+, which holds no such call`),
    );
    expect(readFileSync(at).equals(bytes)).toBe(true);
  });
});
