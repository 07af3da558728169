// The agent-loop replay (npm run bench:loop) at CI size: the loopback summarizer answers through
// safecut's OpenAI provider, the replay's accounting agrees with the server's records, the
// baseline makes one call per event and loses user messages, safecut keeps every user message
// in every context it sends, and a call that failed on the network counts as failed, not rejected.
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baselineCompactor, contextTokens, safecutCompactor } from "../../bench/loop/compactors.ts";
import { compactionWait, replay } from "../../bench/loop/replay.ts";
import { codingSession } from "../../bench/loop/sessions.ts";
import {
  modelAnswer,
  modelledSeconds,
  type SummarizerServer,
  startSummarizerServer,
} from "../../bench/loop/summarizer-server.ts";
import { DEFAULT_PROMPT, renderBatchPrompt, renderPrompt } from "../../src/model/prompt-template.ts";
import { extractEachTagged } from "../../src/providers/extract-tag.ts";

let server: SummarizerServer;
beforeAll(async () => {
  server = await startSummarizerServer(100_000);
});
afterAll(async () => {
  await server.close();
});

const session = codingSession(300);
const TRIGGER = 15_000;

describe("agent-loop replay", () => {
  it("generates a long coding session that reaches the trigger many times", () => {
    expect(session.messages).toHaveLength(300);
    expect(contextTokens(session.messages)).toBeGreaterThan(5 * TRIGGER);
  });

  it("baseline: one summarizer call per event, every one counted, user messages dropped", async () => {
    const first = server.calls.length;
    const s = await replay(session, baselineCompactor(server.baseUrl, TRIGGER), server);
    const calls = server.calls.slice(first);
    expect(s.events).toBeGreaterThan(0);
    expect(s.summaries).toBe(s.events);
    expect(s.summarizerCalls).toBe(s.events);
    expect(calls).toHaveLength(s.events);
    expect(s.summarizerInput).toBe(calls.reduce((a, c) => a + c.inputTokens, 0));
    expect(s.waitSeconds).toBeCloseTo(
      calls.reduce((a, c) => a + modelledSeconds(c.inputTokens, c.outputTokens), 0),
      6,
    );
    expect(s.callsWithEveryUser).toBeLessThan(s.modelCalls);
    expect(s.finalSummaries).toBe(1);
  });

  it("safecut: every user message in every context, every call accounted for", async () => {
    const first = server.calls.length;
    const s = await replay(session, safecutCompactor(server.baseUrl, TRIGGER), server);
    expect(s.events).toBeGreaterThan(0);
    expect(s.summarizerCalls).toBe(server.calls.length - first);
    // stretches summarized together: more summaries than calls
    expect(s.summaries).toBeGreaterThan(s.summarizerCalls);
    expect(s.callsWithEveryUser).toBe(s.modelCalls);
    expect(s.leastUserShare).toBe(1);
  });

  it("a low-water target frees more per event: fewer events than a run that stops at the trigger", async () => {
    const atTrigger = await replay(session, safecutCompactor(server.baseUrl, TRIGGER, { targetPercent: 100 }), server);
    const low = await replay(session, safecutCompactor(server.baseUrl, TRIGGER, { targetPercent: 50 }), server);
    expect(low.events).toBeLessThan(atTrigger.events);
    expect(low.callsWithEveryUser).toBe(low.modelCalls);
  });

  it("a call that fails on the network and is retried is a failed call, not rejected answers", async () => {
    // a loopback proxy in front of the summarizer that resets the first request's connection (as a
    // stale keep-alive socket does) and forwards the rest
    let reset = false;
    const target = new URL(server.baseUrl);
    const proxy = createServer((req, res) => {
      if (!reset) {
        reset = true;
        req.socket.destroy();
        return;
      }
      const forward = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      const s = await replay(session, safecutCompactor(`http://127.0.0.1:${port}/v1`, TRIGGER), server);
      expect(reset).toBe(true);
      expect(s.summaries).toBeGreaterThan(1);
      // the retried call's summaries were used: none was rejected
      expect(s.rejectedAnswers).toBe(0);
      expect(s.failedCalls).toBe(1);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it("no stretch known not to shrink is tried again, even with no floor", async () => {
    const s = await replay(session, safecutCompactor(server.baseUrl, TRIGGER, { minStretchTokens: 0 }), server);
    expect(s.summarizerCalls).toBeGreaterThan(s.events);
    expect(s.repeatedUnshrinkable).toBe(0);
  });
});

describe("the modelled wait of one compaction", () => {
  const call = (startMs: number, endMs: number, seconds: number) => ({
    inputTokens: 0,
    outputTokens: 0,
    seconds,
    startMs,
    endMs,
  });
  it("the loopback summarizer writes within the budget a prompt states, a single prompt's as a batch part's", () => {
    const excerpt = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" ");
    const values = (budget: number, tag = "summary", requiredFacts: string[] = []) => ({
      conversation: excerpt,
      previousSummary: undefined,
      requiredFacts,
      maxTokens: budget,
      summaryTag: tag,
    });
    const prompt = (budget: number) => renderPrompt(DEFAULT_PROMPT, values(budget));
    const tokens = (answer: string) => Math.ceil(answer.replace(/<\/?summary(_\d+)?>/g, "").length / 4);
    // about 40 + 0.1 of the excerpt's ~4k tokens when the budget does not bind
    expect(tokens(modelAnswer(prompt(2000), 2000))).toBeGreaterThan(300);
    expect(tokens(modelAnswer(prompt(100), 2000))).toBeLessThanOrEqual(100);
    // a batch prompt of the built-in prompt (instructions once): each part within its own budget,
    // with its own facts, in its own tag
    const batch = renderBatchPrompt(DEFAULT_PROMPT, [
      values(100, "summary_1", ["FACT_ONE"]),
      values(2000, "summary_2", ["FACT_TWO", "src/two.ts"]),
    ]);
    const answers = extractEachTagged(modelAnswer(batch, 4000), "summary", 2);
    expect(answers.map((a) => (a === undefined ? 0 : tokens(a)))).toEqual([
      expect.toSatisfy((t: number) => t > 0 && t <= 100),
      expect.toSatisfy((t: number) => t > 300 && t <= 2000),
    ]);
    expect(answers[0]).toContain("FACT_ONE");
    expect(answers[0]).not.toContain("FACT_TWO");
    expect(answers[1]).toContain("FACT_TWO");
    expect(answers[1]).toContain("src/two.ts");
    const one = renderBatchPrompt(DEFAULT_PROMPT, [values(100, "summary_1")]);
    expect(tokens(modelAnswer(one, 4000))).toBeLessThanOrEqual(100);
  });

  it("calls in flight together overlap; a call made after another ended waits for it", () => {
    // two calls at once (a batch's calls), then one after both
    expect(compactionWait([call(0, 10, 10), call(1, 6, 5), call(12, 15, 3)])).toBe(13);
    // three calls one after another add up
    expect(compactionWait([call(0, 2, 2), call(3, 6, 3), call(7, 11, 4)])).toBe(9);
    expect(compactionWait([])).toBe(0);
  });
});
