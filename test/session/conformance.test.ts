// One contract, every backend: the same cases run against each session backend (backends.ts).
import { afterAll, describe, expect, it } from "vitest";
import type { MemoryCandidate } from "../../src/engine/memory/candidates.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import type { JsonObject } from "../../src/model/json.ts";
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { BackgroundSession } from "../../src/session/background-session.ts";
import { openSession } from "../../src/session/open.ts";
import type { Session } from "../../src/session/session.ts";
import { backends, removeFresh } from "./backends.ts";
import { BACKGROUND_CONFIG, questionCounts, SMALL_CONFIG, turn } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";

afterAll(removeFresh);

/** The offline summarizer, with `during` run while each summary is being written. */
function summarizerDuring(during: () => Promise<void>): Summarizer {
  const inner = offlineSummarizer(charCounter());
  return {
    name: "offline-with-interleaving",
    async summarize(req: SummaryRequest) {
      await during();
      return inner.summarize(req);
    },
  };
}

/**
 * Checks the memory flush candidates the compaction records of the session `s` at `at` hold: each
 * text within `bytes` and said in the history, from `at`; the hook got exactly them, in order; and
 * another process reads the same records back and counts them. Returns them.
 */
async function expectCandidatesKept(
  at: string,
  s: Session,
  handed: readonly MemoryCandidate[],
  bytes: number,
): Promise<MemoryCandidate[]> {
  const records = await s.compactions();
  const stored = records.flatMap((r) => r.memoryCandidates ?? []);
  expect(stored.length).toBeGreaterThan(0);
  const history = await s.history({ full: true });
  for (const c of stored) {
    expect(new TextEncoder().encode(c.text).length).toBeLessThanOrEqual(bytes);
    expect(history).toContain(c.text);
    expect(c.sourceSession).toBe(at);
  }
  // the hook got exactly what the records hold
  expect(handed).toEqual(stored);
  // another process reads the same records back, candidates included, and counts them
  const other = await openSession(at);
  expect(await other.compactions()).toEqual(records);
  expect((await other.stats()).memoryCandidates).toBe(stored.length);
  await other.close();
  return stored;
}

describe.each(backends)("session conformance: $name", (backend) => {
  it("keeps appended items byte for byte and gives them back as the context until something is compacted", async () => {
    const s = await openSession(backend.fresh(), { format: "openai" });
    const texts = ['{"role":"system",  "content":"be brief"}', '{"role":"user","content":"hi \\u00e9"}'];
    expect(await s.appendTexts(texts)).toBe(2);
    await s.append(turn("t1"));
    const full = await s.history({ full: true });
    expect(full.startsWith(`${texts.join("\n")}\n`)).toBe(true);
    expect(await s.contextText()).toBe(full);
    expect(await s.compactions()).toEqual([]);
    expect(await s.version()).toBe(6);
    await s.close();
  });

  it("appends a batch larger than the database driver's parameters allow in one statement, all in one write", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    // 4 parameters a row: 16,384 rows are over the driver's 65,534
    const texts = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ role: "user", content: `m${i}` }));
    expect(await s.appendTexts(texts)).toBe(20_000);
    await s.close();
    const again = await openSession(at);
    expect(await again.version()).toBe(20_000);
    expect((await again.history({ full: true })).split("\n").at(-2)).toBe(texts.at(-1));
    await again.close();
  });

  it("fixes the format at creation and refuses another one on open", async () => {
    const at = backend.fresh();
    await (await openSession(at, { format: "openai" })).close();
    await expect(openSession(at, { format: "anthropic" })).rejects.toThrow(/format is openai, not anthropic/);
    expect((await openSession(at)).format).toBe("openai");
    await expect(openSession(backend.fresh())).rejects.toThrow(/creating a session needs its format/);
  });

  it("refuses an item its format cannot read, and writes nothing", async () => {
    const s = await openSession(backend.fresh(), { format: "openai" });
    await expect(s.append([{ role: "wizard", content: "x" }])).rejects.toThrow();
    await expect(s.appendTexts(["[1,2]"])).rejects.toThrow(/items\[0\]: expected a JSON object/);
    expect(await s.version()).toBe(0);
  });

  it("checks each append's tool pairing against everything the session holds, whoever appended it", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const other = await openSession(at);
    const [question, call, result, answer] = turn("p");
    await s.append([question, call]);
    const version = await s.version();
    await expect(s.append([{ role: "tool", tool_call_id: "nowhere", content: "x" }])).rejects.toThrow(
      /items\[0\]: orphan tool result: no tool call has id "nowhere"/,
    );
    await expect(other.append([call])).rejects.toThrow(/items\[0\]: duplicate tool call id "call-p"/);
    expect(await s.version()).toBe(version);
    // the call was appended by the first writer, its result by the second
    await other.append([result]);
    await expect(s.append([result])).rejects.toThrow(/items\[0\]: second tool result for "call-p"/);
    await s.append([answer]);
    expect(await s.version()).toBe(4);
    expect(await sessionLawProblems(s)).toEqual([]);
  });

  it("compacts with one record per step, keeps every original, and a new process sees the same context", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`c${i}`));
    const before = await s.history({ full: true });
    const report = await s.compact(SMALL_CONFIG);
    expect(report.stretches.length).toBeGreaterThan(0);
    const records = await s.compactions();
    expect(records).toHaveLength(report.stretches.length);
    expect(records.every((r) => r.summarizer === "offline" && r.decision === "commit")).toBe(true);
    // a step under every trigger, in a run that was due going on down to its target, is "to target" in both
    expect(records.map((r) => r.trigger)).toEqual(report.stretches.map((x) => x.trigger));
    expect(await s.history({ full: true })).toBe(before);
    expect((await s.context()).length).toBeLessThan(48);
    expect(await sessionLawProblems(s)).toEqual([]);
    const other = await openSession(at);
    expect(await other.contextText()).toBe(await s.contextText());
    // entries: the items, one record per step, and one unshrinkable record when the run found
    // stretches not to shrink (here the aged summaries: the offline summarizer's are no shorter)
    const found = report.skipped.some((x) => x.reason.startsWith("the summary is not shorter")) ? 1 : 0;
    expect(await other.version()).toBe(48 + records.length + found);
  });

  it("stores each step's memory flush candidates with its compaction record, gives them to the agent, and reads them back in a new process", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) {
      const [question, ...rest] = turn(`mem${i}`);
      // a boundary and a preference in every user message, and assistant text that only looks like one
      const said = `Never push to branch${i} without asking. I prefer tabs in file${i}.ts.`;
      await s.append([{ ...question, content: `${question.content}. ${said}` }, ...rest.slice(0, 2)]);
      await s.append([{ role: "assistant", content: `Always remember answer${i}. I prefer nothing.` }]);
    }
    const handed: MemoryCandidate[] = [];
    const config = { ...SMALL_CONFIG, memory_candidates: 3, memory_candidate_bytes: 24 };
    const report = await s.compact(config, { onMemoryCandidates: (c) => handed.push(...c) });
    expect(report.stretches.length).toBeGreaterThan(0);
    for (const r of await s.compactions()) expect((r.memoryCandidates ?? []).length).toBeLessThanOrEqual(3);
    for (const c of await expectCandidatesKept(at, s, handed, 24)) {
      expect(["user_preference", "safety_boundary", "fact"]).toContain(c.tag);
      expect(c.confidence).toBeGreaterThanOrEqual(0);
      expect(c.confidence).toBeLessThanOrEqual(1);
      // from the user's messages, never the assistant's
      expect(c.text.startsWith("Never push") || c.text.startsWith("I prefer tabs")).toBe(true);
    }
    await s.close();
  });

  it("a background run adopted at one step stores its steps' memory flush candidates and gives them to the agent", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const handed: MemoryCandidate[] = [];
    const reports: CompactionReport[] = [];
    const config = { ...BACKGROUND_CONFIG, memory_candidates: 2, memory_candidate_bytes: 32 };
    const bg = new BackgroundSession(s, config, {
      onMemoryCandidates: (c) => handed.push(...c),
      onReport: (r) => reports.push(r),
    });
    let started = false;
    for (let i = 0; i < 60 && !started; i++) {
      const [question, ...rest] = turn(`bgmem${i}`);
      // a boundary the rules tag in every user message
      const said = `Never deploy service${i} on a Friday.`;
      started = (await bg.step([{ ...question, content: `${question.content}. ${said}` }, ...rest])).started;
    }
    expect(started).toBe(true);
    await bg.settle();
    // the run was adopted at one step and wrote compaction records
    expect(reports.length).toBe(1);
    expect(reports[0].stretches.length).toBeGreaterThan(0);
    const records = await s.compactions();
    expect(records.length).toBeGreaterThan(0);
    // every record covers user messages that say "Never deploy": each holds its candidates, at most 2
    for (const r of records) {
      expect((r.memoryCandidates ?? []).length).toBeGreaterThan(0);
      expect((r.memoryCandidates ?? []).length).toBeLessThanOrEqual(2);
    }
    for (const c of await expectCandidatesKept(at, s, handed, 32)) {
      expect(c.tag).toBe("safety_boundary");
      expect(c.text.startsWith("Never deploy")).toBe(true);
    }
    await s.close();
  }, 60_000);

  it("writes no candidates with memory_candidates at its default (0)", async () => {
    const s = await openSession(backend.fresh(), { format: "openai" });
    for (let i = 0; i < 12; i++) {
      const [question, ...rest] = turn(`off${i}`);
      await s.append([{ ...question, content: `${question.content}. Never push to main.` }, ...rest]);
    }
    const handed: MemoryCandidate[] = [];
    await s.compact(SMALL_CONFIG, { onMemoryCandidates: (c) => handed.push(...c) });
    const records = await s.compactions();
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.memoryCandidates === undefined)).toBe(true);
    expect(handed).toEqual([]);
    expect((await s.stats()).memoryCandidates).toBe(0);
    await s.close();
  });

  it("gives every item back as written (numbers as written, a multi-line item on one line) before and after a compaction, here and in a new process", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    // a CR and a newline between tokens, a big integer and 1.0 in a field the adapter keeps as it is
    const odd = '{"role":"user",\r\n "content":"question big-1 x",\n "meta":{"id":12345678901234567890,"w":1.0}}';
    const oneLine = '{"role":"user", "content":"question big-1 x", "meta":{"id":12345678901234567890,"w":1.0}}';
    await s.appendTexts([odd]);
    expect(await s.contextText()).toBe(`${oneLine.replaceAll(", ", ",")}\n`);
    for (let i = 0; i < 12; i++) await s.append(turn(`o${i}`));
    const tail = '{"role":"user","content":"question big-2 y","meta":{"id":98765432109876543210,"w":2.50}}';
    await s.appendTexts([tail.replace(",", ",\n")]);
    const expected = (await s.contextText()).split("\n");
    expect(expected.at(-2)).toBe(tail);
    expect((await s.compact(SMALL_CONFIG)).stretches.length).toBeGreaterThan(0);
    // after the compaction the context is derived from every entry again: the kept items as written
    const after = await s.contextText();
    expect(after.trimEnd().split("\n").at(-1)).toBe(tail);
    expect(after.startsWith(`${oneLine.replaceAll(", ", ",")}\n`)).toBe(true);
    const other = await openSession(at);
    expect(await other.contextText()).toBe(after);
    await other.close();
    await s.close();
  });

  it("rebases a step over items another writer appended during the summarizer call, losing none", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`r${i}`));
    const other = await openSession(at);
    let k = 0;
    const report = await s.compact(SMALL_CONFIG, {
      summarizer: summarizerDuring(async () => {
        await other.append(turn(`late${k++}`));
      }),
      maxSteps: 3,
    });
    expect(report.stretches.map((x) => x.decision)).toContain("rebase");
    expect((await s.compactions()).every((r) => r.decision === "rebase")).toBe(true);
    const counts = questionCounts(await s.history({ full: true }));
    for (let i = 0; i < k; i++) expect(counts.get(`late${i}`)).toBe(1);
    expect(await sessionLawProblems(s)).toEqual([]);
  });

  it("takes clear_inputs (no ConfigError): the clearing record names the calls whose arguments it cleared, originals kept", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) {
      const [question, call, result, answer] = turn(`k${i}`);
      const calls = (call.tool_calls as JsonObject[]).map((c) => ({
        ...c,
        function: { name: "look", arguments: JSON.stringify({ file: `src/k${i}.ts`, lines: [1, 400] }) },
      }));
      await s.append([question, { ...call, tool_calls: calls }, result, answer]);
    }
    const before = await s.history({ full: true });
    const report = await s.compact({ ...SMALL_CONFIG, strategy: "clear", clear_at_least: 0, clear_inputs: true });
    expect(report.clearing?.inputs).toBeGreaterThan(0);
    const [record] = await s.clearings();
    expect("inputs" in record && record.inputs?.flatMap((x) => x.toolCallIds).length).toBe(report.clearing?.inputs);
    expect(await s.history({ full: true })).toBe(before);
    expect(await sessionLawProblems(s)).toEqual([]);
  });

  it("persists a clearing run as one record, keeps the originals, and restores a cleared result on demand", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`k${i}`));
    const before = await s.history({ full: true });
    const report = await s.compact({ ...SMALL_CONFIG, strategy: "clear", clear_at_least: 0 });
    const cleared = report.clearing?.results ?? 0;
    expect(cleared).toBeGreaterThan(0);
    const [record] = await s.clearings();
    expect(record).toMatchObject({ decision: "commit", items: 48 });
    expect("results" in record && record.results.length).toBe(cleared);
    expect(await s.history({ full: true })).toBe(before);
    expect(await s.compactions()).toEqual([]);
    expect(await sessionLawProblems(s)).toEqual([]);
    // a new process sees the cleared context; the first cleared result comes back byte for byte
    const other = await openSession(at);
    const text = await other.contextText();
    expect(text).toBe(await s.contextText());
    expect(text).toContain("[tool result cleared:");
    const id = "results" in record ? record.results[0].toolCallId : "";
    const original = before.split("\n").find((l) => l.includes(`"tool_call_id":"${id}"`));
    expect(text).not.toContain(original);
    expect(await other.restore(id)).toBe(50);
    expect(await s.contextText()).toContain(`${original}\n`);
    await expect(s.restore(id)).rejects.toThrow(new RegExp(`the result of ${id} is not cleared`));
    await expect(s.restore("nowhere")).rejects.toThrow(/the context holds no result of nowhere/);
    expect(await s.version()).toBe(50);
    expect(await sessionLawProblems(s)).toEqual([]);
    await other.close();
    await s.close();
  });

  it("rejects a clearing planned before another writer's compaction: nothing cleared", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`y${i}`));
    const other = await openSession(at);
    // another writer compacts while this one summarizes after clearing: the summary step is
    // rejected, and everything written is lawful
    const report = await s.compact(
      { ...SMALL_CONFIG, strategy: "clear-then-summarize", clear_at_least: 0 },
      {
        summarizer: summarizerDuring(async () => {
          if ((await other.compactions()).length === 0) await other.compact(SMALL_CONFIG, { maxSteps: 1 });
        }),
      },
    );
    expect(report.clearing?.results).toBeGreaterThan(0);
    expect(await s.clearings()).toHaveLength(1);
    expect(await sessionLawProblems(s)).toEqual([]);
  });

  it("rejects a step planned before another writer's compaction, applying nothing of it", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`x${i}`));
    const other = await openSession(at);
    let raced = false;
    const report = await s.compact(SMALL_CONFIG, {
      summarizer: summarizerDuring(async () => {
        if (raced) return;
        raced = true;
        await other.compact(SMALL_CONFIG, { maxSteps: 1 });
      }),
    });
    // the loser says what happened, not a summarizer failure
    expect(report.outcome).toBe("superseded");
    expect(report.reason).toMatch(/another writer committed first/);
    expect(report.stretches).toEqual([]);
    expect(await s.compactions()).toHaveLength(1);
    expect(await sessionLawProblems(s)).toEqual([]);
  });
});
