// End to end: the real `node bin/safecut.js` on generated conversations of several hundred
// messages with many tool calls, in both formats, JSON and JSONL, with the offline summarizer
// and with local HTTP imitations of both APIs; every law's runtime counterpart is asserted on
// the output, and failures must leave the conversation as it was.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ConversationFile, readConversationFile } from "../../src/adapters/conversation-file.ts";
import type { Message } from "../../src/model/message.ts";
import { bpeCounter, messageTokens } from "../../src/model/tokens.ts";
import { runProcess, tempDir } from "../support/cli-run.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import { factfulAnswer, type Imitation, startImitation } from "../support/http-imitation.ts";
import { clearedResults, expectLawsHold } from "../support/laws.ts";

const counter = bpeCounter();
const total = (ms: readonly Message[]) => ms.reduce((s, m) => s + messageTokens(counter, m), 0);
const hash = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

let dir: string;
const files: Record<string, string> = {};

beforeAll(() => {
  dir = tempDir();
  const oa = openAIConversation({ turns: 50, seed: 7 });
  const an = anthropicConversation({ turns: 50, seed: 9 });
  files.openaiJson = join(dir, "openai.json");
  writeFileSync(files.openaiJson, JSON.stringify({ model: "gpt-4o-mini", messages: oa }, null, 2));
  files.openaiJsonl = join(dir, "openai.jsonl");
  writeFileSync(files.openaiJsonl, `${oa.map((m) => JSON.stringify(m)).join("\n")}\n`);
  files.anthropicJson = join(dir, "anthropic.json");
  writeFileSync(
    files.anthropicJson,
    JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 1024, system: an.system, messages: an.messages }, null, 2),
  );
  files.anthropicJsonl = join(dir, "anthropic.jsonl");
  writeFileSync(
    files.anthropicJsonl,
    `${[JSON.stringify({ system: an.system }), ...an.messages.map((m) => JSON.stringify(m))].join("\n")}\n`,
  );
});

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectCompacted(
  input: string,
  stdout: string,
  window = 6,
): { before: ConversationFile; after: ConversationFile } {
  const before = readConversationFile(readFileSync(input, "utf8"));
  const after = readConversationFile(stdout);
  expect(after.format).toBe(before.format);
  expect(after.container).toBe(before.container);
  expect(before.messages.length).toBeGreaterThan(300);
  expect(before.messages.filter((m) => m.role === "tool").length).toBeGreaterThan(150);
  expect(after.messages.some((m) => m.role === "summary")).toBe(true);
  expectLawsHold(before.messages, after.messages, window, {
    before: total(before.messages),
    after: total(after.messages),
  });
  return { before, after };
}

describe("safecut compact, end to end", () => {
  it.each([
    ["OpenAI JSON", "openaiJson"],
    ["Anthropic JSON", "anthropicJson"],
    ["OpenAI JSONL", "openaiJsonl"],
  ])("compacts %s with the offline summarizer", async (_name, key) => {
    const input = files[key];
    const h = hash(input);
    const r = await runProcess(
      [
        "compact",
        input,
        "--token-threshold",
        "20000",
        "--strategy",
        "summarize",
        "--report",
        join(dir, `${key}.report.json`),
      ],
      { cwd: dir },
    );
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    expect(hash(input)).toBe(h);
    expectCompacted(input, r.stdout);
    const report = JSON.parse(readFileSync(join(dir, `${key}.report.json`), "utf8"));
    expect(report.laws.map((l: { law: string; ok: boolean }) => `${l.law}:${l.ok}`)).toEqual([
      "L1:true",
      "L2:true",
      "L3:true",
      "L5:true",
      "L6:true",
      "L8:true",
    ]);
    expect(report.tokensAfter).toBeLessThan(20000);
  });

  it("compacts OpenAI JSON under the defaults: clear-then-summarize, clearing alone reaching a target of 90% here, no summarizer call", async () => {
    const input = files.openaiJson;
    const h = hash(input);
    const report = join(dir, "defaults.report.json");
    const r = await runProcess(
      ["compact", input, "--token-threshold", "20000", "--target-percent", "90", "--report", report],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(hash(input)).toBe(h);
    const k = JSON.parse(readFileSync(report, "utf8"));
    expect(k.laws.every((l: { ok: boolean }) => l.ok)).toBe(true);
    expect(k.clearing.results).toBeGreaterThan(0);
    expect(k.clearing.tokensFreed).toBeGreaterThanOrEqual(2000);
    expect(k.stretches).toEqual([]);
    expect(k.tokensAfter).toBeLessThan(20000);
    const before = readConversationFile(readFileSync(input, "utf8")).messages;
    const after = readConversationFile(r.stdout).messages;
    expect(after.length).toBe(before.length);
    expect(clearedResults(after)).toBe(k.clearing.results);
  });

  it("compacts OpenAI JSON through the OpenAI HTTP imitation", async () => {
    server = await startImitation("openai", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
    const r = await runProcess(
      [
        "compact",
        files.openaiJson,
        "--provider",
        "openai",
        "--base-url",
        server.url,
        "--token-threshold",
        "20000",
        "--strategy",
        "summarize", // the summarizer's requests are what this test reads
        "--retention-window",
        "10",
      ],
      { cwd: dir, env: { OPENAI_API_KEY: "sk-e2e" } },
    );
    expect(r.code).toBe(0);
    expectCompacted(files.openaiJson, r.stdout, 10);
    expect(server.requests.length).toBeGreaterThan(5);
    // max_tokens is the cap of what is asked: max_tokens for an ordinary stretch, an aged
    // summary's budget for an aged one (its excerpt is empty: the stretch is only that summary),
    // their sum for a batch (several stretches under their headings). This imitation answers one
    // summary per request, so a batch's parts are then asked for alone.
    type Request = { body: Record<string, unknown> };
    const prompt = (q: Request) => (q.body.messages as { content: string }[]).map((m) => m.content).join("\n");
    const parts = (q: Request) => prompt(q).split(/^=== excerpt \d+ of \d+ ===$/m);
    const batch = (q: Request) => parts(q).length > 1;
    const capOf = (part: string) =>
      part.includes("<previous_summary>") && part.includes("Conversation excerpt:\n\n\n")
        ? Number(/Use at most (\d+) tokens/.exec(part)?.[1])
        : 2000;
    const cap = (q: Request) =>
      batch(q)
        ? parts(q)
            .slice(1)
            .reduce((sum, p) => sum + capOf(p), 0)
        : capOf(prompt(q));
    expect(server.requests.filter((q) => q.body.model !== "gpt-4o-mini" || q.body.max_tokens !== cap(q))).toEqual([]);
    expect(server.requests.some(batch)).toBe(true);
  });

  it("compacts Anthropic JSONL through the Anthropic HTTP imitation", async () => {
    server = await startImitation("anthropic", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
    const r = await runProcess(
      [
        "compact",
        files.anthropicJsonl,
        "--provider",
        "anthropic",
        "--model",
        "claude-haiku-4-5",
        "--base-url",
        server.url,
        "--message-threshold",
        "100",
        "--token-threshold",
        "none",
      ],
      { cwd: dir, env: { ANTHROPIC_API_KEY: "ak-e2e" } },
    );
    const { before, after } = expectCompacted(files.anthropicJsonl, r.stdout);
    // 50 user turns, each followed by one summary, is as far as L2 lets it go: still at or above
    // 100 messages, so the run says it is still due (exit 5) and where the tokens are
    expect(after.messages.length).toBeLessThan(before.messages.length / 2);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /compacted-still-due: .*\n.*\n {2}still above the trigger; of the \d+ tokens left, \d+ are in user\/system messages, \d+ in summaries/,
    );
    expect(server.requests[0].headers["x-api-key"]).toBe("ak-e2e");
  });

  it("a failing summarizer (HTTP 500 every time) leaves the conversation as it was, exit 3", async () => {
    server = await startImitation("anthropic", () => ({
      kind: "raw",
      status: 500,
      body: '{"type":"error"}',
      headers: { "retry-after": "0" },
    }));
    const h = hash(files.anthropicJson);
    const r = await runProcess(
      [
        "compact",
        files.anthropicJson,
        "--provider",
        "anthropic",
        "--base-url",
        server.url,
        "--token-threshold",
        "20000",
        "--strategy",
        "summarize", // a failing summarizer, not a clearing run that alone brings the file under the trigger
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("HTTP 500");
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(readFileSync(files.anthropicJson, "utf8")));
    expect(hash(files.anthropicJson)).toBe(h);
  });

  it("bad input gives a clear error, exit 1, and an untouched file", async () => {
    const bad = join(dir, "bad.jsonl");
    const lines = readFileSync(files.openaiJsonl, "utf8").split("\n");
    lines.splice(5, 0, JSON.stringify({ role: "tool", tool_call_id: "ghost", content: "?" }));
    writeFileSync(bad, lines.join("\n"));
    const h = hash(bad);
    const r = await runProcess(["compact", bad], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('messages[5]: orphan tool result: no tool call has id "ghost"');
    expect(r.stdout).toBe("");
    expect(hash(bad)).toBe(h);
  });
});
