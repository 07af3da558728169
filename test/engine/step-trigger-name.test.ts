// One name for the step a due run takes once it is under its trigger, going on down to its target:
// "to target", in the report's JSON, in the CLI's text and in a session's record (it was "none",
// "due by none" and "low-water"). A session log written before (its records say "low-water")
// still opens, and reads as "to target".
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { reportText } from "../../src/cli/report-text.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { openSession } from "../../src/session/open.ts";
import { tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";

// a due run at 20,000 tokens that goes on to 50% of it: its later steps are taken under the trigger
const config = { tokenizer: "chars", strategy: "summarize", token_threshold: 20_000, target_percent: 50 } as const;

describe("the step of a due run under its trigger", () => {
  it('is "to target" in the report and in its text, never "none"', async () => {
    const { report } = await compactMessages(readOpenAIMessages(openAIConversation({ turns: 30 })), config);
    const triggers = report.stretches.map((s) => s.trigger);
    expect(triggers).toContain("tokens");
    expect(triggers).toContain("to target");
    expect(triggers).not.toContain("none");
    // the text lists the first ten steps: these, to see how it names them
    const text = reportText(
      { ...report, stretches: report.stretches.filter((s) => s.trigger === "to target") },
      "conv.json",
    );
    expect(text).toContain(", to target");
    expect(text).not.toContain("due by none");
  });

  it('is "to target" in a dry run\'s plan and its first stretch, and in its text', async () => {
    // clearing brings the sample session under its 5,000-token trigger; the run then summarizes
    // down to its target, so the first planned step is taken under the trigger
    const ms = readOpenAIMessages(JSON.parse(readFileSync("examples/session.openai.json", "utf8")).messages);
    const dry = { tokenizer: "chars", token_threshold: 5_000, clear_at_least: 100, clear_keep: 1 } as const;
    const { report } = await compactMessages(ms, dry, { dryRun: true });
    expect(report.plannedStretch?.trigger).toBe("to target");
    expect(report.plan?.trigger).toBe("to target");
    const text = reportText(report, "conv.json");
    expect(text).toContain("to target at ");
    expect(text).not.toMatch(/due by (none|to target)/);
  });

  it('is "to target" in a session\'s records, and a log whose records say "low-water" reads the same', async () => {
    const at = join(tempDir(), "old.session.jsonl");
    const s = await openSession(at, { format: "openai" });
    await s.append(openAIConversation({ turns: 30 }));
    const report = await s.compact(config);
    const records = await s.compactions();
    expect(records.map((r) => r.trigger)).toEqual(report.stretches.map((x) => x.trigger));
    expect(records.map((r) => r.trigger)).toContain("to target");
    await s.close();
    // the same log as an older version wrote it
    const log = readFileSync(at, "utf8");
    expect(log).toContain('"trigger":"to target"');
    writeFileSync(at, log.replaceAll('"trigger":"to target"', '"trigger":"low-water"'));
    const old = await openSession(at);
    expect((await old.compactions()).map((r) => r.trigger)).toEqual(records.map((r) => r.trigger));
    await old.close();
  });
});
