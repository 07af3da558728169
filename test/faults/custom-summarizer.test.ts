// Faults of a library user's own summarizer (the Summarizer interface is public). A common
// real-world mistake is returning an LLM client's `choices[0].message.content`, which is null
// when the model answers with a refusal or a tool call: that is an empty answer, and DESIGN.md
// says an empty answer leaves the conversation as it was and says why. These tests FAIL today:
// the engine crashes with "TypeError: Cannot read properties of null (reading 'length')", which
// names neither the summarizer nor the problem (engine bug reported in .tmp/engine-bugs.txt).
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/engine/compact-messages.ts";
import type { Summarizer } from "../../src/providers/summarizer.ts";
import { openAIConversation } from "../support/generate.ts";

// What a JavaScript caller's summarizer may hand back despite the declared Promise<string>.
const notText: ReadonlyArray<[string, unknown]> = [["null", null], ["undefined", undefined], ["a number", 42], ["an object", { text: "summary" }]];

describe("a custom summarizer answering something that is not text", () => {
  it.each(notText)("answering %s: degraded, conversation unchanged, the reason says so", async (_label, value) => {
    const msgs = readOpenAIMessages(openAIConversation({ turns: 4, seed: 3 }));
    const frozen = structuredClone(msgs);
    const summarizer: Summarizer = { name: "custom", summarize: async () => value as string };
    const r = await compactMessages(msgs, { token_threshold: 500, tokenizer: "chars" }, { summarizer });
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toMatch(/summar/i);
    expect(r.report.reason).toMatch(/not (a )?(string|text)|no text|empty/i);
    expect(r.messages).toEqual(frozen);
    expect(msgs).toEqual(frozen);
  });
});
