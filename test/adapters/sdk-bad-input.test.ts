// The bad-input corpus for the AI SDK and Responses adapters: generated histories (typed with
// the packages' own types) broken by the corpus's generic corruptions (fields deleted, replaced
// by junk, ids copied onto other ids). Every case must end in an InputError naming the item and
// field, or a compaction whose law checks pass; the deep-frozen input is never touched.
import type { ModelMessage } from "ai";
import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Json } from "../../src/model/json.ts";
import { attempt, corrupt, corruption, deepFreeze } from "../bad-input/judge.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";

const CONFIG = { token_threshold: 300, tokenizer: "chars" as const, retention_window: 2, max_tokens: 400 };
const RUNS = 400;
const gen = fc.record({
  turns: fc.integer({ min: 1, max: 4 }),
  callsPerStep: fc.integer({ min: 1, max: 3 }),
  seed: fc.integer({ min: 1, max: 99 }),
  ongoingAtEnd: fc.boolean(),
});

function expectNamedError(e: unknown, root: string): void {
  if (!(e instanceof InputError)) throw new Error(`not an InputError: ${e instanceof Error ? e.stack : String(e)}`);
  expect(e.path).toMatch(new RegExp(`^${root}(\\[\\d+\\])(\\.[A-Za-z_]+|\\[\\d+\\])*$`));
  expect(e.message.startsWith(`${e.path}: `)).toBe(true);
}

function expectLawful(report: CompactionReport, outLength: number): void {
  expect(report.laws.filter((l) => !l.ok)).toEqual([]);
  expect(report.messagesAfter).toBe(outLength);
}

describe("malformed histories of the SDK shapes", () => {
  it("AI SDK: an error naming the message and field, or a lawful compaction; the input is untouched", async () => {
    const seen = { errors: 0, compacted: 0 };
    await fc.assert(
      fc.asyncProperty(gen, fc.array(corruption, { minLength: 1, maxLength: 3 }), async (g, cs) => {
        const msgs = modelMessagesConversation(g) as unknown as Json[]; // corrupted below: no longer ModelMessage
        corrupt(msgs, cs);
        const input = deepFreeze(msgs);
        const copy = structuredClone(input);
        const r = await attempt(() => compactModelMessages(input as unknown as ModelMessage[], CONFIG));
        expect(input).toEqual(copy);
        if (!r.ok) {
          seen.errors++;
          expectNamedError(r.error, "messages");
          return;
        }
        if (r.value.report.stretches.length > 0) seen.compacted++;
        expectLawful(r.value.report, r.value.messages.length);
      }),
      { numRuns: RUNS },
    );
    expect(seen.errors).toBeGreaterThan(RUNS / 10);
    expect(seen.compacted).toBeGreaterThan(RUNS / 40);
  });

  it("Responses: an error naming the item and field, or a lawful compaction; the input is untouched", async () => {
    const seen = { errors: 0, compacted: 0 };
    await fc.assert(
      fc.asyncProperty(gen, fc.array(corruption, { minLength: 1, maxLength: 3 }), async (g, cs) => {
        const items = responsesConversation(g) as unknown as Json[]; // corrupted below: no longer ResponseInputItem
        corrupt(items, cs);
        const input = deepFreeze(items);
        const copy = structuredClone(input);
        const r = await attempt(() => compactResponsesItems(input as unknown as ResponseInputItem[], CONFIG));
        expect(input).toEqual(copy);
        if (!r.ok) {
          seen.errors++;
          expectNamedError(r.error, "input");
          return;
        }
        if (r.value.report.stretches.length > 0) seen.compacted++;
        expectLawful(r.value.report, r.value.input.length);
      }),
      { numRuns: RUNS },
    );
    expect(seen.errors).toBeGreaterThan(RUNS / 10);
    expect(seen.compacted).toBeGreaterThan(RUNS / 40);
  });
});
