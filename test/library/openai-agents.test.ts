// The OpenAI Agents SDK end to end: a real `@openai/agents` Agent run by the SDK's own `run(agent,
// input, { session })` on its Chat Completions model, whose API is a loopback server scripted as a
// tool-calling model, with safecut's session (SafecutAgentsSession over a JSONL log) as its
// memory, summarizing through a second loopback server (the OpenAI summarizer). Every request the
// model received is checked: it holds every user message so far, no tool result is parted from
// its call and no call from its result, and the context stays bounded where the SDK's own
// MemorySession sends everything; every item the SDK added is kept byte for byte; a child process
// SIGKILLed mid-run leaves a session that resumes lawfully.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { type AgentInputItem, MemorySession, run } from "@openai/agents";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SafecutAgentsSession } from "../../src/entries/openai-agents.ts";
import { type CompactionReport, openSession } from "../../src/index.ts";
import { backends, freshDir, removeFresh } from "../session/backends.ts";
import { sessionLawProblems } from "../session/session-laws.ts";
import { factfulAnswer, type Imitation, type RecordedRequest, startImitation } from "../support/http-imitation.ts";
import { AGENTS_ENV, agentsConfig, exampleAgent, modelScript, question, wire } from "./agents/agent.ts";

const RUNS = 8;
const open: Imitation[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});
afterAll(removeFresh);

async function imitation(script: Parameters<typeof startImitation>[1]): Promise<Imitation> {
  const s = await startImitation("openai", script);
  open.push(s);
  return s;
}

/** The summarizer: a well-behaved answer holding the required facts. */
const summarizerServer = () => imitation((_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));

/** Problems of one request: a user message of an earlier run missing, a tool result without its call, a call without its result. */
function requestProblems(req: RecordedRequest, n: number, runs: readonly number[]): string[] {
  const problems: string[] = [];
  const users = new Set(
    wire(req).flatMap((m) => (m.role === "user" && typeof m.content === "string" ? [m.content] : [])),
  );
  for (const r of runs)
    if (!users.has(question(r))) problems.push(`request ${n}: the user message of run ${r} is missing`);
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const m of wire(req)) {
    for (const c of m.tool_calls ?? []) called.add(c.id);
    if (m.role === "tool") {
      if (!called.has(m.tool_call_id ?? "")) problems.push(`request ${n}: orphan result ${m.tool_call_id}`);
      answered.add(m.tool_call_id ?? "");
    }
  }
  for (const id of called) if (!answered.has(id)) problems.push(`request ${n}: call ${id} without its result`);
  return problems;
}

/** The characters of a request's messages (what the context costs). */
const size = (req: RecordedRequest) => JSON.stringify(wire(req)).length;

/** A SafecutAgentsSession that also keeps the JSON text of every item the SDK added. */
class Recording extends SafecutAgentsSession {
  readonly added: string[] = [];
  override async addItems(items: AgentInputItem[]): Promise<void> {
    for (const it of items) this.added.push(JSON.stringify(it));
    await super.addItems(items);
  }
}

describe("SafecutAgentsSession under run(agent, input, { session })", { timeout: 120_000 }, () => {
  it.each(backends)(
    "keeps every user message and pairing, bounds the context, and keeps every item the SDK added byte for byte ($name)",
    async (backend) => {
      // the SDK's own in-memory session: everything is sent every time
      const bareModel = await imitation(modelScript);
      const bareAgent = exampleAgent(bareModel.url);
      const bare = new MemorySession();
      for (let r = 0; r < RUNS; r++) await run(bareAgent, question(r), { session: bare, maxTurns: 10 });

      const model = await imitation(modelScript);
      const summarizer = await summarizerServer();
      const session = await openSession(backend.fresh(), { format: "responses" });
      const reports: CompactionReport[] = [];
      const memory = new Recording(session, agentsConfig(summarizer.url), {
        env: AGENTS_ENV,
        onReport: (r) => reports.push(r),
      });
      const agent = exampleAgent(model.url);
      const answers: string[] = [];
      let seen = 0;
      for (let r = 0; r < RUNS; r++) {
        const result = await run(agent, question(r), { session: memory, maxTurns: 10 });
        answers.push(String(result.finalOutput));
        for (; seen < model.requests.length; seen++)
          expect(requestProblems(model.requests[seen], seen, [...Array(r + 1).keys()])).toEqual([]);
      }
      // the same agent behaviour: two model calls a run, the same answers
      expect(model.requests.length).toBe(bareModel.requests.length);
      expect(answers.at(-1)).toBe(`src/file7.ts defines the parser (request ${2 * RUNS - 1}).`);
      expect(reports.some((r) => r.outcome === "compacted")).toBe(true);
      expect((await session.compactions()).length).toBeGreaterThan(0);
      expect(summarizer.requests.length).toBeGreaterThan(0);
      // bounded: the last request is smaller than the one the SDK's own session sent
      const last = size(model.requests.at(-1) as RecordedRequest);
      const bareLast = size(bareModel.requests.at(-1) as RecordedRequest);
      expect(last).toBeLessThan(bareLast * 0.8);
      // every item the SDK added, byte for byte, in the session's history
      expect((await session.history({ full: true })).trimEnd().split("\n")).toEqual(memory.added);
      expect(await sessionLawProblems(session)).toEqual([]);
      // the SDK reads the context back: a summary is an assistant message of output_text parts
      const items = await memory.getItems();
      expect(items.some((i) => "role" in i && i.role === "assistant" && Array.isArray(i.content))).toBe(true);
      expect(await memory.getItems(3)).toEqual(items.slice(-3));
      await memory.settle();
      await session.close();
    },
  );

  it("compacts in the background at soft_token_threshold, with the same laws", async () => {
    const model = await imitation(modelScript);
    const summarizer = await summarizerServer();
    const session = await openSession(`${freshDir()}/agent.jsonl`, { format: "responses" });
    const memory = new SafecutAgentsSession(
      session,
      { ...agentsConfig(summarizer.url), soft_token_threshold: 1_000 },
      { env: AGENTS_ENV },
    );
    const agent = exampleAgent(model.url);
    for (let r = 0; r < RUNS; r++) await run(agent, question(r), { session: memory, maxTurns: 10 });
    await memory.settle();
    model.requests.forEach((req, n) =>
      expect(requestProblems(req, n, [...Array(Math.floor(n / 2) + 1).keys()])).toEqual([]),
    );
    expect((await session.compactions()).length).toBeGreaterThan(0);
    expect(await sessionLawProblems(session)).toEqual([]);
    await session.close();
  });

  it("pops the newest item and clears the session as the SDK's Session says, the history keeping them", async () => {
    const model = await imitation(modelScript);
    const session = await openSession(`${freshDir()}/agent.jsonl`, { format: "responses" });
    const memory = new SafecutAgentsSession(session, { token_threshold: 1_000_000 });
    await run(exampleAgent(model.url), question(0), { session: memory, maxTurns: 10 });
    const items = await memory.getItems();
    expect(items.length).toBe(4); // the question, the call, its result, the answer
    expect(await memory.popItem()).toEqual(items[3]);
    expect(await memory.getItems()).toEqual(items.slice(0, 3));
    await memory.clearSession();
    expect(await memory.getItems()).toEqual([]);
    expect(await memory.popItem()).toBeUndefined();
    await run(exampleAgent(model.url), question(1), { session: memory, maxTurns: 10 });
    // the run after the clear sent only its own question
    expect(wire(model.requests.at(-2) as RecordedRequest).filter((m) => m.role === "user")).toEqual([
      { role: "user", content: question(1) },
    ]);
    expect((await session.history({ full: true })).trimEnd().split("\n")).toHaveLength(8);
    await session.close();
  });

  // killed while the model is asked for run 5's answer, or while the summarizer writes the second summary
  it.each([
    ["the model", 11, -1],
    ["a compaction", -1, 1],
  ] as const)(
    "resumes lawfully after the agent's process is SIGKILLed during a call to %s",
    async (_what, modelKill, summaryKill) => {
      let child: ReturnType<typeof spawn> | undefined;
      const killing = (hit: boolean) => {
        if (hit) child?.kill("SIGKILL");
        return hit;
      };
      const summarizer = await imitation((n, req) =>
        killing(n === summaryKill) ? { kind: "hang" } : { kind: "summary", text: factfulAnswer(req) },
      );
      const model = await imitation((n, req) => (killing(n === modelKill) ? { kind: "hang" } : modelScript(n, req)));
      const at = `${freshDir()}/agent.jsonl`;
      const script = resolve(import.meta.dirname, "agents/child.ts");
      child = spawn(process.execPath, ["--import", "tsx", script, at, model.url, summarizer.url, "0", String(RUNS)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.stderr?.on("data", (d: Buffer) => {
        err += d.toString();
      });
      const signal = await new Promise<NodeJS.Signals | null>((r) => child?.on("exit", (_code, s) => r(s)));
      expect(signal, err).toBe("SIGKILL");
      const done = [...out.matchAll(/done (\d+)/g)].map((m) => Number(m[1]));
      expect(done.length).toBeGreaterThan(0);
      expect(done).toEqual([...done.keys()]);
      // the session as the killed process left it: lawful, every acknowledged run's question in the context
      const session = await openSession(at);
      expect(await sessionLawProblems(session)).toEqual([]);
      const context = JSON.stringify(await session.context());
      for (const r of done) expect(context).toContain(question(r));
      // resumed by another process (this one): the next runs send every question so far, no orphan
      const memory = new SafecutAgentsSession(session, agentsConfig(summarizer.url), { env: AGENTS_ENV });
      const agent = exampleAgent(model.url);
      const from = model.requests.length;
      const next = done.length;
      for (let r = next; r < RUNS; r++) await run(agent, question(r), { session: memory, maxTurns: 10 });
      expect(model.requests.length - from).toBe(2 * (RUNS - next));
      for (let n = from; n < model.requests.length; n++)
        expect(requestProblems(model.requests[n], n, [...Array(next + Math.floor((n - from) / 2) + 1).keys()])).toEqual(
          [],
        );
      await memory.settle();
      expect((await session.compactions()).length).toBeGreaterThan(0);
      expect(await sessionLawProblems(session)).toEqual([]);
      await session.close();
    },
  );
});
