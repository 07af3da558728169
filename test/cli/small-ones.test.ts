// Issue 34's small ones, each as a user met it: `--report -` is stdout (not a file named "-"),
// the clearing line names each Anthropic message once however many results it held, and a file
// larger than the engine's longest string is refused for its size, not as bad UTF-8.
import { constants } from "node:buffer";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeUtf8 } from "../../src/cli/utf8.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { anthropicConversation } from "../support/generate.ts";

const CLEAR = ["--token-threshold", "3000", "--strategy", "clear", "--clear-keep", "1", "--tokenizer", "chars"];

describe("--report -", () => {
  it("writes the report as JSON on stdout and no file named -", async () => {
    const d = tempDir();
    writeFileSync(join(d, "conv.json"), JSON.stringify(anthropicConversation({ turns: 6 })));
    const r = await runInProcess(["compact", "conv.json", ...CLEAR, "-o", "out.json", "--report", "-"], { cwd: d });
    expect(r.code).toBe(0);
    expect(existsSync(join(d, "-"))).toBe(false);
    const report = JSON.parse(r.stdout) as { input: string; clearing?: unknown };
    expect(report.input).toBe("conv.json");
    expect(JSON.parse(readFileSync(join(d, "out.json"), "utf8"))).toHaveProperty("messages");
  });

  it("is refused when the conversation goes to stdout too", async () => {
    const d = tempDir();
    writeFileSync(join(d, "conv.json"), JSON.stringify(anthropicConversation({ turns: 6 })));
    const r = await runInProcess(["compact", "conv.json", ...CLEAR, "--report", "-"], { cwd: d });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--report - and the conversation would both go to stdout");
    expect(existsSync(join(d, "-"))).toBe(false);
  });
});

describe("the clearing line", () => {
  it("names an Anthropic message once, with how many of its results were cleared", async () => {
    const d = tempDir();
    const conv = anthropicConversation({ turns: 8 });
    writeFileSync(join(d, "conv.json"), JSON.stringify(conv));
    const r = await runInProcess(["compact", "conv.json", ...CLEAR, "-o", "out.json"], { cwd: d });
    expect(r.code).toBe(0);
    const line = r.stderr.split("\n").find((l) => l.includes("clearing:")) ?? "";
    const listed = [...line.matchAll(/(?:messages |, )(\d+)/g)].map((m) => Number(m[1]));
    expect(listed.length).toBeGreaterThan(2);
    expect(new Set(listed).size, line).toBe(listed.length);
    // the generated conversation answers two calls in one message somewhere: that message says so
    expect(line).toMatch(/\d+ \(\d+ results\)/);
  });
});

describe("a file longer than the engine's longest string", () => {
  it("is refused for its size (valid UTF-8), not as bad UTF-8 at byte 1", () => {
    // every byte a space: well-formed UTF-8, one character more than a string can hold
    const bytes = Buffer.alloc(constants.MAX_STRING_LENGTH + 1, 0x20);
    let message = "";
    try {
      decodeUtf8(bytes, "big.json");
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toContain("not valid UTF-8");
    expect(message).toContain("big.json is 537 MB, more characters than the longest string");
    expect(message).toContain("split it into smaller files");
  }, 60_000);
});
