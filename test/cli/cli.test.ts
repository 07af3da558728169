import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";
import { type Behavior, factfulAnswer, type Imitation, startImitation } from "../support/http-imitation.ts";
import { clearedResults, expectLawsHold } from "../support/laws.ts";

let dir: string;
let convPath: string;
const conv = openAIConversation({ turns: 12 });
const hash = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

beforeAll(() => {
  dir = tempDir();
  convPath = join(dir, "conv.json");
  writeFileSync(convPath, JSON.stringify({ model: "gpt-4o-mini", messages: conv }));
});

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function writeInput(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe("safecut compact (in process)", () => {
  it("--strategy clear --clear-inputs: old results and their calls' arguments cleared, the text report's clearing line says so", async () => {
    const r = await runInProcess(
      [
        "compact",
        "conv.json",
        "--token-threshold",
        "5000",
        "--strategy",
        "clear",
        "--clear-inputs",
        "--report",
        "ci.json",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "ci.json"), "utf8"));
    expect(report.clearing.inputs).toBeGreaterThan(0);
    expect(report.clearing.inputs).toBe(report.clearing.results);
    expect(report.stretches).toEqual([]);
    const out = readConversationFile(r.stdout).messages;
    expect(clearedResults(out)).toBe(report.clearing.results);
    const emptied = out.flatMap((m) => (m.role === "assistant" ? m.toolCalls : [])).filter((c) => c.arguments === "{}");
    expect(emptied.length).toBe(report.clearing.inputs);
    // without --report the text report is on stderr
    const text = await runInProcess(
      ["compact", "conv.json", "--token-threshold", "5000", "--strategy", "clear", "--clear-inputs"],
      { cwd: dir },
    );
    const line = text.stderr.split("\n").find((l) => l.startsWith("  clearing: "));
    expect(line).toContain(
      `cleared ${report.clearing.results} tool results, the arguments of ${report.clearing.inputs} calls`,
    );
    expect(line).toContain("(and its call)");
  });

  it("--pin file:AGENTS.md keeps the result that loaded AGENTS.md verbatim; without it the run clears it", async () => {
    const agents = "# AGENTS.md\n- Never push to main.\n" + "- keep each module free of side effects\n".repeat(60);
    const pinned = [
      conv[0],
      conv[1],
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "agents", type: "function", function: { name: "read_file", arguments: '{"path":"AGENTS.md"}' } },
        ],
      },
      { role: "tool", tool_call_id: "agents", content: agents },
      ...conv.slice(2),
    ];
    writeInput("pinned.json", JSON.stringify({ model: "gpt-4o-mini", messages: pinned }));
    const args = ["compact", "pinned.json", "--token-threshold", "5000", "--strategy", "clear"];
    const kept = (stdout: string) => readConversationFile(stdout).messages.some((m) => m.content === agents);
    const plain = await runInProcess(args, { cwd: dir });
    expect(plain.code).toBe(0);
    expect(kept(plain.stdout)).toBe(false);
    const r = await runInProcess([...args, "--pin", "file:AGENTS.md", "--report", "pin.json"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(kept(r.stdout)).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, "pin.json"), "utf8"));
    expect(report.clearing.results).toBeGreaterThan(0);
    const l15 = report.laws.find((l: { law: string }) => l.law === "L15");
    expect(l15.ok).toBe(true);
    expect(l15.detail).toBe("1 pinned message kept verbatim (file:AGENTS.md: messages[3])");
    // the text report says what was pinned
    const text = await runInProcess([...args, "--pin", "file:AGENTS.md"], { cwd: dir });
    expect(text.stderr).toContain("L15 ok");
    expect(text.stderr).toContain("  pinned: 1 pinned message kept verbatim (file:AGENTS.md: messages[3])");
    // a bad pin is refused, naming it
    const bad = await runInProcess([...args, "--pin", "AGENTS.md"], { cwd: dir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/pin.*file:<path> or text:<text>.*"AGENTS\.md"/);
  });

  it("compacts a file, prints the conversation on stdout and the report on stderr", async () => {
    const before = hash(convPath);
    const r = await runInProcess(["compact", "conv.json", "--token-threshold", "5000"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(hash(convPath)).toBe(before);
    const out = readConversationFile(r.stdout);
    expect(out.model).toBe("gpt-4o-mini");
    expectLawsHold(readConversationFile(readFileSync(convPath, "utf8")).messages, out.messages, 6);
    expect(r.stderr).toMatch(/compacted: \d+ -> \d+ messages/);
    expect(r.stderr).toContain("laws: L1 ok, L2 ok, L3 ok, L5 ok, L6 ok, L8 ok");
  });

  it("reads stdin, writes --output and a JSON --report", async () => {
    const r = await runInProcess(
      [
        "compact",
        "-",
        "--token-threshold",
        "5000",
        "--target-percent",
        "90",
        "-o",
        "out.json",
        "--report",
        "report.json",
      ],
      { cwd: dir, stdin: JSON.stringify(conv) },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(report.outcome).toBe("compacted");
    expect(report.laws.every((l: { ok: boolean }) => l.ok)).toBe(true);
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    // the default clear-then-summarize with a target clearing reaches (90% of the trigger): clearing
    // alone brought it there, and -o holds the cleared conversation (every message kept, the
    // reported results cleared)
    expect(report.stretches).toEqual([]);
    const out = readConversationFile(readFileSync(join(dir, "out.json"), "utf8")).messages;
    expect(out.length).toBe(conv.length);
    expect(clearedResults(out)).toBe(report.clearing.results);
    expect(report.clearing.results).toBeGreaterThan(0);
  });

  it("the context-window trigger with keep-recent-tokens", async () => {
    const r = await runInProcess(
      [
        "compact",
        "conv.json",
        "--token-threshold",
        "none",
        "--context-window",
        "12000",
        "--reserve-tokens",
        "4000",
        "--keep-recent-tokens",
        "3000",
        "--report",
        "cw.json",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "cw.json"), "utf8"));
    expect(report.outcome).toBe("compacted");
    expect(report.tokensAfter).toBeLessThanOrEqual(8000);
    expect(report.laws.every((l: { ok: boolean }) => l.ok)).toBe(true);
  });

  it("--dry-run prints the plan and writes nothing", async () => {
    const r = await runInProcess(["compact", "conv.json", "--token-threshold", "3000", "--dry-run"], { cwd: dir });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ format: "openai", due: true, plannedStretch: { first: 2 } });
  });

  it("--usage on a run that is not due: the report says the totals were not counted, the JSON gives null", async () => {
    const r = await runInProcess(
      ["compact", "conv.json", "--token-threshold", "3000", "--usage", "1000", "--report", "usage.json"],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("nothing-to-do");
    expect(r.stderr).toContain("tokens not counted (reported usage)");
    const report = JSON.parse(readFileSync(join(dir, "usage.json"), "utf8"));
    expect(report).toMatchObject({ tokensBefore: null, tokensAfter: null, usage: { judgedTokensBefore: 1000 } });
    expect(report.laws.every((l: { ok: boolean }) => l.ok)).toBe(true);
    const dry = await runInProcess(
      ["compact", "conv.json", "--token-threshold", "3000", "--usage", "1000", "--dry-run"],
      {
        cwd: dir,
      },
    );
    expect(JSON.parse(dry.stdout)).toMatchObject({ due: false, tokens: null, judgedTokens: 1000 });
  });

  it("exits 0 and changes nothing when compaction is not due", async () => {
    const r = await runInProcess(["compact", "conv.json"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ model: "gpt-4o-mini", messages: conv });
    expect(r.stderr).toContain("not due");
  });

  it.each([
    ["invalid JSON", '{"messages": [', [], "invalid JSON"],
    [
      "an orphan tool result",
      JSON.stringify([
        { role: "user", content: "a" },
        { role: "tool", tool_call_id: "nope", content: "x" },
      ]),
      [],
      'messages[1]: orphan tool result: no tool call has id "nope"',
    ],
    [
      "duplicate tool call ids",
      JSON.stringify([
        { role: "user", content: "a" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
      ]),
      [],
      'messages[3]: duplicate tool call id "c"',
    ],
    [
      "a tool result before its call",
      JSON.stringify([
        { role: "user", content: "a" },
        { role: "tool", tool_call_id: "c", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
      ]),
      [],
      "comes before its call",
    ],
    [
      "an unknown role",
      JSON.stringify([
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: "c" },
        { role: "robot", content: "d" },
      ]),
      [],
      'messages[3].role: unknown role "robot"',
    ],
    [
      "a negative setting",
      JSON.stringify(conv),
      ["--retention-window", "-1"],
      "retention_window: must be >= 1, got -1",
    ],
    [
      "a NaN setting",
      JSON.stringify(conv),
      ["--token-threshold", "lots"],
      'token_threshold: must be a whole number, got "lots"',
    ],
    [
      "a missing API key",
      JSON.stringify(conv),
      ["--provider", "openai", "--model", "gpt-4o"],
      "OPENAI_API_KEY: is not set",
    ],
    [
      "a hexadecimal count",
      JSON.stringify(conv),
      ["--token-threshold", "0x10"],
      'token_threshold: must be a whole number, got "0x10"',
    ],
    [
      "a count in exponent form",
      JSON.stringify(conv),
      ["--max-tokens", "1e3"],
      'max_tokens: must be a whole number, got "1e3"',
    ],
    [
      "a bad --usage count",
      JSON.stringify(conv),
      ["--usage", "12k"],
      'usage.prompt_tokens: must be a whole number, got "12k"',
    ],
    ["a too small timeout", JSON.stringify(conv), ["--timeout-ms", "0"], "timeout_ms: must be >= 1, got 0"],
    [
      "a base URL that is not a URL",
      JSON.stringify(conv),
      ["--provider", "openai", "--model", "gpt-4o", "--base-url", "notaurl"],
      'base_url: must be an http:// or https:// URL, got "notaurl"',
    ],
    [
      "an ftp base URL",
      JSON.stringify(conv),
      ["--provider", "anthropic", "--model", "claude-haiku-4-5", "--base-url", "ftp://x/"],
      'base_url: must be an http:// or https:// URL, got "ftp://x/"',
    ],
    [
      "an unknown model",
      JSON.stringify(conv),
      ["--provider", "anthropic", "--model", "gpt-4o"],
      'model: unknown model "gpt-4o"',
    ],
  ])("rejects %s with exit 1, a clear error and an untouched input", async (_name, content, flags, message) => {
    const p = writeInput("bad.json", content);
    const before = hash(p);
    const r = await runInProcess(["compact", "bad.json", ...(flags as string[])], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
    expect(hash(p)).toBe(before);
  });

  it("rejects a bad config file naming the field", async () => {
    writeInput("cfg.json", JSON.stringify({ token_threshold: 0 }));
    const r = await runInProcess(["compact", "conv.json", "--config", "cfg.json"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("token_threshold: must be > 0 when set");
    writeInput("cfg-soft.json", JSON.stringify({ token_threshold: 8000, soft_token_threshold: 8000 }));
    const soft = await runInProcess(["compact", "conv.json", "--config", "cfg-soft.json"], { cwd: dir });
    expect(soft.code).toBe(1);
    expect(soft.stderr).toContain("soft_token_threshold: must be > 0 when set (null unsets it), below token_threshold");
    expect(soft.stderr).toContain("got 8000");
    writeInput("cfg2.json", "{oops");
    expect((await runInProcess(["compact", "conv.json", "--config", "cfg2.json"], { cwd: dir })).stderr).toContain(
      "cfg2.json is not valid JSON",
    );
    // a position is a line and column, never a character offset ("position 14")
    writeInput("cfg3.json", '{\n  "max_tokens": 800,\n  "token_threshold": 8000,\n}\n');
    const r3 = await runInProcess(["compact", "conv.json", "--config", "cfg3.json"], { cwd: dir });
    expect(r3.code).toBe(1);
    expect(r3.stderr).toContain("cfg3.json is not valid JSON at line 4, column 1");
    expect(r3.stderr).not.toMatch(/position \d/);
  });

  it.each([
    [[], "Usage"],
    [["compact"], "missing required argument"],
    [["compact", "conv.json", "--bogus"], "unknown option"],
    [["compact", "conv.json", "--format", "xml"], "Allowed choices are openai, anthropic"],
    [["compact", "conv.json", "-o", "conv.json"], "never modifies its input"],
  ])("usage errors exit 2: %j", async (args, message) => {
    const before = hash(convPath);
    const r = await runInProcess(args as string[], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain(message);
    expect(hash(convPath)).toBe(before);
  });

  it("--help documents the exit codes", async () => {
    const r = await runInProcess(["compact", "--help"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Exit codes:");
    expect(r.stdout).toContain("3  summarizer failure");
  });

  const failures: [string, Behavior, string[], string][] = [
    [
      "HTTP 500",
      { kind: "raw", status: 500, body: '{"error":"boom"}', headers: { "retry-after": "0" } },
      [],
      "HTTP 500",
    ],
    ["a timeout", { kind: "hang" }, ["--timeout-ms", "150"], "timed out after 150 ms"],
    ["an empty answer", { kind: "summary", text: "" }, [], "has no <summary>"],
    [
      "a missing tag",
      { kind: "summary", text: "Here is a summary without tags." },
      [],
      "has no <summary>...</summary> block",
    ],
    [
      "an over-long answer",
      { kind: "summary", text: `<summary>${"very long ".repeat(3000)}</summary>` },
      [],
      "is not shorter than what it replaces",
    ],
    [
      "dropped facts",
      { kind: "summary", text: "<summary>The agent did some work.</summary>" },
      [],
      "dropped required facts",
    ],
  ];
  it.each(failures)(
    "a summarizer failure (%s) leaves the conversation exactly as it was, exit 3",
    async (_n, behavior, flags, reason) => {
      server = await startImitation("openai", () => behavior);
      const before = hash(convPath);
      const r = await runInProcess(
        [
          "compact",
          "conv.json",
          "--provider",
          "openai",
          "--base-url",
          server.url,
          "--token-threshold",
          "3000",
          "--strategy",
          "summarize", // a failure of the summarizer, not of a clearing run before it
          "--report",
          "fail.json",
          ...flags,
        ],
        { cwd: dir },
      );
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout)).toEqual({ model: "gpt-4o-mini", messages: conv });
      const report = JSON.parse(readFileSync(join(dir, "fail.json"), "utf8"));
      expect(report.outcome).toBe("degraded");
      expect(report.reason).toContain(reason);
      expect(report.tokensAfter).toBe(report.tokensBefore);
      expect(hash(convPath)).toBe(before);
      // the request used the agent's model from the file ("same as agent")
      expect(server.requests[0]?.body.model ?? "gpt-4o-mini").toBe("gpt-4o-mini");
    },
  );

  it("--prompt-file and --anchor shape the request", async () => {
    server = await startImitation("openai", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
    writeInput(
      "prompt.txt",
      "CUSTOM TEMPLATE keep {{required_facts}}\n\nConversation excerpt:\n{{conversation}}\nwrap in <{{summary_tag}}>",
    );
    const r = await runInProcess(
      [
        "compact",
        "conv.json",
        "--provider",
        "openai",
        "--base-url",
        server.url,
        "--token-threshold",
        "3000",
        "--prompt-file",
        "prompt.txt",
        "--anchor",
        "off-by-one",
        "--summary-tag",
        "recap",
        "--model",
        "gpt-4.1-mini",
        // one stretch per call: the first request is one stretch's prompt (batches: test/engine/batch-run.test.ts)
        "--batch-tokens",
        "0",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(3); // the custom template does not list facts the way factfulAnswer reads them
    const prompt = (server.requests[0].body.messages as { content: string }[])[0].content;
    expect(prompt.startsWith("CUSTOM TEMPLATE keep - ")).toBe(true);
    expect(prompt).toContain("- off-by-one");
    expect(prompt).toContain("wrap in <recap>");
    expect(server.requests[0].body.model).toBe("gpt-4.1-mini");
  });

  it("uses the OpenAI imitation for a full compaction", async () => {
    server = await startImitation("openai", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
    const r = await runInProcess(
      // one stretch per call: the first request asks max_tokens for one summary
      [
        "compact",
        "conv.json",
        "--provider",
        "openai",
        "--base-url",
        server.url,
        "--token-threshold",
        "3000",
        "--batch-tokens",
        "0",
      ],
      { cwd: dir, env: { OPENAI_API_KEY: "sk-x" } },
    );
    expect(r.code).toBe(0);
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests[0].body).toMatchObject({ model: "gpt-4o-mini", max_tokens: 2000 });
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-x");
    expectLawsHold(
      readConversationFile(readFileSync(convPath, "utf8")).messages,
      readConversationFile(r.stdout).messages,
      6,
    );
  });
});

describe("how a run ends, and the smaller options", () => {
  it("a run that ends still above its trigger exits 5 and says where the tokens are, --quiet or not", async () => {
    const r = await runInProcess(["compact", "conv.json", "--token-threshold", "2000"], { cwd: dir });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/compacted-still-due: 97 -> \d+ messages/);
    expect(r.stderr).toMatch(
      /still above the trigger; of the \d+ tokens left, \d+ are in user\/system messages, \d+ in summaries, \d+ in the retention window/,
    );
    expect(readConversationFile(r.stdout).messages.length).toBeLessThan(conv.length);
    const q = await runInProcess(
      ["compact", "conv.json", "--token-threshold", "2000", "--quiet", "--report", "still.json"],
      { cwd: dir },
    );
    expect(q.code).toBe(5);
    expect(q.stderr).toMatch(/^safecut: conv.json: compacted-still-due: /);
    const report = JSON.parse(readFileSync(join(dir, "still.json"), "utf8"));
    expect(report.outcome).toBe("compacted-still-due");
    expect(
      report.remaining.userSystem +
        report.remaining.summaries +
        report.remaining.retentionWindow +
        report.remaining.other,
    ).toBe(report.tokensAfter);
  });

  it("--version prints package.json's version", async () => {
    const version = (
      JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string }
    ).version;
    const r = await runInProcess(["--version"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it("--dry-run -o F writes the plan to F and nothing on stdout", async () => {
    const r = await runInProcess(
      ["compact", "conv.json", "--token-threshold", "3000", "--dry-run", "-o", "plan.json"],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(JSON.parse(readFileSync(join(dir, "plan.json"), "utf8"))).toMatchObject({
      format: "openai",
      due: true,
      plannedStretch: { first: 2 },
    });
  });

  it("--quiet with --progress is refused (exit 2) before anything is read", async () => {
    const r = await runInProcess(["compact", "missing.json", "--quiet", "--progress"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot be used with option '--progress'");
  });

  it("report lines count in the singular for one", async () => {
    writeInput("one.json", JSON.stringify([{ role: "user", content: "hello" }]));
    const r = await runInProcess(["compact", "one.json"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/nothing-to-do: 1 -> 1 message, \d+ -> \d+ tokens .*, 0 stretches replaced/);
    expect(r.stderr).not.toContain("1 messages");
  });
});
