// The providers' server-side compaction items arriving as AI SDK messages: Anthropic's compaction
// block as the `ai` package's assistant text part marked by providerOptions.anthropic.type
// "compaction", the Responses compaction item as a custom part of kind "openai.compaction" whose
// providerOptions.openai holds the encrypted content. Each is read under the kernel's compaction
// role, counted by its size, kept as the caller's own object through a compaction, and an
// assistant message holding one with tool calls is kept whole with its results.
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { readModelMessages } from "../../src/adapters/ai-sdk.ts";
import { kernelViews } from "../../src/engine/store/views.ts";
import { compactModelMessages } from "../../src/entries/ai-sdk.ts";
import { charCounter } from "../../src/model/tokens.ts";

const ENCRYPTED = `EqQBCkYIBxgCKkD${"x9".repeat(400)}`;
const CONFIG = { token_threshold: 1500, tokenizer: "chars", retention_window: 4, min_stretch_tokens: 0 } as const;

const anthropicCompaction: ModelMessage = {
  role: "assistant",
  content: [
    {
      type: "text",
      text: "The user asked to fix the failing tests; files 0 to 9 were read.",
      providerOptions: { anthropic: { type: "compaction", encryptedContent: ENCRYPTED } },
    },
    { type: "text", text: "Continuing." },
  ],
};
const responsesCompaction: ModelMessage = {
  role: "assistant",
  content: [
    { type: "custom", kind: "openai.compaction", providerOptions: { openai: { encryptedContent: ENCRYPTED } } },
  ],
};

/** Tool turns reading files `from`..`to - 1`, AI SDK shape. */
function reads(from: number, to: number): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let k = from; k < to; k++) {
    out.push({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `t${k}`, toolName: "read", input: { path: `f${k}` } }],
    });
    out.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `t${k}`,
          toolName: "read",
          output: { type: "text", value: `line of f${k}\n`.repeat(40) },
        },
      ],
    });
  }
  return out;
}

const task: ModelMessage = { role: "user", content: "Fix the failing tests." };

describe.each([
  ["Anthropic's compaction block (a text part marked by providerOptions)", anthropicCompaction],
  ["the Responses compaction item (a custom part openai.compaction)", responsesCompaction],
])("AI SDK messages holding %s", (_name, holder) => {
  it("are read under the kernel's compaction role and counted by their size", () => {
    const read = readModelMessages([task, holder]);
    expect(kernelViews(read.messages).roles).toEqual(["user", "compaction"]);
    expect(read.messages[1].content).toContain(ENCRYPTED);
    expect(charCounter().count(read.messages[1].content)).toBeGreaterThanOrEqual(charCounter().count(ENCRYPTED));
  });

  it("stay the caller's own object through a compaction that summarizes around them", async () => {
    const messages = [task, ...reads(0, 6), holder, ...reads(6, 14)];
    const r = await compactModelMessages(messages, CONFIG);
    expect(r.report.outcome).toMatch(/^compacted/);
    expect(r.report.tokensBefore).toBeGreaterThan(charCounter().count(ENCRYPTED));
    expect(r.messages.filter((m) => m === holder)).toHaveLength(1);
    expect(r.messages.length).toBeLessThan(messages.length);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});

describe("an AI SDK assistant message holding a compaction block and tool calls", () => {
  it("is kept whole, with its tool results, through a compaction that summarizes before and after it", async () => {
    const holder: ModelMessage = {
      role: "assistant",
      content: [
        ...(anthropicCompaction.content as Exclude<ModelMessage["content"], string>),
        { type: "tool-call", toolCallId: "t100", toolName: "read", input: { path: "f100" } },
      ],
    } as ModelMessage;
    const [call, result] = reads(100, 101);
    void call;
    const messages = [task, ...reads(0, 6), holder, result, ...reads(6, 14)];
    const read = readModelMessages(messages);
    expect(kernelViews(read.messages).roles).toContain("compaction");
    const r = await compactModelMessages(messages, { ...CONFIG, retention_window: 2 });
    expect(r.report.outcome).toMatch(/^compacted/);
    expect(r.messages.filter((m) => m === holder)).toHaveLength(1);
    expect(r.messages.filter((m) => m === result)).toHaveLength(1);
    expect(r.messages.indexOf(result)).toBeGreaterThan(r.messages.indexOf(holder));
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });
});
