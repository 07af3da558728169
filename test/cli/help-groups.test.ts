// `safecut compact --help` for a newcomer (issue 34, part 2): the options in groups (input and
// output, triggers, what is kept, summarizer, clearing), in the user's words (the kernel's
// vocabulary stays in docs/), with examples and a pointer to sessions. The groups come from the
// table of settings (each row's `group`).
import { describe, expect, it } from "vitest";
import { settingRows } from "../../src/model/settings-table.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";

describe("safecut compact --help", () => {
  it("lists the options in groups, in order, with examples and sessions", async () => {
    const r = await runInProcess(["compact", "--help"], { cwd: tempDir() });
    const headings = r.stdout.split("\n").filter((l) => /^\S.*:$/.test(l));
    expect(headings).toEqual([
      "Arguments:",
      "Input and output:",
      "When to compact, and how far:",
      "What is never summarized:",
      "Summarizer (the model that writes summaries, and how it is asked):",
      "Clearing old tool results:",
      "Options:",
      "Examples:",
      "Sessions:",
      "Exit codes:",
    ]);
    expect(r.stdout).toContain("safecut compact session.json --dry-run");
    expect(r.stdout).toContain("safecut session --help");
    // a session is a log file or a table, as `safecut session --help` says (not a directory)
    const sessions = r.stdout.slice(r.stdout.indexOf("Sessions:"));
    expect(sessions).toContain("log file or a PostgreSQL table");
    expect(sessions).not.toContain("directory");
  });

  it("speaks the user's words: no law numbers, no stretch, low-water or aged (flag names aside)", async () => {
    const r = await runInProcess(["compact", "--help"], { cwd: tempDir() });
    const text = r.stdout.replace(/--min-stretch-tokens/g, "");
    for (const word of [/\bL\d+\b/, /stretch/i, /low-water/i, /\baged\b/i]) expect(text).not.toMatch(word);
  });

  it("safecut inspect --help says it takes compact's setting flags, which it hides from its list", async () => {
    const r = await runInProcess(["inspect", "--help"], { cwd: tempDir() });
    expect(r.stdout).toContain("every setting flag of safecut compact");
    expect(r.stdout).not.toContain("--token-threshold <n>");
  });

  it("every setting with a flag is in one of the table's groups", () => {
    for (const [name, spec] of settingRows())
      expect(["triggers", "kept", "summarizer", "clearing"], name).toContain(spec.group);
  });
});
