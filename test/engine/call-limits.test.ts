// A stretch's request within the summarizer's limits (call-limits.ts, stretchAsk): it asks at most
// the output cap, and an excerpt that would leave no room for the answer in the window is cut
// (head and tail lines kept by the kernel's L11 rule, the middle named) for the summarizer's input only.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { cutExcerpt, FRAMING_TOKENS } from "../../src/engine/summarize/call-limits.ts";
import { type StepContext, stretchAsk } from "../../src/engine/summarize/summarize-step.ts";
import type { Message } from "../../src/model/message.ts";
import { bpeCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

const counter = bpeCounter();
const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i}: value ${i * 7}`).join("\n");

function ctx(settings: Record<string, unknown>): StepContext {
  return {
    config: parseConfig({ token_threshold: 1000, ...settings }),
    summarizer: offlineSummarizer(counter),
    counter,
    model: "m",
  };
}

/** A stretch of one tool call whose result is `output`. */
function stretch(output: string): Message[] {
  return [
    { role: "assistant", content: "reading src/a.ts", toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }] },
    { role: "tool", toolCallId: "c1", content: output },
  ];
}

describe("cutting an excerpt to fit the summarizer's window", () => {
  it("keeps a text that fits, and cuts one that does not to its head and tail within the budget", () => {
    expect(cutExcerpt("short text", 100, counter)).toBe("short text");
    const text = lines(2000, "L");
    const cut = cutExcerpt(text, 1000, counter);
    expect(counter.count(cut)).toBeLessThanOrEqual(1000);
    expect(counter.count(cut)).toBeGreaterThan(800);
    expect(cut.startsWith("L line 0: value 0\n")).toBe(true);
    expect(cut.endsWith("L line 1999: value 13993")).toBe(true);
    expect(cut).toMatch(/\[\.\.\. \d+ lines of this excerpt left out here/);
  });

  it("cuts a single line longer than the budget (a minified file) in pieces", () => {
    const cut = cutExcerpt("x1 ".repeat(20_000), 500, counter);
    expect(counter.count(cut)).toBeLessThanOrEqual(500);
    expect(cut).toContain("x1 x1");
  });
});

describe("a stretch's request within the summarizer's limits", () => {
  it("asks at most the output cap", () => {
    const a = stretchAsk(stretch(lines(50, "T")), 2000, ctx({ max_tokens: 3000, summarizer_output_cap: 1000 }));
    expect(a.request.maxTokens).toBe(1000);
    expect(a.request.budgetTokens).toBeLessThanOrEqual(1000);
    expect(a.cut).toBe(false);
  });

  it("cuts the excerpt so the prompt and the answer fit the window, the facts listed whole", () => {
    const output = `${lines(3000, "T")}\nError: src/a.ts:12 broke`;
    const a = stretchAsk(
      stretch(output),
      60_000,
      ctx({ max_tokens: 2000, summarizer_window: 8192, anchors: ["broke"] }),
    );
    expect(a.fits).toBe(true);
    expect(a.cut).toBe(true);
    expect(counter.count(a.request.prompt) + FRAMING_TOKENS + a.request.maxTokens).toBeLessThanOrEqual(8192);
    expect(a.request.prompt).toContain("left out here");
    // the tail (the error) is kept, and the facts to keep are listed in full
    expect(a.request.prompt).toContain("Error: src/a.ts:12 broke");
    expect(a.request.requiredFacts.length).toBeGreaterThan(0);
    // the stretch the summary replaces is the whole one
    expect(a.request.replacedTokens).toBe(60_000);
    expect(a.request.stretch[1].content).toBe(output);
  });

  it("does not fit when the window leaves no room beyond the prompt's fixed part and the answer", () => {
    const a = stretchAsk(stretch(lines(100, "T")), 2000, ctx({ max_tokens: 2000, summarizer_window: 2100 }));
    expect(a.fits).toBe(false);
  });
});
