// Provider-reported usage: the trigger judges the reported prompt tokens plus the counts after the
// reported prefix (the kernel's usageTokens), carried across steps by usageAfterSplice; bad values
// are errors naming the field.
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { planStep } from "../../src/engine/run/plan.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { compactAnthropicMessages } from "../../src/library/compact-wire.ts";
import { reportedPrefix } from "../../src/library/usage.ts";
import { SafecutError } from "../../src/model/errors.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { modelMessagesConversation } from "../support/generate-sdk.ts";
import { counted, expectLawsHold } from "../support/laws.ts";
import { untimed } from "../support/untimed.ts";

const conversation = (turns = 12) => readOpenAIMessages(openAIConversation({ turns }));
const chars = { tokenizer: "chars" as const };

/** The error a call throws, or a failure if it does not throw a SafecutError. */
async function errorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(SafecutError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
}

describe("reported usage drives the trigger (L1 with usage)", () => {
  it("counted tokens below the threshold but a reported count above it: compacts, and every law holds", async () => {
    const input = conversation(20);
    const total = (await compactMessages(input, { ...chars, token_threshold: 10 ** 9 }, { dryRun: true })).report
      .tokensBefore;
    const threshold = counted(total) + 1000;
    const plain = await compactMessages(input, { ...chars, token_threshold: threshold });
    expect(plain.report.outcome).toBe("nothing-to-do");
    // the provider counted more than safecut does (tool definitions, its own tokenizer): the report decides
    // summarizing steps (clearing's carried report: test/engine/clearing.test.ts)
    const r = await compactMessages(
      input,
      { ...chars, token_threshold: threshold, strategy: "summarize" },
      { usage: { promptTokens: threshold + 5000 } },
    );
    expect(r.report.dueBefore).toBe(true);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.report.usage?.judgedTokensBefore).toBe(threshold + 5000);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("counted tokens above the threshold but a reported count below it: not due, nothing changes", async () => {
    const input = conversation(20);
    const plain = await compactMessages(input, { ...chars, token_threshold: 3000 });
    expect(plain.report.dueBefore).toBe(true);
    const r = await compactMessages(input, { ...chars, token_threshold: 3000 }, { usage: { promptTokens: 2000 } });
    expect(r.report.outcome).toBe("nothing-to-do");
    expect(r.report.dueBefore).toBe(false);
    expect(r.messages).toEqual(input);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("messages after the reported prefix are counted and added to the report", async () => {
    const input = conversation(20);
    const store = new ConversationStore(charCounter(), input);
    const view = store.view();
    const counts = store.tokenCounts();
    const k = input.length - 3;
    const after = counts.slice(k).reduce((a, b) => a + b, 0);
    const plan = planStep(view, parseConfig({ ...chars, token_threshold: 500 + after }), 0, 6, input.length, {
      reported: 500,
      end: k,
    });
    expect(plan.triggerTokens).toBe(500 + after);
    expect(plan.due).toBe(true);
    const notDue = planStep(view, parseConfig({ ...chars, token_threshold: 501 + after }), 0, 6, input.length, {
      reported: 500,
      end: k,
    });
    expect(notDue.due).toBe(false);
    expect(notDue.totalTokens).toBe(store.totalTokens);
  });

  it("after each step the report moves by exactly what the step changed", async () => {
    const input = conversation(30);
    const reported = 40_000;
    const r = await compactMessages(
      input,
      { ...chars, token_threshold: 30_000, strategy: "summarize" },
      { usage: { promptTokens: reported } },
    );
    expect(r.report.stretches.length).toBeGreaterThan(1);
    const u = r.report.usage;
    expect(u?.dropped).toBe(false);
    const change = r.report.stretches.reduce((a, s) => a - s.replacedTokens + s.summaryTokens, 0);
    // the report covered every message, so every stretch lay inside it
    expect(u?.judgedTokensAfter).toBe(reported + change);
    expect(r.report.tokensAfter).toBe(counted(r.report.tokensBefore) + change);
    expect(r.report.dueAfter).toBe((u?.judgedTokensAfter ?? 0) >= 30_000);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("a report smaller than the counted tokens a step takes out of it is dropped: the run counts from then on", async () => {
    const input = conversation(30);
    // due by messages; the report is far below what the counter finds in the first stretch
    const r = await compactMessages(
      input,
      { ...chars, token_threshold: null, message_threshold: 20 },
      { usage: { promptTokens: 10 } },
    );
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.report.usage?.dropped).toBe(true);
    expect(r.report.usage?.judgedTokensAfter).toBe(r.report.tokensAfter);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expectLawsHold(input, r.messages, 6, { before: r.report.tokensBefore, after: r.report.tokensAfter });
  });

  it("the usage setting works as the option does", async () => {
    const input = conversation(20);
    const byOption = await compactMessages(
      input,
      { ...chars, token_threshold: 3000 },
      { usage: { promptTokens: 2000 } },
    );
    const bySetting = await compactMessages(input, { ...chars, token_threshold: 3000, usage: { prompt_tokens: 2000 } });
    expect(untimed(bySetting.report)).toEqual(untimed(byOption.report));
  });

  it("compactStore takes the report in the store's messages", async () => {
    const input = conversation(20);
    const store = new ConversationStore(charCounter(), input);
    const r = await compactStore(store, parseConfig({ ...chars, token_threshold: 3000 }), {
      summarizer: offlineSummarizer(charCounter()),
      usage: { reported: 100, end: input.length },
    });
    expect(r.outcome).toBe("nothing-to-do");
    expect(r.usage?.judgedTokensBefore).toBe(100);
  });

  it("messages appended while summarizing are counted after the report (a rebased step)", async () => {
    const counter = charCounter();
    const input = conversation(20);
    const store = new ConversationStore(counter, input);
    const late = { role: "user" as const, content: "one more thing, and a long one ".repeat(20) };
    const off = offlineSummarizer(counter);
    let appended = false;
    const r = await compactStore(store, parseConfig({ ...chars, token_threshold: 3000, strategy: "summarize" }), {
      summarizer: {
        name: "appending",
        async summarize(req) {
          if (!appended) {
            store.append(late);
            appended = true;
          }
          return off.summarize(req);
        },
      },
      usage: { reported: 20_000, end: input.length },
    });
    expect(r.stretches[0].decision).toBe("rebase");
    expect(r.usage?.dropped).toBe(false);
    const change = r.stretches.reduce((a, s) => a - s.replacedTokens + s.summaryTokens, 0);
    const lateTokens = store.tokenCounts().at(-1) ?? 0;
    expect(store.messages.at(-1)).toBe(late);
    expect(r.usage?.judgedTokensAfter).toBe(20_000 + change + lateTokens);
  });

  it("an Anthropic report counts the file's own messages; the top-level system belongs to every prefix", () => {
    // engine messages 0 (top-level system), 1-2 (one Anthropic message with a tool result and text), 3
    const map = {
      items: 2,
      spans: [
        { first: 0, last: -1 },
        { first: 0, last: 0 },
        { first: 0, last: 0 },
        { first: 1, last: 1 },
      ],
    };
    const prefix = (messages: number) =>
      reportedPrefix({ usage: { promptTokens: 7, messages }, field: "usage", tokensField: "usage.prompt_tokens" }, map);
    expect(prefix(0)).toEqual({ reported: 7, end: 1 });
    expect(prefix(1)).toEqual({ reported: 7, end: 3 });
    expect(prefix(2)).toEqual({ reported: 7, end: 4 });
  });

  it("the Anthropic adapter takes the option", async () => {
    const conv = {
      system: "be brief",
      messages: Array.from({ length: 20 }, (_, i) => ({
        role: i % 2 === 0 ? "user" : "assistant",
        content: `message ${i} ${"word ".repeat(200)}`,
      })),
    };
    const notDue = await compactAnthropicMessages(conv, { ...chars, token_threshold: 100_000 });
    expect(notDue.report.dueBefore).toBe(false);
    const r = await compactAnthropicMessages(
      conv,
      { ...chars, token_threshold: 100_000 },
      { usage: { promptTokens: 150_000, messages: 20 } },
    );
    expect(r.report.dueBefore).toBe(true);
  });
});

describe("reported usage in items (AI SDK)", () => {
  const input = modelMessagesConversation({ turns: 6 });
  const judged = async (usage: unknown, config = {}) =>
    (
      await compactModelMessages(
        input,
        { token_threshold: 1, ...config },
        {
          dryRun: true,
          usage: usage as { promptTokens: number },
        },
      )
    ).report;
  it("the prefix counts the caller's items, however many engine messages they hold", async () => {
    const all = await judged({ promptTokens: 0, messages: input.length });
    expect(all.usage?.judgedTokensBefore).toBe(0);
    expect(all.dueBefore).toBe(false);
    const none = await judged({ promptTokens: 0, messages: 0 });
    expect(none.usage?.judgedTokensBefore).toBe(none.tokensBefore);
    // each item the prefix leaves out adds its counted tokens
    const last = await judged({ promptTokens: 0, messages: input.length - 1 });
    const tail = await judged({ promptTokens: 0, messages: input.length - 2 });
    expect(last.usage?.judgedTokensBefore).toBeGreaterThan(0);
    expect(last.usage?.judgedTokensBefore).toBeLessThan(tail.usage?.judgedTokensBefore ?? 0);
    expect(tail.usage?.judgedTokensBefore).toBeLessThan(counted(none.tokensBefore));
    // the setting is read in items too
    const bySetting = (
      await compactModelMessages(
        input,
        { token_threshold: 1, usage: { prompt_tokens: 0, messages: input.length - 1 } },
        {
          dryRun: true,
        },
      )
    ).report;
    expect(bySetting.usage).toEqual(last.usage);
  });
  it("a prefix longer than the items is refused naming the field", async () => {
    expect(await errorOf(() => judged({ promptTokens: 0, messages: input.length + 1 }))).toContain(
      "options.usage.messages",
    );
  });
});

describe("bad usage values name the field", () => {
  const input = conversation(4);
  const run = (usage: unknown) => () => compactMessages(input, chars, { usage: usage as { promptTokens: number } });
  it.each([
    [{ promptTokens: -1 }, "options.usage.promptTokens"],
    [{ promptTokens: 1.5 }, "options.usage.promptTokens"],
    [{ promptTokens: 2 ** 53 }, "options.usage.promptTokens"],
    [{ promptTokens: "100" }, "options.usage.promptTokens"],
    [{}, "options.usage.promptTokens"],
    [{ promptTokens: 1, messages: -2 }, "options.usage.messages"],
    [{ promptTokens: 1, messages: 0.5 }, "options.usage.messages"],
    [{ promptTokens: 1, messages: 99 }, "options.usage.messages"],
    [{ promptTokens: 1, tokens: 3 }, "options.usage.tokens"],
    [7, "options.usage"],
  ])("option %j", async (usage, field) => {
    expect(await errorOf(run(usage))).toContain(field);
  });
  it.each([
    [{ prompt_tokens: -1 }, "usage.prompt_tokens"],
    [{ prompt_tokens: 1.5 }, "usage.prompt_tokens"],
    [{ prompt_tokens: 2 ** 53 }, "usage.prompt_tokens"],
    [{ prompt_tokens: 1, messages: -1 }, "usage.messages"],
    [{ prompt_tokens: 1, messages: 99 }, "usage.messages"],
    [{ prompt_tokens: 1, extra: 1 }, "usage"],
  ])("setting %j", async (usage, field) => {
    expect(
      await errorOf(() => compactMessages(input, { ...chars, usage: usage as { prompt_tokens: number } })),
    ).toContain(field);
  });
  it("both the option and the setting", async () => {
    const msg = await errorOf(() =>
      compactMessages(input, { ...chars, usage: { prompt_tokens: 1 } }, { usage: { promptTokens: 1 } }),
    );
    expect(msg).toContain("options.usage");
  });
  // A summarizer that counts its calls: a refusal must come before the first.
  const countingSummarizer = () => {
    const offline = offlineSummarizer(charCounter());
    const s = {
      ...offline,
      calls: 0,
      summarize: (...a: Parameters<typeof offline.summarize>) => {
        s.calls++;
        return offline.summarize(...a);
      },
    };
    return s;
  };
  it.each([
    ["the report plus the counts after it pass 2^53 - 1", 2 ** 53 - 2, input.length - 1],
    ["a summary added to the report could pass 2^53 - 1 (the report covers every message)", 2 ** 53 - 2, undefined],
  ])(
    "a report too large: %s; refused naming options.usage.promptTokens before any summarizer call",
    async (_, promptTokens, messages) => {
      const summarizer = countingSummarizer();
      const msg = await errorOf(() =>
        compactMessages(
          input,
          { ...chars, token_threshold: 1000, retention_window: 1 },
          { summarizer, usage: messages === undefined ? { promptTokens } : { promptTokens, messages } },
        ),
      );
      expect(msg).toMatch(/^options\.usage\.promptTokens: /);
      expect(msg).toContain("2^53 - 1");
      expect(summarizer.calls).toBe(0);
    },
  );
  it("a report too large given as the usage setting names usage.prompt_tokens, before any summarizer call", async () => {
    const summarizer = countingSummarizer();
    const msg = await errorOf(() =>
      compactMessages(
        input,
        { ...chars, token_threshold: 1000, retention_window: 1, usage: { prompt_tokens: 2 ** 53 - 2 } },
        { summarizer },
      ),
    );
    expect(msg).toMatch(/^usage\.prompt_tokens: /);
    expect(summarizer.calls).toBe(0);
  });
  it("compactStore names a report too large by its own field, usage.reported (the library renames it)", async () => {
    const store = new ConversationStore(charCounter(), input);
    const msg = await errorOf(() =>
      compactStore(store, parseConfig({ ...chars, token_threshold: 1000, retention_window: 1 }), {
        summarizer: offlineSummarizer(charCounter()),
        usage: { reported: 2 ** 53 - 2, end: input.length },
      }),
    );
    expect(msg).toMatch(/^usage\.reported: /);
    expect(msg).toContain("2^53 - 1");
  });
  it("compactStore's report longer than the store", async () => {
    const store = new ConversationStore(charCounter(), input);
    const msg = await errorOf(() =>
      compactStore(store, parseConfig(chars), {
        summarizer: offlineSummarizer(charCounter()),
        usage: { reported: 1, end: input.length + 1 },
      }),
    );
    expect(msg).toContain("usage.end");
  });
});
