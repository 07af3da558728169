import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";
import { counted, expectLawsHold } from "../support/laws.ts";

const counter = charCounter();

// Random well-formed conversations: user turns, assistant text, assistant tool calls answered
// right away or (at the very end) left ongoing, earlier summaries.
type Event = { kind: "user" | "text" | "summary"; size: number } | { kind: "calls"; n: number; size: number };
const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("user" as const, "text" as const, "summary" as const),
    size: fc.integer({ min: 1, max: 200 }),
  }),
  fc.record({
    kind: fc.constant("calls" as const),
    n: fc.integer({ min: 1, max: 3 }),
    size: fc.integer({ min: 1, max: 400 }),
  }),
);

function build(events: Event[], ongoing: boolean): Message[] {
  const out: Message[] = [{ role: "system", content: "sys" }];
  let id = 0;
  for (const e of events) {
    if ("n" in e) {
      const ids = Array.from({ length: e.n }, () => `c${id++}`);
      out.push({
        role: "assistant",
        content: "",
        toolCalls: ids.map((i) => ({ id: i, name: "run", arguments: "{}" })),
      });
      for (const i of ids) out.push({ role: "tool", toolCallId: i, content: `out ${"t".repeat(e.size)}` });
    } else if (e.kind === "user") out.push({ role: "user", content: `ask ${"u".repeat(e.size)}` });
    else if (e.kind === "text") out.push({ role: "assistant", content: `say ${"a".repeat(e.size)}`, toolCalls: [] });
    else out.push({ role: "summary", content: `earlier ${"s".repeat(e.size)}` });
  }
  if (ongoing)
    out.push({ role: "assistant", content: "", toolCalls: [{ id: "pending", name: "run", arguments: "{}" }] });
  return out;
}

describe("compaction on random conversations", () => {
  it("every law's runtime counterpart holds, whatever the conversation and settings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 60 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 50, max: 3000 }),
        fc.option(fc.integer({ min: 1, max: 2000 }), { nil: null }),
        async (events, ongoing, window, threshold, keepRecent) => {
          const input = build(events, ongoing);
          const r = await compactMessages(input, {
            tokenizer: "chars",
            token_threshold: threshold,
            retention_window: window,
            keep_recent_tokens: keepRecent,
            max_tokens: 500,
          });
          expect(r.report.laws.filter((l) => !l.ok)).toEqual([]);
          expectLawsHold(input, r.messages, window);
          if (r.report.stretches.length > 0)
            expect(counted(r.report.tokensAfter)).toBeLessThan(counted(r.report.tokensBefore));
          else expect(r.messages).toEqual(input);
          if (ongoing) expect(r.messages.at(-1)).toBe(input.at(-1));
          const last = r.report.stretches.at(-1);
          if (keepRecent !== null && last !== undefined) {
            // L7: everything after the newest summary holds at least keep_recent_tokens
            const kept = r.messages.slice(last.start + 1).reduce((t, m) => t + messageTokens(counter, m), 0);
            expect(kept).toBeGreaterThanOrEqual(keepRecent);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
