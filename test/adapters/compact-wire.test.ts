import { describe, expect, it } from "vitest";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/index.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";

describe("compaction on wire-format messages", () => {
  it("OpenAI: shorter array, protected messages and the tail verbatim", async () => {
    const wire = openAIConversation({ turns: 15 });
    const r = await compactOpenAIMessages(wire, { token_threshold: 5000, summary_tag: "recap", strategy: "summarize" });
    expect(r.report.outcome).toBe("compacted");
    expect(r.messages.length).toBeLessThan(wire.length);
    expect(r.messages.filter((m) => m.role === "user" || m.role === "system")).toEqual(
      wire.filter((m) => m.role === "user" || m.role === "system"),
    );
    expect(r.messages.slice(-6)).toEqual(wire.slice(-6));
    expect(r.messages.some((m) => typeof m.content === "string" && m.content.startsWith("<recap>"))).toBe(true);
  });

  it("Anthropic: system kept, tool_use/tool_result pairs never split", async () => {
    const conv = anthropicConversation({ turns: 15 });
    const r = await compactAnthropicMessages(conv, { token_threshold: 5000, strategy: "summarize" });
    expect(r.system).toBe(conv.system);
    expect(r.messages.length).toBeLessThan(conv.messages.length);
    const uses = new Set<string>();
    for (const m of r.messages) {
      if (!Array.isArray(m.content)) continue;
      for (const b of m.content as { type: string; id?: string; tool_use_id?: string }[]) {
        if (b.type === "tool_use") uses.add(b.id!);
        if (b.type === "tool_result") expect(uses.has(b.tool_use_id!)).toBe(true);
      }
    }
  });
});
