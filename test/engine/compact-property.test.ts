import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { buildConversation, event } from "../support/event-conversations.ts";
import { counted, expectLawsHold } from "../support/laws.ts";

const counter = charCounter();

/** A message as it reads without a summary's marker (what a run may learn of a summary it does not replace). */
function withoutMarker(m: Message): Message {
  return m.role === "summary" ? summaryMessage(m.content) : m;
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
          const input = buildConversation(events, ongoing);
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
          // nothing summarized: the input's messages, but for what the run learnt of a summary (its
          // marker, e.g. that it cannot shrink: the memory that travels with the conversation)
          else expect(r.messages.map(withoutMarker)).toEqual(input.map(withoutMarker));
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

  it("a run never ages again a summary it wrote, whatever the conversation and target", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 60 }),
        fc.integer({ min: 50, max: 3000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 64 }),
        async (events, threshold, target, floor) => {
          const input = buildConversation(events);
          // the offline summarizer, recording what each call re-summarizes and what it answered
          const inner = offlineSummarizer(counter);
          const written = new Set<string>();
          const again: string[] = [];
          const ask = (parts: readonly SummaryRequest[]) => {
            // an aging request: one summary, nothing else (its text is the summary it continues)
            for (const p of parts)
              if (p.stretch.length === 0 && p.previousSummary !== undefined && written.has(p.previousSummary))
                again.push(p.previousSummary);
          };
          const summarizer: Summarizer = {
            name: "recording offline",
            summarize: async (r) => {
              ask([r]);
              const out = await inner.summarize(r);
              written.add(out);
              return out;
            },
            summarizeBatch: async (r) => {
              ask(r.parts);
              const out = await Promise.all(r.parts.map((p) => inner.summarize(p)));
              for (const x of out) written.add(x);
              return out;
            },
          };
          const r = await compactMessages(
            input,
            {
              tokenizer: "chars",
              strategy: "summarize",
              token_threshold: threshold,
              target_percent: target,
              age_share_percent: 0,
              age_floor_tokens: floor,
              min_stretch_tokens: floor,
              retention_window: 2,
            },
            { summarizer },
          );
          expect(again).toEqual([]);
          expect(r.report.laws.filter((l) => !l.ok)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
