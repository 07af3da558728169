// The prompt-cache bill of bench:loop (bench/loop/cache-bill.ts): an appended context is read from
// the cache; a change re-writes what follows it (Anthropic: from the last entry a breakpoint
// reaches; OpenAI: from the last whole block before it), and a breakpoint before the change keeps
// the prefix in the cache.
import { describe, expect, it } from "vitest";
import { CacheMeter, firstChange, PRICE } from "../../bench/loop/cache-bill.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";

/** A message of exactly `tokens` tokens by the character heuristic (its content; the role adds none). */
const msg = (i: number, tokens: number): Message => {
  const content = String(i).padEnd(4 * tokens - 4, "x");
  return i % 2 === 0 ? { role: "user", content } : { role: "assistant", content, toolCalls: [] };
};

const context = (n: number, tokens = 1000) => Array.from({ length: n }, (_, i) => msg(i, tokens));
const tokensOf = (ms: readonly Message[]) => ms.reduce((a, m) => a + messageTokens(charCounter(), m), 0);

describe("the prompt-cache bill", () => {
  it("bills an appended context's earlier prefix as a cached read (both styles)", () => {
    for (const style of ["anthropic", "openai"] as const) {
      const meter = new CacheMeter(style);
      meter.send(context(4));
      const first = meter.totals.bill;
      meter.send(context(6));
      const second = meter.totals.bill - first;
      // the 4 messages sent before are read at 0.1x (OpenAI: in whole 128-token blocks); the 2 new ones at 1.25x (written) or 1x
      const old = tokensOf(context(4));
      const cached = style === "openai" ? Math.floor(old / 128) * 128 : old;
      const fresh = tokensOf(context(6)) - cached;
      expect(second).toBeCloseTo(PRICE.read * cached + (style === "anthropic" ? PRICE.write : 1) * fresh, 6);
      expect(meter.totals.busts).toBe(0);
    }
  });

  it("re-writes after a change; a breakpoint before it keeps the prefix (Anthropic)", () => {
    // a change 30 messages from the end: beyond the look-back of the breakpoint on the last message
    const changed = [...context(50, 200).slice(0, 19), msg(99, 50), ...context(50, 200).slice(20)];
    const plain = new CacheMeter("anthropic");
    const marked = new CacheMeter("anthropic");
    for (const m of [plain, marked]) for (let n = 2; n <= 48; n += 2) m.send(context(n, 200));
    const before = plain.totals.bill;
    expect(marked.totals.bill).toBe(before);
    const next = changed;
    const at = firstChange(context(50, 200), next);
    expect(at).toBe(19);
    plain.send(next);
    marked.send(next, [at - 1]);
    expect(plain.totals.busts).toBe(1);
    expect(marked.totals.busts).toBe(1);
    // the marked request reads the 18 messages the request of 18 wrote; the plain one reads nothing
    expect(plain.totals.rewritten).toBe(tokensOf(next));
    expect(marked.totals.rewritten).toBe(tokensOf(next) - tokensOf(next.slice(0, 18)));
    expect(marked.totals.bill - before).toBeLessThan(plain.totals.bill - before);
  });

  it("refuses more than four breakpoints", () => {
    const meter = new CacheMeter("anthropic");
    const ms = [{ role: "system", content: "s".repeat(8000) } as Message, ...context(10)];
    expect(() => meter.send(ms, [2, 4, 6])).toThrow(/four/);
  });
});
