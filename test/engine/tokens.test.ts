import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { TokenLedger } from "../../src/engine/store/ledger.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { InputError } from "../../src/model/errors.ts";
import { type Message, messageText } from "../../src/model/message.ts";
import {
  BPE_MAX_RUN,
  bpeCounter,
  bpePieces,
  charCounter,
  MESSAGE_OVERHEAD,
  messageTextLength,
  messageTokens,
  type TokenCounter,
} from "../../src/model/tokens.ts";

/** Wraps a counter and counts the calls made to it and the characters it was shown. */
function spy(inner: TokenCounter): TokenCounter & { calls: number; chars: number } {
  const s = {
    name: inner.name,
    calls: 0,
    chars: 0,
    count(text: string) {
      s.calls++;
      s.chars += text.length;
      return inner.count(text);
    },
  };
  return s;
}

const msg = (i: number): Message =>
  ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `message number ${i} `.repeat(20),
    ...(i % 2 === 0 ? {} : { toolCalls: [] }),
  }) as Message;

describe("token counting", () => {
  it("character heuristic is ceil(chars / 4)", () => {
    const c = charCounter();
    expect([c.count(""), c.count("a"), c.count("abcd"), c.count("abcde")]).toEqual([0, 1, 1, 2]);
  });

  it("BPE counts real tokens and treats special-token text as plain text", () => {
    const c = bpeCounter();
    expect(c.count("hello world")).toBe(2);
    expect(c.count("a <|endoftext|> b")).toBeGreaterThan(3);
  });

  it("appending a message costs one tokenizer call on that message only, never the history", () => {
    const counter = spy(bpeCounter());
    const ledger = new TokenLedger(counter);
    for (let i = 0; i < 200; i++) ledger.append(msg(i));
    expect(counter.calls).toBe(200);
    const before = { calls: counter.calls, chars: counter.chars, total: ledger.total };
    const next = msg(200);
    ledger.append(next);
    expect(counter.calls - before.calls).toBe(1);
    expect(counter.chars - before.chars).toBe(next.content.length);
    expect(ledger.total - before.total).toBe(bpeCounter().count(next.content) + MESSAGE_OVERHEAD);
  });

  it("the running total always equals a full recount, through appends and splices", () => {
    const counter = spy(charCounter());
    const ledger = new TokenLedger(counter);
    const msgs: Message[] = [];
    for (let i = 0; i < 50; i++) {
      msgs.push(msg(i));
      ledger.append(msg(i));
    }
    const calls = counter.calls;
    const summary: Message = { role: "summary", content: "short" };
    ledger.splice(3, 20, summary);
    msgs.splice(3, 17, summary);
    expect(counter.calls - calls).toBe(1); // only the summary is counted
    const recount = msgs.reduce((s, m) => s + charCounter().count(m.content) + MESSAGE_OVERHEAD, 0);
    expect(ledger.total).toBe(recount);
    expect(ledger.perMessage().length).toBe(msgs.length);
  });

  it("a store's append is incremental too", () => {
    const counter = spy(charCounter());
    const store = new ConversationStore(counter, [msg(0), msg(1)]);
    const calls = counter.calls;
    store.append(msg(2));
    expect(counter.calls - calls).toBe(1);
    expect(store.version).toBe(1);
  });

  describe("long unbroken runs are counted in pieces (linear cost, bounded error)", () => {
    /** A deterministic string of n code points drawn from an alphabet. */
    function draw(alphabet: string, n: number, seed: number): string {
      const chars = [...alphabet];
      let x = seed >>> 0;
      let out = "";
      for (let i = 0; i < n; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        out += chars[(x >>> 16) % chars.length];
      }
      return out;
    }
    const exact = (text: string) => countTokens(text, { disallowedSpecial: new Set<string>() });
    const runs: Record<string, (n: number, seed: number) => string> = {
      dna: (n, s) => draw("acgt", n, s),
      fill: (n) => "a".repeat(n),
      identifiers: (n, s) => draw("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_", n, s),
      cjk: (n, s) => draw("的一是不了人我在有他这为之大来以个中上们", n, s),
      devanagari: (n, s) => draw("कखगघचछजझटठडढतथदधनपफबभमयरलवशसह", n, s),
      emoji: (n, s) => draw("😀🎉👍", n / 2, s),
      punctuation: (n, s) => draw("-=*#~.,;", n, s),
      dashes: (n) => "-".repeat(n),
      digits: (n, s) => draw("0123456789", n, s),
      base64: (n, s) => draw("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", n, s),
      spaces: (n) => " ".repeat(n),
      newlines: (n) => "\n".repeat(n),
      "mixed whitespace": (n, s) => draw(" \t\n", n, s),
    };

    it("the pieces put back together are the text, and no piece splits a surrogate pair", () => {
      for (const [name, run] of Object.entries(runs)) {
        for (const offset of [0, 1]) {
          const text = `${"x".repeat(offset)} ${run(3 * BPE_MAX_RUN + 7, 5)}`;
          const pieces = bpePieces(text);
          expect(pieces.join(""), name).toBe(text);
          for (const p of pieces) {
            expect(p.length, name).toBeGreaterThan(0);
            expect(/^[\udc00-\udfff]/.test(p) || /[\ud800-\udbff]$/.test(p), name).toBe(false);
          }
        }
      }
    });

    it("text without a run longer than the bound is one piece, so its count is exact", () => {
      const prose = draw("abcdefghij klmnop qrstuv wxyz ,.\n", 20_000, 3);
      const words = `${"w".repeat(BPE_MAX_RUN)} `.repeat(10);
      for (const text of [prose, words, "a".repeat(BPE_MAX_RUN)]) {
        expect(bpePieces(text)).toEqual([text]);
        expect(bpeCounter().count(text)).toBe(exact(text));
      }
    });

    it("a text with long runs counts within 2 tokens per cut of the exact count", () => {
      for (const [name, run] of Object.entries(runs)) {
        for (const seed of [1, 2]) {
          const text = `before ${run(6_000, seed)} after`;
          const cuts = bpePieces(text).length - 1;
          expect(cuts, name).toBeGreaterThanOrEqual(10);
          const diff = bpeCounter().count(text) - exact(text);
          expect(Math.abs(diff), `${name}: ${diff} over ${cuts} cuts`).toBeLessThanOrEqual(2 * cuts);
        }
      }
    });

    it("counting is deterministic: the same text always gets the same count", () => {
      const text = `${runs.dna(5_000, 9)} ${runs.cjk(2_000, 4)}`;
      expect(bpeCounter().count(text)).toBe(bpeCounter().count(text));
    });
  });
});

// The kernel sums token counts; doubles do that exactly only up to 2^53 - 1 (src/engine/boundary/exact.ts).
// The store keeps its total there, so a conversation it holds always passes the kernel gate.
describe("the store keeps the conversation's token total <= 2^53 - 1", () => {
  /** Counts a text as the number written in it ("huge" for 2^52), plus nothing else. */
  const numeric: TokenCounter = { name: "chars", count: (t) => (t === "huge" ? 2 ** 52 : t.length) };
  const said = (content: string): Message => ({ role: "user", content });

  it("an append that would pass the bound is refused, naming the message, and changes nothing", () => {
    const store = new ConversationStore(numeric, [said("huge")]);
    const before = { total: store.totalTokens, length: store.messages.length, version: store.version };
    expect(() => store.append(said("huge"))).toThrow(InputError);
    expect(() => store.append(said("huge"))).toThrow("messages[1]");
    expect({ total: store.totalTokens, length: store.messages.length, version: store.version }).toEqual(before);
    store.append(said("ok"));
    expect(store.totalTokens).toBe(2 ** 52 + 2 + 2 * MESSAGE_OVERHEAD);
  });

  it("a conversation over the bound is refused when the store is built", () => {
    expect(() => new ConversationStore(numeric, [said("huge"), said("huge")])).toThrow("messages[1]");
  });

  it("a committed summary that would pass the bound is refused, naming it, and changes nothing", () => {
    const store = new ConversationStore(numeric, [
      said("huge"),
      { role: "assistant", content: "a", toolCalls: [] },
      said("b"),
    ]);
    const view = store.view();
    const before = { total: store.totalTokens, messages: store.messages.slice() };
    expect(() => store.commitSplice(view, 1, 2, { role: "summary", content: "huge" })).toThrow("summary");
    expect({ total: store.totalTokens, messages: store.messages.slice() }).toEqual(before);
    expect(store.commitSplice(view, 1, 2, { role: "summary", content: "s" }).decision).toBe("commit");
  });
});

describe("the character heuristic counts a message without building its text", () => {
  const str = fc.string({ maxLength: 6 });
  const call = fc.record({ id: str, name: str, arguments: str });
  const message = fc.oneof(
    fc.record({
      role: fc.constant("assistant" as const),
      content: fc.oneof(fc.constant(""), str),
      toolCalls: fc.array(call, { maxLength: 4 }),
    }),
    fc.record({ role: fc.constantFrom("user" as const, "system" as const, "summary" as const), content: str }),
    fc.record({ role: fc.constant("tool" as const), content: str, toolCallId: str }),
  );

  it("messageTextLength(m) is messageText(m).length, and messageTokens agrees with counting the text", () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(messageTextLength(m)).toBe(messageText(m).length);
        expect(messageTokens(charCounter(), m)).toBe(charCounter().count(messageText(m)) + MESSAGE_OVERHEAD);
      }),
      { numRuns: 2_000 },
    );
  });
});
