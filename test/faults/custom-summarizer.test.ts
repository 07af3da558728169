// Faults of a library user's own summarizer (the Summarizer interface is public). A common
// real-world mistake is returning an LLM client's `choices[0].message.content`, which is null
// when the model answers with a refusal or a tool call: that is an empty answer, and an empty answer
// (docs/ARCHITECTURE.md, "A run, stage by stage") leaves the conversation as it was and says why. Before the fix in
// src/engine/summarize/summarize-step.ts the engine crashed with "TypeError: Cannot read properties of null
// (reading 'length')", which named neither the summarizer nor the problem.
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";
import type { Summarizer } from "../../src/model/summarizer.ts";
import { openAIConversation } from "../support/generate.ts";

// What a JavaScript caller's summarizer may hand back despite the declared Promise<string>.
const notText: ReadonlyArray<[string, unknown]> = [
  ["null", null],
  ["undefined", undefined],
  ["a number", 42],
  ["an object", { text: "summary" }],
];

describe("a custom summarizer answering something that is not text", () => {
  it.each(notText)("answering %s: degraded, conversation unchanged, the reason says so", async (_label, value) => {
    const msgs = readOpenAIMessages(openAIConversation({ turns: 4, seed: 3 }));
    const frozen = structuredClone(msgs);
    const summarizer: Summarizer = { name: "custom", summarize: async () => value as string };
    const r = await compactMessages(
      msgs,
      { token_threshold: 500, tokenizer: "chars", strategy: "summarize" },
      { summarizer },
    );
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toMatch(/summar/i);
    expect(r.report.reason).toMatch(/not (a )?(string|text)|no text|empty/i);
    expect(r.messages).toEqual(frozen);
    expect(msgs).toEqual(frozen);
  });
});

// A custom summarizer that throws its own error (e.g. an SDK's APIError on an HTTP 500) rather
// than a SummarizerError: a failed attempt, retried up to max_attempts calls, then degraded with the error as reason;
// after the caller aborts through its AbortSignal the run ends at once and says it was aborted.
describe("a custom summarizer that throws", () => {
  const thrown: ReadonlyArray<[string, unknown, RegExp]> = [
    ["a plain Error", new Error("upstream answered 500"), /the summarizer threw Error: upstream answered 500/],
    ["a string", "rate limited", /the summarizer threw "rate limited"/],
    ["null", null, /the summarizer threw null/],
  ];
  it.each(thrown)(
    "throwing %s: retried up to max_attempts, degraded, conversation unchanged, the reason carries it",
    async (_label, value, reason) => {
      const msgs = readOpenAIMessages(openAIConversation({ turns: 4, seed: 3 }));
      const frozen = structuredClone(msgs);
      let calls = 0;
      const summarizer: Summarizer = {
        name: "custom",
        summarize: async () => {
          calls++;
          throw value;
        },
      };
      const r = await compactMessages(
        msgs,
        { token_threshold: 500, tokenizer: "chars", retry_delay_ms: 5, strategy: "summarize" },
        { summarizer },
      );
      expect(r.report.outcome).toBe("degraded");
      expect(r.report.reason).toMatch(reason);
      expect(calls).toBe(SETTINGS.max_attempts.default);
      expect(r.report.summarizerCalls).toBe(calls);
      expect(r.messages).toEqual(frozen);
      expect(msgs).toEqual(frozen);
    },
  );

  it("throwing after the caller aborted: no retry, degraded, conversation unchanged, the reason says aborted", async () => {
    const msgs = readOpenAIMessages(openAIConversation({ turns: 4, seed: 3 }));
    const frozen = structuredClone(msgs);
    const ac = new AbortController();
    let calls = 0;
    const summarizer: Summarizer = {
      name: "custom",
      summarize: async () => {
        calls++;
        ac.abort(new Error("user pressed stop"));
        throw ac.signal.reason;
      },
    };
    const r = await compactMessages(
      msgs,
      { token_threshold: 500, tokenizer: "chars", strategy: "summarize" },
      { summarizer, signal: ac.signal },
    );
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toMatch(/aborted by the caller's signal .*user pressed stop/);
    expect(calls).toBe(1);
    expect(r.messages).toEqual(frozen);
  });
});
