// How a run ends, as a user sees it (issue 19): a stretch no summary can shorten is not a
// summarizer failure; compactStore checks the laws as compactMessages does; compactStore refuses
// settings that are not a valid configuration with a ConfigError naming the setting.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Config } from "../../src/model/config.ts";
import { ConfigError } from "../../src/model/errors.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";

// the only stretch the kernel may take is a two-word reply: no summary of it is shorter
const twoWords: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "first question ".repeat(20) },
  { role: "assistant", content: "Hello there", toolCalls: [] },
  { role: "user", content: "second question ".repeat(20) },
];
// no floor: these stretches are sent to the summarizer (the default min_stretch_tokens passes them over)
// a trigger under the user messages alone (the lawful floor): every call runs, as these tests need
const underFloor = { floor_free_tokens: 1, floor_run_every: 1 };
const tight = {
  token_threshold: 50,
  retention_window: 1,
  tokenizer: "chars" as const,
  min_stretch_tokens: 0,
  ...underFloor,
};

describe("a stretch no summary can shorten", () => {
  it("does not count toward max_rejected_summaries: six two-word replies in a row, then a long one, and the long one is summarized", async () => {
    const turns: Message[] = [{ role: "system", content: "You are terse." }];
    for (let k = 0; k < 6; k++)
      turns.push(
        { role: "user", content: `question ${k} `.repeat(20) },
        { role: "assistant", content: "Hello there", toolCalls: [] },
      );
    turns.push(
      { role: "user", content: "last question ".repeat(20) },
      { role: "assistant", content: "a long answer with many words in it ".repeat(40), toolCalls: [] },
      { role: "user", content: "thanks" },
    );
    const r = await compactMessages(turns, { ...tight, max_rejected_summaries: 4 });
    // each small reply is left as it is (not shorter), and the run goes on past the six of them
    expect(r.report.skipped).toHaveLength(6);
    expect(r.report.stretches).toHaveLength(1);
    expect(r.report.outcome).not.toBe("degraded");
  });

  it("leaves the run still due with the tokens located, not degraded by a summarizer failure", async () => {
    const r = await compactMessages(twoWords, tight);
    expect(r.report.outcome).toBe("still-due");
    expect(r.report.reason).not.toMatch(/summarizer failure|could be summarized/);
    expect(r.report.reason).toContain("no summary of it was shorter");
    expect(r.report.skipped).toHaveLength(1);
    expect(r.report.skipped[0].reason).toContain("is not shorter than what it replaces");
    expect(r.report.remaining).toBeDefined();
    expect(r.messages).toEqual(twoWords);
  });

  it("exits 5 (still due) from the CLI, not 3 (summarizer failure)", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "two.json"),
      JSON.stringify({ messages: twoWords.map(({ role, content }) => ({ role, content })) }),
    );
    const r = await runInProcess(
      [
        "compact",
        "two.json",
        "--token-threshold",
        "50",
        "--retention-window",
        "1",
        "--tokenizer",
        "chars",
        "--min-stretch-tokens",
        "0",
      ],
      { cwd: dir },
    );
    expect(r.stderr).not.toContain("summarizer failure");
    expect(r.code).toBe(5);
  });

  it("is still a failure when a summary is rejected for another reason and nothing was replaced", async () => {
    const r = await compactMessages(twoWords, tight, {
      summarizer: { name: "empty", summarize: async () => "   " },
    });
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toContain("the summary is empty");
  });
});

describe("compactStore", () => {
  const input = readOpenAIMessages(openAIConversation({ turns: 20 }));
  const settings = { token_threshold: 3000, tokenizer: "chars" as const };

  it("returns the same law checks as compactMessages", async () => {
    const viaLibrary = await compactMessages(input, settings);
    const store = new ConversationStore(charCounter(), input);
    const report = await compactStore(store, parseConfig(settings), { summarizer: offlineSummarizer(charCounter()) });
    expect(report.stretches.length).toBeGreaterThan(0);
    expect(report.laws.map((l) => l.law)).toEqual(["L1", "L2", "L3", "L5", "L6", "L8"]);
    expect(report.laws.every((l) => l.ok)).toBe(true);
    expect(report.laws).toEqual(viaLibrary.report.laws);
  });

  it("checks the laws against the messages before the run plus those appended while it ran", async () => {
    const store = new ConversationStore(charCounter(), input);
    const offline = offlineSummarizer(charCounter());
    let appended = 0;
    const report = await compactStore(store, parseConfig(settings), {
      summarizer: {
        name: "appending",
        summarize: async (r) => {
          // the agent keeps talking while the summary is written
          store.append({ role: "user", content: `follow-up ${appended++}` });
          return offline.summarize(r);
        },
      },
    });
    expect(appended).toBeGreaterThan(0);
    expect(report.stretches.some((s) => s.decision === "rebase")).toBe(true);
    expect(report.laws.map((l) => [l.law, l.ok])).toEqual([
      ["L1", true],
      ["L2", true],
      ["L3", true],
      ["L5", true],
      ["L6", true],
      ["L8", true],
    ]);
  });

  it("refuses raw settings with a ConfigError naming a setting they lack, not a boundary error", async () => {
    const store = new ConversationStore(charCounter(), input);
    const run = () =>
      compactStore(store, { token_threshold: 50 } as unknown as Config, {
        summarizer: offlineSummarizer(charCounter()),
      });
    await expect(run()).rejects.toThrow(ConfigError);
    await expect(run()).rejects.toThrow("max_tokens: missing: not a parsed configuration");
    expect(store.messageList()).toEqual(input);
  });

  it("refuses a configuration whose value the kernel rejects (L12), naming the setting", async () => {
    const store = new ConversationStore(charCounter(), input);
    const bad = { ...parseConfig(settings), token_threshold: -5 };
    const run = () => compactStore(store, bad, { summarizer: offlineSummarizer(charCounter()) });
    await expect(run()).rejects.toThrow(ConfigError);
    await expect(run()).rejects.toThrow("token_threshold");
  });
});
