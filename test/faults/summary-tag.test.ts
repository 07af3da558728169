// A summary travels through the wire formats as an assistant message wrapped in <summary_tag>;
// reading it back restores the summary role, which is what lets the next compaction roll it up
// (previous summary) instead of treating it as the agent's own words. A summary whose text itself
// contains the tag breaks that: a required fact copied verbatim from a tool's error output
// ("Error: unexpected </summary> in template.html"), or an LLM answer quoting the tag. Until the
// summary marker recognised the wrapper by its first and last line (commit f7eb2e0), such a summary
// read back as a plain assistant message.
import { afterEach, describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import type { JsonObject } from "../../src/model/json.ts";
import { type Imitation, startImitation } from "../support/http-imitation.ts";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A history whose only compressible stretch holds a tool error mentioning the summary tag. */
function history(errorLine: string): JsonObject[] {
  const tail = ["ok", "a", "b", "c", "d", "e"].map((t, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: t,
  }));
  return [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "fix the template" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "run_tests", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "c1", content: `${errorLine}\n${"  at render (template.html:12)\n".repeat(40)}` },
    {
      role: "assistant",
      content: `I will look at renderTemplate in src/render.ts. ${"It parses the template. ".repeat(30)}`,
    },
    ...tail,
  ];
}

// floor_free_tokens 1 in both: these histories are tiny, and a run that frees under floor_free_tokens
// while staying over the trigger is not worth its cache re-write (batchWorthRewrite) and would not go.
describe("a summary whose text contains the summary tag", () => {
  it("keeps its summary role through the wire round trip (offline summarizer, tag from a required fact)", async () => {
    const input = history("Error: unexpected </summary> in template.html");
    const r = await compactOpenAIMessages(input, { token_threshold: 100, tokenizer: "chars", floor_free_tokens: 1 });
    // the result stays above 100 tokens (the offline summary, user messages, the retention window): the run says so
    expect(r.report.outcome).toBe("compacted-still-due");
    const back = readOpenAIMessages(r.messages);
    const summaries = back.filter((m) => m.role === "summary");
    // the summary in the result is the last one written at its place (an aged one re-summarizes it in place)
    const last = r.report.stretches[r.report.stretches.length - 1];
    expect(r.report.stretches.slice(1).every((s) => s.aged === true && s.start === last.start)).toBe(true);
    expect(summaries.map((m) => m.content)).toEqual([last.summary]);
    expect(last.summary).toContain("Error: unexpected </summary> in template.html");
  });

  it("keeps its summary role through the wire round trip (LLM answer quoting the tag)", async () => {
    server = await startImitation("openai", () => ({
      kind: "summary",
      text: "<summary>Ran run_tests: the template in src/render.ts (renderTemplate) failed with Error: unexpected <summary> in template.html</summary>",
    }));
    const input = history("Error: unexpected <summary> in template.html");
    const r = await compactOpenAIMessages(
      input,
      {
        token_threshold: 100,
        tokenizer: "chars",
        floor_free_tokens: 1,
        provider: "openai",
        base_url: server.url,
        model: "gpt-4o-mini",
      },
      { env: {} },
    );
    expect(r.report.outcome).toBe("compacted");
    const back = readOpenAIMessages(r.messages);
    const summaries = back.filter((m) => m.role === "summary");
    expect(summaries.map((m) => m.content)).toEqual([r.report.stretches[0].summary]);
  });
});
