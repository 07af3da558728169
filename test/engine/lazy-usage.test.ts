// Lazy counting with reported usage: the messages a provider's report covers are counted only
// when a decision needs their counts (a plan, the keep-recent suffix, the report's totals). A
// run that is not due counts none of them; a run that is due decides exactly as one that counted
// every message at load.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { InputError } from "../../src/model/errors.ts";
import { type Message, messageText } from "../../src/model/message.ts";
import { MESSAGE_OVERHEAD, messageTokens, type TokenCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { buildConversation, event } from "../support/event-conversations.ts";
import { untimed } from "../support/untimed.ts";

/** A chars/4 counter that records every text it is asked to count. */
function recordingCounter(): TokenCounter & { seen: string[] } {
  const seen: string[] = [];
  const count = (text: string) => {
    seen.push(text);
    return Math.ceil(text.length / 4);
  };
  return { name: "chars", seen, count };
}

/** A conversation of n messages whose texts are all distinct (so a count names its message). */
function conversation(n: number): Message[] {
  const out: Message[] = [{ role: "system", content: "system prompt 0" }];
  for (let i = 1; out.length < n; i++) {
    out.push({ role: "user", content: `question ${i} ${"q".repeat(i % 50)}` });
    out.push({ role: "assistant", content: `answer ${i} ${"a".repeat((i * 7) % 90)}`, toolCalls: [] });
  }
  return out.slice(0, n);
}

const settings = (tokenThreshold: number, keepRecent: number | null = null) =>
  ({
    tokenizer: "chars",
    token_threshold: tokenThreshold,
    retention_window: 4,
    keep_recent_tokens: keepRecent,
  }) as const;

describe("a report covering the conversation spares counting it", () => {
  it("a not-due dry run with usage covering every message counts none of them", async () => {
    const input = conversation(40);
    const counter = recordingCounter();
    const r = await compactMessages(input, settings(10_000), {
      dryRun: true,
      counter,
      usage: { promptTokens: 500 },
    });
    expect(r.report.outcome).toBe("nothing-to-do");
    expect(counter.seen).toEqual([]);
    // nothing counted: the report says so rather than give a number that was not computed
    expect(r.report.tokensBefore).toBeNull();
    expect(r.report.tokensAfter).toBeNull();
    expect(r.report.usage?.judgedTokensBefore).toBe(500);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expect(r.messages).toEqual(input);
  });

  it("with keep_recent_tokens set (a plan would read every count) a not-due run still counts none", async () => {
    const input = conversation(40);
    const counter = recordingCounter();
    const r = await compactMessages(input, settings(10_000, 200), { counter, usage: { promptTokens: 500 } });
    expect(r.report.outcome).toBe("nothing-to-do");
    expect(counter.seen).toEqual([]);
  });

  it("a report covering a prefix: only the messages after it are counted", async () => {
    const input = conversation(40);
    const counter = recordingCounter();
    const r = await compactMessages(input, settings(10_000), { counter, usage: { promptTokens: 500, messages: 30 } });
    expect(r.report.outcome).toBe("nothing-to-do");
    expect(counter.seen).toEqual(input.slice(30).map(messageText));
    const after = input.slice(30).reduce((t, m) => t + messageTokens(counter, m), 0);
    expect(r.report.usage?.judgedTokensBefore).toBe(500 + after);
  });

  it("when due, the prefix is counted and the run equals one without usage laziness", async () => {
    const input = conversation(60);
    const counter = recordingCounter();
    const lazy = await compactMessages(input, settings(1_000, 100), {
      counter,
      usage: { promptTokens: 5_000, messages: 50 },
    });
    expect(lazy.report.dueBefore).toBe(true);
    // each message counted once (the summaries are counted as they are made)
    for (const m of input) expect(counter.seen).toContain(messageText(m));
    const store = new ConversationStore(recordingCounter(), input);
    const eager = await compactStore(store, parseConfig(settings(1_000, 100)), {
      summarizer: offlineSummarizer(recordingCounter()),
      usage: { reported: 5_000, end: 50 },
    });
    expect(lazy.report.tokensBefore).toBe(eager.tokensBefore);
    // compactStore checks the laws as compactMessages does
    expect(untimed(lazy.report)).toEqual(untimed({ ...eager, summarizer: lazy.report.summarizer }));
    expect(lazy.messages).toEqual(store.messageList());
  });
});

describe("the store's lazy ledger", () => {
  const counter = recordingCounter();
  const input = conversation(30);
  const eager = () => new ConversationStore(counter, input);
  const lazy = (k = input.length) => new ConversationStore(counter, input, { uncounted: k });

  it("counts nothing at load for the uncounted prefix, everything on first demand, and agrees with an eager store", () => {
    counter.seen.length = 0;
    const s = lazy(20);
    expect(counter.seen).toEqual(input.slice(20).map(messageText));
    expect(s.uncounted).toBe(20);
    expect(s.totalTokens).toBe(eager().totalTokens);
    expect(s.uncounted).toBe(0);
    expect(lazy().tokenCounts()).toEqual(eager().tokenCounts());
    expect(lazy().snapshot()).toEqual(eager().snapshot());
  });

  it("a view's counts after the uncounted part are read without counting it; one before it counts the rest", () => {
    counter.seen.length = 0;
    const s = lazy();
    const tokens = s.view().tokens;
    expect(counter.seen).toEqual([]);
    expect(tokens.length).toBe(input.length);
    const expected = eager().tokenCounts();
    counter.seen.length = 0;
    expect(tokens[25]).toBe(expected[25]);
    expect(counter.seen).toEqual(input.slice(25).map(messageText));
    expect(s.uncounted).toBe(25);
    expect(tokens[3]).toBe(expected[3]);
    expect(s.uncounted).toBe(3);
    expect([...s.view().tokens]).toEqual(eager().tokenCounts());
    expect(s.view().totalTokens).toBe(eager().totalTokens);
  });

  it("appends are counted at once and the uncounted part stays uncounted", () => {
    const s = lazy();
    counter.seen.length = 0;
    const m: Message = { role: "user", content: "one more" };
    s.append(m);
    expect(counter.seen).toEqual([messageText(m)]);
    expect(s.uncounted).toBe(input.length);
    const e = eager();
    e.append(m);
    expect(s.tokenCounts()).toEqual(e.tokenCounts());
    expect(s.totalTokens).toBe(e.totalTokens);
  });

  it("a total past 2^53 - 1 is refused when the uncounted part is counted, naming the same message, changing nothing", () => {
    const big: TokenCounter = { name: "chars", count: (t) => (t.startsWith("huge") ? 2 ** 52 : 1) };
    const ms: Message[] = [
      { role: "user", content: "huge 1" },
      { role: "assistant", content: "huge 2", toolCalls: [] },
      { role: "user", content: "small" },
    ];
    const eagerError = (() => {
      try {
        new ConversationStore(big, ms);
      } catch (e) {
        return e;
      }
    })();
    expect(eagerError).toBeInstanceOf(InputError);
    const s = new ConversationStore(big, ms, { uncounted: 3 });
    expect(() => s.totalTokens).toThrow((eagerError as Error).message);
    expect(s.uncounted).toBe(3);
    expect(() => s.tokenCounts()).toThrow((eagerError as Error).message);
    expect(1 + MESSAGE_OVERHEAD).toBe(messageTokens(big, ms[2]));
  });

  it("refuses an uncounted prefix longer than the conversation", () => {
    expect(() => new ConversationStore(counter, input, { uncounted: input.length + 1 })).toThrow(InputError);
    expect(() => new ConversationStore(counter, input, { uncounted: -1 })).toThrow(InputError);
  });
});

/** The report without the totals a lazy run may leave uncounted. */
// the counted totals (and L8's detail, which quotes them) are what a lazy store may leave uncounted
const decisions = (r: CompactionReport) => ({
  ...untimed(r),
  tokensBefore: 0,
  tokensAfter: 0,
  laws: r.laws.map((l) => (l.law === "L8" ? { ...l, detail: "" } : l)),
});

describe("lazy and eager stores decide alike", () => {
  it("same plan, report and messages for random conversations, prefixes, thresholds and dry runs", async () => {
    const counter: TokenCounter = { name: "chars", count: (t) => Math.ceil(t.length / 4) };
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 50 }),
        fc.nat(),
        fc.nat({ max: 6000 }),
        fc.integer({ min: 50, max: 4000 }),
        fc.option(fc.integer({ min: 1, max: 1500 }), { nil: null }),
        fc.boolean(),
        async (events, endSeed, reported, threshold, keepRecent, dryRun) => {
          const input = buildConversation(events);
          const end = endSeed % (input.length + 1);
          const c = parseConfig({
            tokenizer: "chars",
            token_threshold: threshold,
            retention_window: 3,
            keep_recent_tokens: keepRecent,
            max_tokens: 500,
          });
          const run = async (store: ConversationStore) => ({
            report: await compactStore(store, c, {
              summarizer: offlineSummarizer(counter),
              usage: { reported, end },
              dryRun,
            }),
            messages: store.messageList(),
          });
          const eager = await run(new ConversationStore(counter, input));
          const lazyStore = new ConversationStore(counter, input, { uncounted: input.length });
          const lazy = await run(lazyStore);
          expect(decisions(lazy.report)).toEqual(decisions(eager.report));
          expect(lazy.messages).toEqual(eager.messages);
          if (lazy.report.tokensBefore === null) {
            // left uncounted only when nothing needed it: a run that was not due
            expect(lazy.report.dueBefore).toBe(false);
            expect(lazy.report.tokensAfter).toBeNull();
            expect(lazyStore.uncounted).toBeGreaterThan(0);
          } else {
            expect(lazy.report.tokensBefore).toBe(eager.report.tokensBefore);
            expect(lazy.report.tokensAfter).toBe(eager.report.tokensAfter);
          }
          // whatever the run left uncounted, the store's counts are the eager ones when asked
          expect(lazyStore.tokenCounts()).toEqual(new ConversationStore(counter, lazy.messages).tokenCounts());
        },
      ),
      { numRuns: 200 },
    );
  });
});
