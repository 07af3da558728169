// The usage setting from the command line (--usage TOKENS[:MESSAGES]) and from a config file:
// the trigger judges the reported count; bad values are errors naming the setting.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";

let dir: string;
const conv = openAIConversation({ turns: 12 });

beforeAll(() => {
  dir = tempDir();
  writeFileSync(join(dir, "conv.json"), JSON.stringify({ model: "gpt-4o-mini", messages: conv }));
});

/** The --dry-run plan for these extra arguments. */
async function plan(args: string[]): Promise<{ due: boolean; tokens: number }> {
  const r = await runInProcess(["compact", "conv.json", "--tokenizer", "chars", "--dry-run", ...args], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { due: boolean; tokens: number };
}

describe("--usage", () => {
  it("a reported count above the threshold makes compaction due though the counted one is below it", async () => {
    const counted = (await plan(["--token-threshold", "1000000"])).tokens;
    const threshold = String(counted + 100);
    expect((await plan(["--token-threshold", threshold])).due).toBe(false);
    const byUsage = await plan(["--token-threshold", threshold, "--usage", String(counted + 500)]);
    expect(byUsage).toMatchObject({ due: true, tokens: counted, judgedTokens: counted + 500 });
    // and the other way: the report below the threshold, the counted total above it
    expect((await plan(["--token-threshold", String(counted - 100)])).due).toBe(true);
    expect((await plan(["--token-threshold", String(counted - 100), "--usage", "10"])).due).toBe(false);
  });

  it("with :MESSAGES the messages after the prefix are counted on top of the report", async () => {
    const counted = (await plan(["--token-threshold", "1000000"])).tokens;
    // a report of 0 for all messages: 0 judged; for none of them: everything counted
    expect((await plan(["--token-threshold", String(counted), "--usage", `0:${conv.length}`])).due).toBe(false);
    expect((await plan(["--token-threshold", String(counted), "--usage", "0:0"])).due).toBe(true);
  });

  it("a config file sets it, and --usage none unsets it", async () => {
    const counted = (await plan(["--token-threshold", "1000000"])).tokens;
    writeFileSync(join(dir, "usage.json"), JSON.stringify({ usage: { prompt_tokens: 10 } }));
    const args = ["--token-threshold", String(counted - 100), "--config", "usage.json"];
    expect((await plan(args)).due).toBe(false);
    expect((await plan([...args, "--usage", "none"])).due).toBe(true);
  });

  it("the report on stderr says what the trigger judged", async () => {
    const r = await runInProcess(
      ["compact", "conv.json", "--tokenizer", "chars", "--token-threshold", "3000", "--usage", "2000"],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("nothing-to-do");
    expect(r.stderr).toContain("the trigger judged the reported usage (2000 tokens reported): 2000 -> 2000");
  });

  it("a run still due says which threshold fired and what count it judged, not the counted total", async () => {
    const r = await runInProcess(
      ["compact", "conv.json", "--tokenizer", "chars", "--token-threshold", "50000", "--usage", "100000"],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(5); // compacted, still due
    const report = r.stderr;
    const judged = /the trigger judged the reported usage \(100000 tokens reported\): 100000 -> (\d+)/.exec(report);
    expect(judged, report).not.toBeNull();
    const after = Number(judged?.[1]);
    expect(after).toBeGreaterThan(50000); // still due by the report
    expect(report).toContain(`still above the trigger at ${after} tokens (reported usage);`);
    expect(report).toMatch(/of the \d+ tokens counted in the messages left, /);
    expect(report).not.toMatch(/of the \d+ tokens left/);
    expect(report).toContain("due by reported usage");
    expect(report).not.toContain("tokens/messages/turns");
  });

  it.each([
    ["-5", "usage.prompt_tokens"],
    ["1.5", "usage.prompt_tokens"],
    ["9007199254740992", "usage.prompt_tokens"],
    ["lots", "usage.prompt_tokens"],
    ["100:-1", "usage.messages"],
    ["100:x", "usage.messages"],
    ["100:999", "usage.messages"],
  ])("--usage %s is refused naming %s", async (value, field) => {
    const r = await runInProcess(["compact", "conv.json", "--tokenizer", "chars", "--usage", value], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(field);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
