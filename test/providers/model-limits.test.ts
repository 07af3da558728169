// Every summarizer request fits its model: the README's provider examples run through the CLI
// against servers that enforce the model's window and output cap with its provider's own 400s
// (test/support/model-servers.ts) and succeed; a stretch larger than an 8k window is sent with
// its excerpt cut (the summarizer's input only); and for random conversations and random limits,
// no request the engine sends exceeds either limit.

import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { codingSession } from "../../bench/loop/sessions.ts";
import { readOpenAIMessages, writeOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";
import { promptOf } from "../support/http-imitation.ts";
import {
  CLAUDE_HAIKU_4_5,
  GPT_4O_MINI,
  LLAMA3_8K,
  limitFlags,
  type ModelLimits,
  type ModelServer,
  startModelServer,
} from "../support/model-servers.ts";
import { summaryHistory } from "../support/summary-history.ts";

const examples = resolve(import.meta.dirname, "../../examples");
const KEYS = { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" };

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every request the server saw was accepted, asked at most the output cap, and fit the window with its answer. */
function expectAllFit(s: ModelServer): void {
  expect(s.seen.length).toBeGreaterThan(0);
  for (const x of s.seen) {
    expect(x.refusal).toBeUndefined();
    expect(x.status).toBe(200);
    if (s.limits.outputCap !== null) expect(x.maxTokens).toBeLessThanOrEqual(s.limits.outputCap);
    expect(x.inputTokens + x.maxTokens).toBeLessThanOrEqual(s.limits.window);
  }
}

/** Runs the CLI on `file` with `flags` against the model's server; returns the run and its JSON report. */
async function runExample(file: string, flags: readonly string[], limits: ModelLimits) {
  server = await startModelServer(limits);
  const dir = tempDir();
  const report = join(dir, "report.json");
  const r = await runInProcess(
    [
      "compact",
      file,
      ...flags,
      "--base-url",
      server.url,
      ...limitFlags(limits),
      "--report",
      report,
      "-o",
      join(dir, "out.json"),
    ],
    { cwd: dir, env: KEYS },
  );
  return { r, report: JSON.parse(readFileSync(report, "utf8")), out: readFileSync(join(dir, "out.json"), "utf8") };
}

const README = [
  {
    name: "OpenAI (gpt-4o-mini)",
    file: "session.openai.json",
    flags: ["--provider", "openai", "--token-threshold", "8000"],
    limits: GPT_4O_MINI,
  },
  {
    name: "Anthropic (claude-haiku-4-5)",
    file: "session.anthropic.jsonl",
    flags: ["--provider", "anthropic", "--model", "claude-haiku-4-5", "--token-threshold", "8000"],
    limits: CLAUDE_HAIKU_4_5,
  },
  {
    name: "an OpenAI-compatible server (llama3, 8k context)",
    file: "session.openai.json",
    flags: ["--provider", "openai", "--model", "llama3", "--token-threshold", "8000"],
    limits: LLAMA3_8K,
  },
] as const;

describe("the README's provider examples against servers that enforce their model's limits", () => {
  for (const ex of README)
    for (const strategy of [[], ["--strategy", "summarize"]])
      it(`${ex.name}${strategy.length === 0 ? "" : ", --strategy summarize"}: succeeds, every request within the window and the output cap`, async () => {
        const { r, report } = await runExample(join(examples, ex.file), [...ex.flags, ...strategy], ex.limits);
        expect(r.code, r.stderr).toBe(0);
        expect(report.outcome).toBe("compacted");
        expect(report.stretches.length).toBeGreaterThan(0);
        expect(report.tokensAfter).toBeLessThan(8000);
        if (server === undefined) throw new Error("no server");
        expectAllFit(server);
        expect(report.summarizerCalls).toBe(server.seen.length);
      }, 120_000);
});

describe("a stretch larger than the summarizer's window", () => {
  it("is sent with its excerpt cut to fit (head and tail kept), and the whole stretch is replaced by its summary", async () => {
    const dir = tempDir();
    const file = join(dir, "long.json");
    const session = codingSession(120);
    writeFileSync(file, JSON.stringify({ model: "llama3", messages: writeOpenAIMessages(session.messages) }));
    const { r, report, out } = await runExample(
      file,
      ["--provider", "openai", "--token-threshold", "30000", "--strategy", "summarize"],
      LLAMA3_8K,
    );
    expect(r.code, r.stderr).toBe(0);
    if (server === undefined) throw new Error("no server");
    expectAllFit(server);
    // some stretch held more than the 8k window: its request carries the cut excerpt's note
    expect(report.stretches.some((s: { replacedTokens: number }) => s.replacedTokens > LLAMA3_8K.window)).toBe(true);
    const cut = server.requests.filter((q) => promptOf(q).includes("left out here: it was cut to fit"));
    expect(cut.length).toBeGreaterThan(0);
    // what is kept is never cut: the note is in no message of the result
    expect(out).not.toContain("left out here");
    expect(report.tokensAfter).toBeLessThan(30000);
  }, 180_000);
});

/** A conversation for the property: generated turns with long tool outputs, or a history of old summaries (aging). */
const conversation: fc.Arbitrary<Message[]> = fc.oneof(
  fc
    .record({
      turns: fc.integer({ min: 2, max: 8 }),
      callsPerStep: fc.integer({ min: 1, max: 3 }),
      stepsPerTurn: fc.integer({ min: 1, max: 3 }),
      outputLines: fc.integer({ min: 5, max: 400 }),
      seed: fc.nat(1000),
    })
    .map((o) => readOpenAIMessages(openAIConversation(o))),
  fc.constant(null).map(() => summaryHistory()),
);

describe("property: no request exceeds the summarizer's window or output cap", () => {
  it("for random conversations, limits and settings", async () => {
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(
        conversation,
        fc.record({
          window: fc.integer({ min: 2_500, max: 40_000 }),
          outputCap: fc.integer({ min: 64, max: 6_000 }),
          maxTokens: fc.integer({ min: 64, max: 4_000 }),
          batchTokens: fc.constantFrom(0, 5_000, 80_000),
          strategy: fc.constantFrom("summarize", "clear-then-summarize"),
          threshold: fc.integer({ min: 1_500, max: 8_000 }),
        }),
        async (messages, p) => {
          const limits: ModelLimits = { ...GPT_4O_MINI, window: p.window, outputCap: p.outputCap };
          const s = await startModelServer(limits);
          try {
            await compactMessages(
              messages,
              {
                provider: "openai",
                model: "gpt-4o-mini",
                strategy: p.strategy,
                token_threshold: p.threshold,
                max_tokens: p.maxTokens,
                batch_tokens: p.batchTokens,
                summarizer_window: p.window,
                summarizer_output_cap: p.outputCap,
                retention_window: 2,
              },
              { summarizer: openAISummarizer({ baseUrl: s.url, apiKey: "sk-test", timeoutMs: 20_000 }) },
            );
            requests += s.seen.length;
            for (const x of s.seen) {
              if (x.status !== 200) return false;
              if (x.maxTokens > p.outputCap || x.inputTokens + x.maxTokens > p.window) return false;
            }
            return true;
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns: 40 },
    );
    // the property saw requests, not only runs that sent none
    expect(requests).toBeGreaterThan(40);
  }, 600_000);
});
