// Background mode (issue 20, item 5): an agent keeps stepping while a slow summarizer (a real HTTP
// summarizer against the loopback imitation, answering after a delay) compacts at the soft
// threshold; no step waits while the conversation is under the hard trigger, what the agent
// appended meanwhile is kept (L9: rebase over appends), and every context is lawful.
import type { ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { readModelMessages, writeModelMessages } from "../../src/adapters/ai-sdk.ts";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { BackgroundCompaction, decideOverAppends } from "../../src/engine/run/background.ts";
import { storeDueBy } from "../../src/engine/run/plan.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { factfulAnswer, type Imitation, type RecordedRequest, startImitation } from "../support/http-imitation.ts";
import { expectLawsHold } from "../support/laws.ts";
import { expectOneRewritePerRun } from "../support/one-step-runs.ts";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DELAY_MS = 300;
const WINDOW = 4;
const HARD = 6_000;
const SOFT = 3_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function slowSummarizer(): Promise<Imitation> {
  return startImitation("openai", (_n: number, req: RecordedRequest) => ({
    kind: "summary",
    text: factfulAnswer(req),
    delayMs: DELAY_MS,
  }));
}

function settings(url: string): ConfigInput {
  return {
    provider: "openai",
    base_url: url,
    model: "gpt-4o-mini",
    tokenizer: "chars",
    token_threshold: HARD,
    soft_token_threshold: SOFT,
    retention_window: WINDOW,
    timeout_ms: 5_000,
  };
}

/** The agent's messages, in the engine's model: a long generated coding session. */
function session(): Message[] {
  return readOpenAIMessages(openAIConversation({ turns: 40, seed: 21, outputLines: 6 }));
}

describe("the kernel's commit rule over a list compacted in the background", () => {
  it("commits unchanged, rebases over appends, rejects a rewrite", () => {
    const [a, b, c, d] = [{}, {}, {}, {}];
    expect(decideOverAppends([a, b], [a, b])).toBe("commit");
    expect(decideOverAppends([a, b], [a, b, c, d])).toBe("rebase");
    expect(decideOverAppends([a, b], [a, c, d])).toBe("reject");
    expect(decideOverAppends([a, b], [a])).toBe("reject");
  });
});

describe("background mode's configuration", () => {
  it("a soft threshold at or above the hard one is refused naming soft_token_threshold, by the hook and by the store's runner", () => {
    const named =
      /^soft_token_threshold: must be > 0 when set \(null unsets it\), below token_threshold and below context_window - reserve_tokens, got 1500$/;
    expect(() => compactBeforeStep({ token_threshold: 1000, soft_token_threshold: 1500 })).toThrow(named);
    // a Config built by hand, not through parseConfig: the runner still judges it
    const c = { ...parseConfig({ token_threshold: 1000 }), soft_token_threshold: 1500 };
    const store = new ConversationStore(charCounter(), []);
    const summarizer = openAISummarizer({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1 });
    expect(() => new BackgroundCompaction(store, c, { summarizer })).toThrow(named);
    expect(() => new BackgroundCompaction(store, { ...c, soft_token_threshold: 999 }, { summarizer })).not.toThrow();
  });
});

describe("BackgroundCompaction over a store", () => {
  it("keeps the agent stepping while a slow summarizer runs; waits only at the hard trigger", async () => {
    server = await slowSummarizer();
    const c = parseConfig(settings(server.url));
    const all = session();
    const store = new ConversationStore(charCounter(), all.slice(0, 2));
    const reports: CompactionReport[] = [];
    const bg = new BackgroundCompaction(store, c, {
      summarizer: openAISummarizer({ baseUrl: server.url, timeoutMs: 5_000 }),
      onReport: (r) => reports.push(r),
    });
    let stepsInFlight = 0;
    let waitedUnderHard = 0;
    for (let i = 2; i < all.length; i += 2) {
      for (const m of all.slice(i, i + 2)) store.append(m);
      const underHard = storeDueBy(store, c) === "none";
      const t0 = performance.now();
      const step = await bg.beforeStep();
      const ms = performance.now() - t0;
      // a wait on the summarizer takes up to its delay: a step well over it waited for one
      if (underHard && (step.waited || ms > DELAY_MS)) waitedUnderHard++;
      if (bg.inFlight && !step.started) stepsInFlight++;
      // every context the agent would send is lawful against everything it appended so far
      expectLawsHold(all.slice(0, i + 2), store.messageList(), WINDOW);
      await pause(15); // the model call
    }
    await bg.settle();
    expect(waitedUnderHard).toBe(0);
    expect(stepsInFlight).toBeGreaterThan(5); // the agent went on while summaries were being written
    const rebased = reports.flatMap((r) => r.stretches).filter((s) => s.decision === "rebase");
    expect(rebased.length).toBeGreaterThan(0); // appends during a run were rebased over (L9)
    for (const r of reports) expect(r.laws.filter((l) => !l.ok)).toEqual([]);
    expectLawsHold(all, store.messageList(), WINDOW);
    expect(store.totalTokens).toBeLessThan(HARD);
  });
});

describe("a background run's commits", () => {
  it("reach the agent's context at one step per run (clearing and every batch together)", async () => {
    // the default strategy clears, then summarizes in batches: several commits per run
    server = await slowSummarizer();
    const c = parseConfig({ ...settings(server.url), batch_calls: 1, batch_tokens: 600 });
    const all = session();
    const store = new ConversationStore(charCounter(), all.slice(0, 2));
    const reports: CompactionReport[] = [];
    const bg = new BackgroundCompaction(store, c, {
      summarizer: openAISummarizer({ baseUrl: server.url, timeoutMs: 5_000 }),
      onReport: (r) => reports.push(r),
    });
    let sent: Message[] = store.messageList();
    let rewrites = 0;
    for (let i = 2; i < all.length; i += 2) {
      for (const m of all.slice(i, i + 2)) store.append(m);
      await bg.beforeStep();
      const now = store.messageList();
      // the context the agent sends changed something it had sent before: the provider's cache is re-written
      if (sent.some((m, k) => now[k] !== m)) rewrites++;
      sent = now;
      await pause(15); // the model call
    }
    await bg.settle();
    expectOneRewritePerRun(reports, rewrites);
    expectLawsHold(all, store.messageList(), WINDOW);
  });
});

describe("compactBeforeStep in background mode", () => {
  it("returns at once under the hard trigger, then takes the run's result with the appends after it", async () => {
    server = await slowSummarizer();
    const c = parseConfig(settings(server.url));
    const all = writeModelMessages(session());
    const reports: CompactionReport[] = [];
    const hook = compactBeforeStep(c, { env: {}, onReport: (r) => reports.push(r) });
    let context: ModelMessage[] = all.slice(0, 2);
    let waitedUnderHard = 0;
    let taken = 0;
    for (let i = 2; i < all.length; i += 2) {
      context = [...context, ...all.slice(i, i + 2)]; // the AI SDK's next step: a new array
      const before = new ConversationStore(charCounter(), readModelMessages(context).messages);
      const underHard = storeDueBy(before, c, context.length) === "none";
      const t0 = performance.now();
      const out = await hook({ messages: context });
      const ms = performance.now() - t0;
      if (underHard && ms > DELAY_MS) waitedUnderHard++;
      if (out !== undefined) {
        // the run's result, and after it exactly the messages appended since it began
        expect(out.messages.slice(out.messages.length - 2)).toEqual(context.slice(context.length - 2));
        context = out.messages;
        taken++;
      }
      expectLawsHold(readModelMessages(all.slice(0, i + 2)).messages, readModelMessages(context).messages, WINDOW);
      await pause(15);
    }
    expect(waitedUnderHard).toBe(0);
    expect(taken).toBeGreaterThan(0);
    expect(reports.length).toBeGreaterThan(0);
    for (const r of reports) expect(r.laws.filter((l) => !l.ok)).toEqual([]);
  });
});

describe("a background result over a rewritten history", () => {
  it("is dropped (the kernel rejects it), and the step goes on with the agent's messages", async () => {
    server = await slowSummarizer();
    const c = parseConfig({ ...settings(server.url), token_threshold: 1_000_000 });
    const all = writeModelMessages(session());
    // a history over the soft threshold, far under the hard one
    let n = 2;
    while (new ConversationStore(charCounter(), readModelMessages(all.slice(0, n)).messages).totalTokens < SOFT) n += 2;
    const reports: CompactionReport[] = [];
    const hook = compactBeforeStep(c, { env: {}, onReport: (r) => reports.push(r) });
    const first = all.slice(0, n);
    expect(await hook({ messages: first })).toBeUndefined(); // a background run began
    // the agent rewrites its history meanwhile: a message replaced by a copy (same content, new object)
    const rewritten = first.map((m, i) => (i === 1 ? ({ ...m } as ModelMessage) : m));
    while (reports.length === 0) await pause(50);
    expect(reports[0].stretches.length).toBeGreaterThan(0); // the run compacted its copy
    expect(await hook({ messages: rewritten })).toBeUndefined(); // but its result is not taken
    expect(server.requests.length).toBeGreaterThan(0);
  });
});
