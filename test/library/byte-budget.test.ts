// The byte budget (max_request_bytes) in the engine's own due check: a conversation whose tool
// results hold base64 images is a few thousand tokens, far under any token trigger, and over the
// agent provider's request size. Sent as it is, the loopback Anthropic server (it enforces the
// size and answers with Anthropic's real 413 request_too_large body) refuses it; compacted first
// by compactAnthropicMessages under max_request_bytes, it fits. A conversation whose user-message
// images alone are over the budget is reported once, plainly, and no summarizer call is paid for.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import type { ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { reportText } from "../../src/cli/report-text.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import { compactAnthropicMessages } from "../../src/library/compact-wire.ts";
import type { Summarizer } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { serverPool } from "../support/agent-overflow-server.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { imageData, imageHistory } from "../support/image-history.ts";

const pool = serverPool();
afterEach(pool.closeAll);

/** The agent's call to Anthropic with these messages. */
const send = (client: Anthropic, messages: unknown[]) =>
  client.messages.create({
    model: "claude-haiku-4-5",
    max_tokens: 256,
    messages: messages as Anthropic.MessageParam[],
  });

/** The offline summarizer, counting its calls. */
function counting(): { summarizer: Summarizer; calls: () => number } {
  const inner = offlineSummarizer(charCounter());
  let n = 0;
  return {
    summarizer: {
      name: inner.name,
      summarize: (req) => {
        n++;
        return inner.summarize(req);
      },
    },
    calls: () => n,
  };
}

// the server's limit, and the budget the agent sets under it (the request's other fields take the rest)
const SERVER_BYTES = 1_000_000;
const BUDGET = 900_000;
const CONFIG = { provider: "offline", token_threshold: 100_000, max_request_bytes: BUDGET } as const;

describe("max_request_bytes in the engine's due check", () => {
  it("tool results holding images: sent as they are, refused with HTTP 413; compacted first, the request fits", async () => {
    const messages = imageHistory(12, (i) => i >= 1 && i <= 6, 150_000);
    const server = await pool.serve("anthropic", 100_000, SERVER_BYTES);
    const client = new Anthropic({ baseURL: server.url, apiKey: "sk-ant-test", maxRetries: 0 });
    // as it is: the provider's 413 (the tokens are fine, the bytes are not)
    const refused = await send(client, messages).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.APIError);
    expect((refused as { status?: number }).status).toBe(413);
    expect(server.requests[0]?.promptTokens).toBeLessThan(100_000);
    // compacted before sending: due by its bytes alone, brought under the budget
    const { summarizer, calls } = counting();
    const r = await compactAnthropicMessages({ messages }, CONFIG, { summarizer });
    expect(r.report.dueBefore).toBe(true);
    expect(r.report.bytes).toMatchObject({ dueByBytes: true, floorOver: false, maxRequestBytes: BUDGET });
    expect(r.report.bytes?.before).toBeGreaterThan(BUDGET);
    expect(r.report.bytes?.after).toBeLessThanOrEqual(BUDGET);
    expect(r.report.dueAfter).toBe(false);
    // the clearing tier, asked in bytes, clears the oldest screenshots: no summarizer call is paid for
    expect(r.report.clearing?.results).toBeGreaterThan(0);
    expect(calls()).toBe(0);
    await send(client, r.messages);
    expect(server.requests.map((q) => q.status)).toEqual([413, 200]);
    expect(server.requests[1]?.bytes).toBeLessThanOrEqual(SERVER_BYTES);
    // the text report says the bytes made the run due
    expect(reportText(r.report, "conversation")).toMatch(/request's bytes made the run due/);
  });

  it("user-message images alone over the budget: one plain report, no summarizer call, every time", async () => {
    const messages = imageHistory(12, () => false, 0);
    // two screenshots the user sent: 2 x 600 KB of base64, over the 900 KB budget by themselves
    messages.splice(1, 0, { role: "assistant", content: "Send me the screenshots." });
    messages.splice(2, 0, {
      role: "user",
      content: [
        { type: "text", text: "Here they are." },
        { type: "image", source: { type: "base64", media_type: "image/png", data: imageData(450_000, 1) } },
        { type: "image", source: { type: "base64", media_type: "image/png", data: imageData(450_000, 2) } },
      ],
    });
    const { summarizer, calls } = counting();
    for (let k = 0; k < 3; k++) {
      const r = await compactAnthropicMessages({ messages }, CONFIG, { summarizer });
      expect(r.report.outcome).toBe("still-due");
      expect(r.report.reason).toMatch(
        /^the request's bytes are over max_request_bytes and compaction cannot bring them under: \d+ bytes, of which \d+ no law lets compaction shrink \(user and system messages with their images and files \d+, .*over max_request_bytes 900000; raise max_request_bytes above \d+/,
      );
      expect(r.report.bytes).toMatchObject({ dueByBytes: true, floorOver: true });
      expect(r.report.bytes?.floor?.userSystem).toBeGreaterThan(BUDGET);
      expect(r.report.stretches).toHaveLength(0);
      expect(r.report.summarizerCalls).toBe(0);
    }
    expect(calls()).toBe(0);
  });

  it("the CLI's compact sees bytes too (--max-request-bytes): the file written fits, the text report says why it ran", async () => {
    const dir = tempDir();
    const messages = imageHistory(12, (i) => i >= 1 && i <= 6, 150_000);
    writeFileSync(join(dir, "in.json"), JSON.stringify({ model: "claude-haiku-4-5", messages }));
    const r = await runInProcess(
      ["compact", "in.json", "--token-threshold", "100000", "--max-request-bytes", String(BUDGET), "-o", "out.json"],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).toMatch(
      /the request's bytes made the run due: \d+ -> \d+ bytes \(max_request_bytes 900000\)/,
    );
    const out = readFileSync(join(dir, "out.json"), "utf8");
    expect(Buffer.byteLength(out)).toBeLessThan(BUDGET);
    expect(Buffer.byteLength(readFileSync(join(dir, "in.json")))).toBeGreaterThan(BUDGET);
  });
});

describe("max_request_bytes in the AI SDK hook (compactBeforeStep)", () => {
  /** An AI SDK history: a user turn, then `rounds` calls whose results are `chars` characters of page text. */
  function modelHistory(rounds: number, chars: number): ModelMessage[] {
    const ms: ModelMessage[] = [{ role: "user", content: "Fetch every page." }];
    for (let i = 0; i < rounds; i++) {
      ms.push({
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "fetch", input: { page: i } }],
      });
      ms.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${i}`,
            toolName: "fetch",
            output: { type: "text", value: `page ${i} `.repeat(chars / 7) },
          },
        ],
      });
    }
    ms.push({ role: "user", content: "Which one is broken?" });
    return ms;
  }

  it("the hook's due tracker sees bytes: a step over the budget (no token trigger reached) is compacted before the model call; the next is not", async () => {
    const reports: CompactionReport[] = [];
    // a token threshold the history never reaches: only its bytes can make a step due
    const hook = compactBeforeStep(
      { provider: "offline", token_threshold: 10_000_000, max_request_bytes: BUDGET },
      { onReport: (r) => reports.push(r) },
    );
    const messages = modelHistory(8, 150_000);
    expect(Buffer.byteLength(JSON.stringify(messages))).toBeGreaterThan(BUDGET);
    const out = await hook({ messages });
    expect(out).toBeDefined();
    expect(reports).toHaveLength(1);
    expect(reports[0].bytes).toMatchObject({ dueByBytes: true, floorOver: false });
    expect(Buffer.byteLength(JSON.stringify(out?.messages))).toBeLessThanOrEqual(BUDGET);
    // the next step starts with the compacted messages: under the budget, no run
    const next = [...(out?.messages ?? []), { role: "assistant", content: "Page 3." } as ModelMessage];
    await hook({ messages: next });
    expect(reports).toHaveLength(1);
  });
});
