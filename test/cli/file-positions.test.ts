// The retention window, report positions and message counts are in the file's own messages: an
// Anthropic message is one message however many tool_result blocks it holds, and its top-level
// system is not one of them. Each replaced stretch is reported in the input's positions.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";

const long = (tag: string) =>
  Array.from({ length: 40 }, (_, i) => `${tag} line ${i}: const value${i} = compute(${i * 7})`).join("\n");
const use = (id: string) => ({ type: "tool_use", id, name: "read_file", input: { path: `src/${id}.ts` } });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: long(id) });

// six file messages, thirteen as safecut reads them (the system, and one per tool result)
const sixMessages = {
  system: "You are a coding agent.",
  messages: [
    { role: "user", content: "fix the bug" },
    { role: "assistant", content: [use("a1"), use("a2")] },
    { role: "user", content: [result("a1"), result("a2")] },
    { role: "assistant", content: ["b1", "b2", "b3", "b4", "b5", "b6"].map(use) },
    { role: "user", content: ["b1", "b2", "b3", "b4", "b5", "b6"].map(result) },
    { role: "assistant", content: "done" },
  ],
};

describe("positions and the retention window in the file's own messages", () => {
  it("--retention-window 6 on a 6-message Anthropic file touches nothing", async () => {
    const dir = tempDir();
    const text = JSON.stringify(sixMessages, null, 2);
    writeFileSync(join(dir, "six.json"), text);
    const r = await runInProcess(
      ["compact", "six.json", "--token-threshold", "100", "--retention-window", "6", "--report", "r.json"],
      { cwd: dir },
    );
    // due, but the whole file is the window: nothing may be touched, and the run says it is still due
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe(text);
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(report).toMatchObject({ outcome: "still-due", messagesBefore: 6, messagesAfter: 6 });
    expect(report.laws.find((l: { law: string }) => l.law === "L3")).toMatchObject({
      ok: true,
      detail: "last 6 messages",
    });
  });

  it("--retention-window 3 may replace messages 1..2, counted and reported in file messages", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "six.json"), JSON.stringify(sixMessages));
    const r = await runInProcess(
      ["compact", "six.json", "--token-threshold", "100", "--retention-window", "3", "--report", "r.json"],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(5); // the window alone holds more than the trigger
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(report).toMatchObject({ outcome: "compacted-still-due", messagesBefore: 6, messagesAfter: 5 });
    expect(report.stretches.map((s: { input: unknown }) => s.input)).toEqual([{ first: 1, last: 2 }]);
    const out = JSON.parse(r.stdout);
    // the last three messages are written as they were
    expect(out.messages.slice(-3)).toEqual(sixMessages.messages.slice(-3));
  });

  it("reports each stretch in the input's positions: ranges never overlap, and the messages outside them are the ones kept", async () => {
    const dir = tempDir();
    const conv = openAIConversation({ turns: 12 });
    const lines = conv.map((m) => JSON.stringify(m));
    writeFileSync(join(dir, "c.jsonl"), `${lines.join("\n")}\n`);
    // the stretches' positions: a summarizing run; no summary aging (an aged summary's range is
    // the range of the summary it re-summarizes)
    const args = ["compact", "c.jsonl", "--token-threshold", "3000", "--retention-window", "4"];
    const summarizing = [...args, "--strategy", "summarize", "--age-percent", "0"];
    const r = await runInProcess([...summarizing, "--report", "r.json"], { cwd: dir });
    expect([0, 5], r.stderr).toContain(r.code);
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    const ranges: number[][] = report.stretches.map((s: { input: { first: number; last: number } }) => [
      s.input.first,
      s.input.last,
    ]);
    expect(ranges.length).toBeGreaterThan(1);
    // the text report (on stderr without --report) says the same
    const text = await runInProcess(summarizing, { cwd: dir });
    const shown = Array.from(text.stderr.matchAll(/replaced messages (\d+)\.\.(\d+)/g), (m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(shown).toEqual(ranges.slice(0, 10));
    const replaced = new Set<number>();
    ranges.forEach(([a, b], k) => {
      if (k > 0) expect(a).toBeGreaterThan(ranges[k - 1][1]);
      for (let i = a; i <= b; i++) replaced.add(i);
    });
    const out = r.stdout.split("\n").filter((l) => l !== "");
    const kept = lines.filter((_, i) => !replaced.has(i));
    expect(out.filter((l) => !l.includes("<summary>"))).toEqual(kept);
    expect(out.length).toBe(kept.length + ranges.length);
  });

  it("--dry-run: plannedStretch's first and last are the reason's numbers", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "c.json"), JSON.stringify(openAIConversation({ turns: 6 })));
    const r = await runInProcess(["compact", "c.json", "--token-threshold", "3000", "--dry-run"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    const m = /would summarize \d+ stretch(?:es)? \(first: messages (\d+)\.\.(\d+), (\d+) messages/.exec(plan.reason);
    expect(m).not.toBeNull();
    expect([plan.plannedStretch.first, plan.plannedStretch.last]).toEqual([Number(m![1]), Number(m![2])]);
    expect(Number(m![3])).toBe(plan.plannedStretch.last - plan.plannedStretch.first + 1);
    // after what clearing would free, the run summarizes down to the target: the plan's trigger
    expect(plan.plannedStretch.trigger).toBe(plan.plan.trigger);
  });
});
