// A lawful floor (issue 31, part 2): when user and system messages, the retention window and the
// summaries that cannot shrink already exceed the trigger, every call is due again. A run there
// is refused up front unless it may free floor_free_tokens, at most one per floor_run_every
// calls, and the report says the trigger is below what compaction can reach, with the figures
// and the setting to change.
import { describe, expect, it } from "vitest";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";

/** `turns` turns: a 400-token user message, then a 100-token assistant answer. */
function turns(n: number, from = 0): Message[] {
  const out: Message[] = [];
  for (let t = from; t < from + n; t++) {
    out.push({ role: "user", content: `question ${t} ${"q".repeat(1_580)}` });
    out.push({ role: "assistant", content: `answer ${t} ${"a".repeat(380)}`, toolCalls: [] });
  }
  return out;
}

const config = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 10_000,
  retention_window: 4,
};

describe("the lawful floor", () => {
  it("under it, stateless calls run at most once per floor_run_every calls and say why", async () => {
    const { summarizer, calls } = recordingSummarizer((r) => "done".padEnd(Math.min(40, r.maxTokens * 2), "."));
    let messages: Message[] = [{ role: "system", content: "You are a coding agent." }, ...turns(30)];
    const runs: number[] = [];
    const reasons: string[] = [];
    for (let call = 0; call < 20; call++) {
      const asked = calls.single.length + calls.batch.length;
      const r = await compactMessages(messages, config, { summarizer });
      expect(r.report.dueBefore).toBe(true);
      // the report gives the floor's figures: over the 10k trigger
      expect(r.report.lawfulFloor?.trigger).toBe(10_000);
      expect(r.report.lawfulFloor?.total).toBeGreaterThanOrEqual(10_000);
      if (calls.single.length + calls.batch.length > asked) runs.push(call);
      else reasons.push(r.report.reason);
      messages = [...r.messages, ...turns(1, 100 + call)];
    }
    // before: a run (a summarizer call for a few hundred tokens) before every one of the 20 calls.
    // Now the first (no summary yet), then one per floor_run_every (10) calls: the newest
    // summary's marker says how many assistant messages followed it when the run ended
    expect(runs).toEqual([0, 10]);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) {
      expect(reason).toContain("the trigger is below what compaction can reach");
      expect(reason).toMatch(/lawful floor of \d+ tokens \(user and system messages \d+/);
      expect(reason).toContain("raise token_threshold above");
    }
  });

  it("a trigger above the floor runs as before", async () => {
    const { summarizer, calls } = recordingSummarizer((r) => "done".padEnd(Math.min(40, r.maxTokens * 2), "."));
    const r = await compactMessages(
      [{ role: "system", content: "go" }, ...turns(30)],
      { ...config, token_threshold: 14_000 },
      { summarizer },
    );
    expect(calls.single.length + calls.batch.length).toBeGreaterThan(0);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.report.lawfulFloor).toBeUndefined();
    // no floor to space runs from: the summary is written as before, with no marker
    expect(r.messages.every((m) => m.role !== "summary" || m.marker === undefined)).toBe(true);
  });
});
