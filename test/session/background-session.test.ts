// Background mode on a session, on both backends (issue 20, item 5, across processes): at the soft
// threshold a compaction of the session starts in the background while the agent goes on
// appending; appends made meanwhile are rebased over (L9, enforced by the store at each commit);
// a step waits only when the hard trigger fires. Across processes: one background run at a time
// per session (the compaction lease), a worker whose hard trigger fires while another holds the
// lease waits for that run's commit, or compacts itself after its bound, and a lease whose holder
// was killed is taken over. The workers are real processes (background-worker.ts).
import type { ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { sessionSettle, sessionStep } from "../../src/session/agent-step.ts";
import { sessionBeforeStep } from "../../src/session/ai-sdk-session.ts";
import { type BackgroundEvent, BackgroundSession, sessionDue } from "../../src/session/background-session.ts";
import { tryLease } from "../../src/session/lease.ts";
import { openSession } from "../../src/session/open.ts";
import type { Session } from "../../src/session/session.ts";
import { modelMessagesConversation } from "../support/generate-sdk.ts";
import { expectOneRewritePerRun } from "../support/one-step-runs.ts";
import { slowSummarizer } from "../support/slow-summarizer.ts";
import { backends, removeFresh } from "./backends.ts";
import { BACKGROUND_CONFIG, questionCounts, SMALL_CONFIG, turn } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";
import { bundleWorker, startWorker, type Worker } from "./worker-process.ts";

afterAll(removeFresh);

let bundle = "";
beforeAll(() => {
  bundle = bundleWorker("background-worker.ts");
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once the worker wrote `line` (or exited). */
async function lineFrom(w: Worker, line: string): Promise<void> {
  let exited = false;
  void w.exited.then(() => {
    exited = true;
  });
  while (!w.lines.includes(line) && !exited) await pause(10);
}

/** Appends turns until the session is due under `c`'s hard trigger (fewer than `limit` turns). */
async function fillUntilDue(s: Session, hard: number, limit = 200): Promise<number> {
  const c = parseConfig({ ...SMALL_CONFIG, token_threshold: hard });
  let k = 0;
  while ((await sessionDue(s, c, charCounter())) === "none") {
    if (k >= limit) throw new Error("never due");
    await s.append(turn(`fill-${k++}`));
  }
  return k;
}

describe.each(backends)("background mode on a session: $name", (backend) => {
  it("the agent goes on appending while the session compacts in the background; it waits only at the hard trigger", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const DELAY = 300;
    const config = { ...SMALL_CONFIG, token_threshold: 1500, soft_token_threshold: 600 };
    const hard = parseConfig({ ...config, soft_token_threshold: null });
    const reports: CompactionReport[] = [];
    const bg = new BackgroundSession(s, config, {
      summarizer: slowSummarizer(DELAY),
      onReport: (r) => reports.push(r),
    });
    const TURNS = 40;
    let waitedUnderHard = 0;
    let stepsInFlight = 0;
    for (let k = 0; k < TURNS; k++) {
      await s.append(turn(`t-${k}`));
      const under = (await sessionDue(s, hard, charCounter())) === "none";
      const t0 = performance.now();
      const step = await bg.step([]);
      const ms = performance.now() - t0;
      if (under && (step.waited || ms > DELAY)) waitedUnderHard++;
      if (bg.inFlight && !step.started) stepsInFlight++;
      await pause(10); // the model call
    }
    await bg.settle();
    expect(waitedUnderHard).toBe(0);
    expect(stepsInFlight).toBeGreaterThan(3); // the agent went on while summaries were being written
    const records = await s.compactions();
    expect(records.length).toBeGreaterThan(0);
    // appends during a background run were rebased over, by the session's store (L9)
    expect(records.some((r) => r.decision === "rebase")).toBe(true);
    for (const r of reports) expect(r.laws.filter((l) => !l.ok)).toEqual([]);
    expect(await sessionLawProblems(s)).toEqual([]);
    const counts = questionCounts(await s.history({ full: true }));
    expect(counts.size).toBe(TURNS);
    for (const n of counts.values()) expect(n).toBe(1);
    await s.close();
  }, 60_000);

  it("a background run's clearing and batches reach the agent's context at one step per run (issue 31)", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    // the default strategy clears, then summarizes in batches of one call each: several steps per run
    const reports: CompactionReport[] = [];
    const bg = new BackgroundSession(s, BACKGROUND_CONFIG, {
      summarizer: slowSummarizer(120),
      onReport: (r) => reports.push(r),
    });
    let sent: unknown[] = [];
    let rewrites = 0;
    for (let k = 0; k < 40; k++) {
      const step = await bg.step(turn(`c-${k}`));
      // the context the agent sends changed an item it had sent before: the provider's cache is re-written
      if (sent.some((item, i) => JSON.stringify(step.items[i]) !== JSON.stringify(item))) rewrites++;
      sent = step.items;
      await pause(15); // the model call
    }
    await bg.settle();
    expectOneRewritePerRun(reports, rewrites);
    expect(await sessionLawProblems(s)).toEqual([]);
    const counts = questionCounts(await s.history({ full: true }));
    expect(counts.size).toBe(40);
    await s.close();
  }, 60_000);

  it("sessionStep honours soft_token_threshold: a step at the soft threshold starts a run and returns", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const summarizer = slowSummarizer(400);
    const config = { ...SMALL_CONFIG, token_threshold: 100_000, soft_token_threshold: 600 };
    let k = 0;
    while ((await sessionDue(s, parseConfig({ ...SMALL_CONFIG, token_threshold: 600 }), charCounter())) === "none")
      await sessionStep(s, turn(`t-${k++}`), config, { summarizer });
    // the step that crossed the soft threshold started a run; the next one returns before it ends
    const t0 = performance.now();
    const r = await sessionStep(s, turn(`t-${k++}`), config, { summarizer });
    expect(performance.now() - t0).toBeLessThan(400);
    expect(r.report.dueBefore).toBe(false);
    await sessionSettle(s);
    expect(summarizer.calls).toBeGreaterThan(0);
    expect((await s.compactions()).length).toBeGreaterThan(0);
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  }, 60_000);

  it("sessionBeforeStep honours soft_token_threshold: the AI SDK agent's steps go on while the session compacts", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "ai-sdk" });
    const [, ...history] = modelMessagesConversation({ turns: 12 });
    const summarizer = slowSummarizer(400);
    const reports: CompactionReport[] = [];
    const hook = sessionBeforeStep(
      s,
      { token_threshold: 1_000_000, soft_token_threshold: 1500, tokenizer: "chars", strategy: "summarize" },
      { summarizer, onReport: (r) => reports.push(r) },
    );
    // the history is over the soft threshold: start() begins a background run and returns
    let messages = await hook.start(history);
    expect(messages.length).toBe(history.length);
    const t0 = performance.now();
    const reply: ModelMessage = { role: "assistant", content: "next step" };
    messages = (await hook.prepareStep({ messages: [...messages, reply] })).messages;
    expect(performance.now() - t0).toBeLessThan(400); // did not wait for the run in flight
    expect(reports).toHaveLength(0);
    await hook.finish([]); // waits for the run
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0].stretches.length).toBeGreaterThan(0);
    const context = await s.context();
    expect(context.length).toBeLessThan(history.length + 1);
    expect(JSON.stringify(context)).toContain("next step"); // the append during the run was kept
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  }, 60_000);

  it("workers in several processes run one background compaction at a time and lose nothing", async () => {
    const at = backend.fresh();
    await (await openSession(at, { format: "openai" })).close();
    const WORKERS = 3;
    const TURNS = 25;
    const workers = Array.from({ length: WORKERS }, (_, w) =>
      startWorker(bundle, ["loop", at, `w${w}`, String(TURNS), "80", "100000", "600", "30000"]),
    );
    const codes = await Promise.all(workers.map((w) => w.exited));
    expect(workers.map((w) => w.stderr)).toEqual(workers.map(() => ""));
    expect(codes).toEqual(workers.map(() => 0));
    // each worker's runs, [started, ended]: no two overlap, whoever ran them
    const runs: { from: number; to: number }[] = [];
    for (const w of workers) {
      let from: number | undefined;
      for (const l of w.lines) {
        const [kind, t] = l.split(" ");
        if (kind === "started") from = Number(t);
        if (kind === "ended") {
          expect(from).toBeDefined();
          runs.push({ from: from!, to: Number(t) });
          from = undefined;
        }
      }
      expect(from).toBeUndefined();
    }
    expect(runs.length).toBeGreaterThan(1);
    runs.sort((a, b) => a.from - b.from);
    for (let i = 1; i < runs.length; i++) expect(runs[i].from).toBeGreaterThanOrEqual(runs[i - 1].to);
    const s = await openSession(at);
    const counts = questionCounts(await s.history({ full: true }));
    expect(counts.size).toBe(WORKERS * TURNS);
    for (const n of counts.values()) expect(n).toBe(1);
    expect((await s.compactions()).length).toBeGreaterThan(0);
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  }, 120_000);

  /**
   * A session due under a 1200-token trigger, another process holding its lease with a background
   * run whose summarizer answers after `holdMs`, and this worker's background session on it.
   */
  async function heldSession(holdMs: number, leaseWaitMs?: number) {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    await fillUntilDue(s, 1200);
    // the other process: a background run (its own hard trigger far above) with a slow summarizer
    const other = startWorker(bundle, ["hold", at, String(holdMs), "100000", "300"]);
    await lineFrom(other, "holding");
    expect(other.lines).toContain("holding");
    const summarizer = slowSummarizer(0);
    const events: BackgroundEvent[] = [];
    const bg = new BackgroundSession(
      s,
      { ...SMALL_CONFIG, token_threshold: 1200, soft_token_threshold: 300 },
      { summarizer, onEvent: (e) => events.push(e), ...(leaseWaitMs === undefined ? {} : { leaseWaitMs }) },
    );
    return { at, s, other, summarizer, events, bg };
  }

  it("a worker whose hard trigger fires while another process holds the lease waits for that run's commit", async () => {
    const { s, other, summarizer, events, bg } = await heldSession(1500);
    const step = await bg.step([]);
    expect(step.waited).toBe(true);
    expect(events.find((e) => e.kind === "waited")).toMatchObject({ kind: "waited", other: true });
    // it waited for the other run's commit, which brought the session under its trigger: no call of its own
    expect(summarizer.calls).toBe(0);
    expect(step.report?.dueBefore).toBe(false);
    expect(await other.exited).toBe(0);
    expect(await sessionLawProblems(s)).toEqual([]);
    await bg.close();
    await s.close();
  }, 60_000);

  it("the wait is bounded: past leaseWaitMs the worker compacts itself, and a lease whose holder was killed is taken over", async () => {
    const { at, s, other, summarizer, events, bg } = await heldSession(60_000, 300);
    const step = await bg.step([]);
    const waited = events.find((e) => e.kind === "waited");
    expect(waited).toMatchObject({ kind: "waited", other: true });
    expect(waited?.kind === "waited" && waited.ms).toBeGreaterThanOrEqual(300);
    expect(waited?.kind === "waited" && waited.ms).toBeLessThan(10_000);
    expect(step.report?.dueBefore).toBe(true); // it ran the compaction itself
    expect(summarizer.calls).toBeGreaterThan(0);
    // the holder still holds the lease; killed, its lease is taken over
    expect(await tryLease(at)).toBeUndefined();
    other.child.kill("SIGKILL");
    await other.exited;
    let lease = await tryLease(at);
    for (let k = 0; lease === undefined && k < 100; k++) {
      await pause(50);
      lease = await tryLease(at);
    }
    expect(lease).toBeDefined();
    await lease?.release();
    expect(await sessionLawProblems(s)).toEqual([]);
    await bg.close();
    await s.close();
  }, 60_000);
});
