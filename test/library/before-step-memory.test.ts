// The AI SDK hook remembers, across the steps of one agent, the stretches known not to shrink
// (issue 20, item 2: zero repeated attempts at a stretch known not to shrink): a stretch whose
// summaries were all rejected as not shorter is not sent to the summarizer again at the next
// step while it is unchanged, and is once it changes.
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import { counting } from "../support/counting-summarizer.ts";

// the only stretch the kernel may take is a two-word reply: no summary of it is shorter
const history: ModelMessage[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "first question ".repeat(20) },
  { role: "assistant", content: "Hello there" },
  { role: "user", content: "second question ".repeat(20) },
];
const config = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 50,
  retention_window: 1,
  min_stretch_tokens: 0,
  // a trigger under the user messages alone (the lawful floor): every step runs, as these tests need
  floor_free_tokens: 1,
  floor_run_every: 1,
};

describe("compactBeforeStep's memory of stretches that cannot shrink", () => {
  it("asks the summarizer about a stretch once across steps while it is unchanged, and again once it changes", async () => {
    const summarizer = counting();
    const reports: CompactionReport[] = [];
    const hook = compactBeforeStep(config, { summarizer, onReport: (r) => reports.push(r) });
    expect(await hook({ messages: history })).toBeUndefined();
    const first = summarizer.requests.length;
    expect(first).toBeGreaterThan(0);
    expect(reports[0].skipped).toHaveLength(1);
    // the next steps: the same history plus the user's new turns (no new stretch); the stretch is known, no call
    let messages = history;
    for (let step = 0; step < 3; step++) {
      messages = [...messages, { role: "user", content: `go on ${step}` }];
      expect(await hook({ messages })).toBeUndefined();
    }
    expect(summarizer.requests.length).toBe(first);
    expect(reports.map((r) => r.outcome)).toEqual(["still-due", "still-due", "still-due", "still-due"]);
    // the stretch changed: worth a call again
    const edited = messages.map((m, i) =>
      i === 2 ? { role: "assistant" as const, content: "Hello there, friend" } : m,
    );
    await hook({ messages: edited });
    expect(summarizer.requests.length).toBeGreaterThan(first);
  });

  it("over steps that add short replies, each stretch that cannot shrink is asked about at one step only", async () => {
    const summarizer = counting();
    const hook = compactBeforeStep(config, { summarizer });
    let messages = history;
    /** the step at which each stretch (by its messages) was first asked about */
    const askedAt = new Map<string, number>();
    for (let step = 0; step < 5; step++) {
      messages = [
        ...messages,
        { role: "assistant", content: `ok ${step}` },
        { role: "user", content: `go on ${step}` },
      ];
      const from = summarizer.requests.length;
      expect(await hook({ messages })).toBeUndefined();
      for (const r of summarizer.requests.slice(from)) {
        const key = JSON.stringify(r.stretch);
        expect(askedAt.get(key) ?? step).toBe(step);
        askedAt.set(key, step);
      }
    }
    // every reply was asked about, each at one step only
    expect(askedAt.size).toBe(6);
  });
});
