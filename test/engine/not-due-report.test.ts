// The report of a run that is not due, from counts (not-due-report.ts), is compactStore's report
// for the same store, field for field: every strategy, thresholds of each kind (none reached),
// OpenAI and Anthropic conversations (an Anthropic message with several tool results is one
// item of several messages), character and BPE counters.
import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { configForRun, parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { dueVerdict } from "../../src/engine/run/due-verdict.ts";
import { itemMapOf } from "../../src/engine/run/item-map.ts";
import { notDueReport } from "../../src/engine/run/not-due-report.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import type { Message } from "../../src/model/message.ts";
import { messageBytes } from "../../src/model/message-bytes.ts";
import { bpeCounter, charCounter, messageTokens, type TokenCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";

const conversations: [string, Message[]][] = [
  ["openai", readOpenAIMessages(openAIConversation({ turns: 6, seed: 3 }))],
  [
    "anthropic",
    (() => {
      const a = anthropicConversation({ turns: 6, seed: 4, callsPerStep: 2 });
      return readAnthropicMessages(a.messages, a.system);
    })(),
  ],
  ["empty", []],
];

const configs = [
  { token_threshold: 1_000_000 },
  { token_threshold: 1_000_000, strategy: "clear" },
  { token_threshold: 1_000_000, strategy: "clear-then-summarize", retention_window: 2 },
  { message_threshold: 10_000, strategy: "summarize" },
  { turn_threshold: 500, retention_window: 12 },
  { context_window: 2_000_000, reserve_tokens: 1000 },
  { token_threshold: 1_000_000, max_request_bytes: 50_000_000 },
] as const;

const counters: [string, () => TokenCounter][] = [
  ["chars", charCounter],
  ["bpe", bpeCounter],
];

describe("notDueReport", () => {
  for (const [name, messages] of conversations)
    for (const [counterName, counter] of counters)
      it.each(configs)(`is compactStore's report on a ${name} store (${counterName}) under %o`, async (input) => {
        const c = parseConfig(input);
        const summarizer = offlineSummarizer(counter());
        const store = new ConversationStore(counter(), messages);
        const expected = await compactStore(store, c, { summarizer });
        expect(expected.outcome).toBe("nothing-to-do");
        const facts = {
          tokens: messages.reduce((t, m) => t + messageTokens(counter(), m), 0),
          items: itemMapOf(messages).items,
          userTurns: messages.filter((m) => m.role === "user").length,
          protectedMessages: messages.filter((m) => m.role === "user" || m.role === "system").length,
          watermark: 0,
          summarizer: summarizer.name,
          tokenizer: counter().name,
          modelLimits: configForRun(c, { summarizerCallsModel: false }).limits,
          bytes: messages.reduce((b, m) => b + messageBytes(m), 0),
        };
        expect(notDueReport(dueVerdict(c, facts), facts)).toEqual(expected);
      });

  it("is undefined when the kernel's trigger fires (the run must run)", () => {
    const facts = {
      tokens: 500,
      items: 20,
      userTurns: 3,
      protectedMessages: 3,
      watermark: 0,
      summarizer: "offline",
      tokenizer: "chars",
      modelLimits: configForRun(parseConfig({}), { summarizerCallsModel: false }).limits,
      bytes: 5000,
    };
    expect(notDueReport(dueVerdict(parseConfig({ token_threshold: 400 }), facts), facts)).toBeUndefined();
    expect(notDueReport(dueVerdict(parseConfig({ message_threshold: 20 }), facts), facts)).toBeUndefined();
    expect(notDueReport(dueVerdict(parseConfig({ token_threshold: 501 }), facts), facts)?.outcome).toBe(
      "nothing-to-do",
    );
    // the byte budget joins the triggers: over it, the run must run
    expect(
      notDueReport(dueVerdict(parseConfig({ token_threshold: 501, max_request_bytes: 4999 }), facts), facts),
    ).toBeUndefined();
    expect(
      notDueReport(dueVerdict(parseConfig({ token_threshold: 501, max_request_bytes: 5000 }), facts), facts)?.outcome,
    ).toBe("nothing-to-do");
  });
});
