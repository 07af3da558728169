import { describe, expect, it } from "vitest";
import { TokenLedger } from "../../src/engine/ledger.ts";
import type { Message } from "../../src/engine/message.ts";
import { ConversationStore } from "../../src/engine/store.ts";
import { bpeCounter, charCounter, MESSAGE_OVERHEAD, type TokenCounter } from "../../src/engine/tokens.ts";

/** Wraps a counter and counts the calls made to it and the characters it was shown. */
function spy(inner: TokenCounter): TokenCounter & { calls: number; chars: number } {
  const s = {
    name: inner.name, calls: 0, chars: 0,
    count(text: string) {
      s.calls++;
      s.chars += text.length;
      return inner.count(text);
    },
  };
  return s;
}

const msg = (i: number): Message => ({ role: i % 2 === 0 ? "user" : "assistant", content: `message number ${i} `.repeat(20), ...(i % 2 === 0 ? {} : { toolCalls: [] }) } as Message);

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
});
