// What a run pays for: the low-water target (a due run compacts down to target_percent of the
// trigger, or target_tokens), the floor (min_stretch_tokens: no call for a stretch no useful
// summary of which is shorter), and the memory of stretches known not to shrink (no second call
// for one while it is unchanged; moved along by splices; dropped when the stretch changes).
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { targetTokens } from "../../src/engine/run/plan.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { UnshrinkableMemory } from "../../src/engine/store/unshrinkable.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { ConfigError } from "../../src/model/errors.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { counting } from "../support/counting-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import { expectLawsHold } from "../support/laws.ts";

const conversation = (turns: number) => readOpenAIMessages(openAIConversation({ turns }));
// summarizing only: these tests are about the summarize path (a clearing run before it has its own)
const chars = { tokenizer: "chars" as const, strategy: "summarize" as const };

// the only stretch the kernel may take is a two-word reply: no summary of it is shorter
const twoWords: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "first question ".repeat(20) },
  { role: "assistant", content: "Hello there", toolCalls: [] },
  { role: "user", content: "second question ".repeat(20) },
];
// a trigger under the user messages alone (the lawful floor): every call runs, as these tests need
const underFloor = { floor_free_tokens: 1, floor_run_every: 1 };
const tight = { ...chars, token_threshold: 50, retention_window: 1, ...underFloor };

describe("low-water target", () => {
  it("a due run compacts down to target_percent of the trigger, not just under it", async () => {
    const input = conversation(30);
    const atTrigger = await compactMessages(input, { ...chars, token_threshold: 20_000, target_percent: 100 });
    const low = await compactMessages(input, { ...chars, token_threshold: 20_000, target_percent: 50 });
    expect(atTrigger.report.outcome).toBe("compacted");
    expect(low.report.outcome).toBe("compacted");
    expect(atTrigger.report.tokensAfter).toBeGreaterThan(10_000);
    expect(low.report.tokensAfter).toBeLessThanOrEqual(10_000);
    // the user's word for it is the setting's: target (issue 34: one name per concept), never the kernel's "low-water"
    expect(low.report.reason).toContain("the target (10000 tokens)");
    expect(low.report.reason).not.toContain("low-water");
    expect(low.report.stretches.length).toBeGreaterThan(atTrigger.report.stretches.length);
    expectLawsHold(input, low.messages, 6, { before: low.report.tokensBefore, after: low.report.tokensAfter });
  });

  it("target_tokens wins over target_percent; without a token threshold the target is a share of the window", () => {
    expect(targetTokens(parseConfig({ token_threshold: 8000, target_percent: 50, target_tokens: 1234 }))).toBe(1234);
    expect(targetTokens(parseConfig({ token_threshold: 8000, target_percent: 25 }))).toBe(2000);
    expect(
      targetTokens(
        parseConfig({ token_threshold: null, context_window: 20_000, reserve_tokens: 4000, target_percent: 50 }),
      ),
    ).toBe(8000);
    expect(targetTokens(parseConfig({ token_threshold: null, message_threshold: 10 }))).toBeUndefined();
  });

  it("a run that is not due starts nothing, however far above the target", async () => {
    const s = counting();
    const r = await compactMessages(
      conversation(30),
      { ...chars, token_threshold: 1e9, target_tokens: 1 },
      { summarizer: s },
    );
    expect(r.report.outcome).toBe("nothing-to-do");
    expect(s.requests).toHaveLength(0);
  });

  it("target_percent is a whole number from 1 to 100", () => {
    expect(() => parseConfig({ target_percent: 0 })).toThrow(ConfigError);
    expect(() => parseConfig({ target_percent: 101 })).toThrow(/target_percent.*at most 100/);
  });
});

describe("floor and memory of stretches that cannot shrink", () => {
  it("a stretch at or below min_stretch_tokens is never sent: a due run with nothing else makes no call", async () => {
    const s = counting();
    const r = await compactMessages(twoWords, tight, { summarizer: s });
    expect(s.requests).toHaveLength(0);
    expect(r.report.outcome).toBe("still-due");
    expect(r.report.reason).toContain("min_stretch_tokens");
    expect(r.messages).toEqual(twoWords);
  });

  it("a stretch whose summary was not shorter is not tried again while unchanged, and is once it changes", async () => {
    const memory = new UnshrinkableMemory();
    const noFloor = { ...tight, min_stretch_tokens: 0 };
    const first = counting();
    const r1 = await compactMessages(twoWords, noFloor, { summarizer: first, unshrinkable: memory });
    expect(first.requests.length).toBeGreaterThan(0);
    expect(r1.report.skipped).toHaveLength(1);
    expect(memory.size).toBe(1);
    // the same conversation plus an appended message: the stretch is known, no call
    const again = counting();
    const grown: Message[] = [...r1.messages, { role: "assistant", content: "ok", toolCalls: [] }];
    const r2 = await compactMessages(grown, noFloor, { summarizer: again, unshrinkable: memory });
    expect(again.requests).toHaveLength(0);
    expect(r2.report.outcome).toBe("still-due");
    // the stretch changed: worth a call again
    const changed = counting();
    const edited = grown.map((m, i) => (i === 2 ? { ...m, content: "Hello there, friend" } : m));
    await compactMessages(edited, noFloor, { summarizer: changed, unshrinkable: memory });
    expect(changed.requests.length).toBeGreaterThan(0);
  });

  it("a splice before a recorded stretch moves the record with it; one over it drops it", () => {
    const msgs = conversation(6);
    const store = new ConversationStore(charCounter(), msgs, {});
    const at = msgs.length - 2;
    store.unshrinkable.add(at, at + 1, msgs.slice(at, at + 1));
    // replace messages 2..4 (three messages) by one summary: the record moves back by two
    const userAt = msgs.findIndex((m, i) => i > 1 && m.role === "user");
    expect(userAt).toBeGreaterThan(2);
    store.commitSplice(store.view(), 2, userAt, summaryMessage("earlier work"));
    const shift = userAt - 2 - 1;
    expect(store.unshrinkable.bounds(store.messageList())).toEqual({ starts: [at - shift], ends: [at - shift + 1] });
    store.commitSplice(store.view(), at - shift, at - shift + 1, summaryMessage("x"));
    expect(store.unshrinkable.bounds(store.messageList())).toEqual({ starts: [], ends: [] });
  });
});
