// Property of the byte budget: for random agent histories (tool results holding images of random
// sizes, a user message holding some) and random budgets, the conversation compactAnthropicMessages
// returns is, as the JSON of its messages (what a request carries), within max_request_bytes,
// unless the report says its byte floor alone is over it (and then the next run pays for no call).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactAnthropicMessages } from "../../src/library/compact-wire.ts";
import { requestBytes } from "../../src/library/overflow-retry.ts";
import { imageData, imageHistory } from "../support/image-history.ts";

const RUNS = Number(process.env.BYTE_BUDGET_RUNS ?? 40);

describe("max_request_bytes property", () => {
  it("no conversation returned is over the budget unless its byte floor alone is", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 3, max: 14 }),
        fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 14, maxLength: 14 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 8_000, max: 400_000 }),
        fc.integer({ min: 2, max: 8 }),
        async (rounds, sizes, userImage, budget, window) => {
          const messages = imageHistory(rounds, (i) => sizes[i] > 10_000, 0);
          // images of each chosen size (imageHistory gives one size to all: set each here)
          messages.forEach((m, k) => {
            if (k % 2 === 0 && k > 0 && Array.isArray(m.content)) {
              const r = m.content[0];
              const i = k / 2 - 1;
              if (r.type === "tool_result" && Array.isArray(r.content) && r.content[1]?.type === "image")
                r.content[1] = {
                  type: "image",
                  source: { type: "base64", media_type: "image/png", data: imageData(sizes[i], i) },
                };
            }
          });
          if (userImage > 0)
            messages.push(
              { role: "assistant", content: "Anything else?" },
              {
                role: "user",
                content: [
                  { type: "text", text: "this one too" },
                  { type: "image", source: { type: "base64", media_type: "image/png", data: imageData(userImage, 9) } },
                ],
              },
            );
          const config = {
            provider: "offline",
            token_threshold: 1_000_000,
            max_request_bytes: budget,
            retention_window: window,
          } as const;
          // no cache breakpoint: like the model and max_tokens, it is the request's own framing (36
          // bytes once per request), the room max_request_bytes leaves, not a message's bytes
          const options = { cacheBreakpoint: false } as const;
          const r = await compactAnthropicMessages({ messages }, config, options);
          // the messages as sent, less the array's two brackets (the request's own framing, with its
          // model and settings, is the room max_request_bytes leaves under the provider's limit)
          const sent = requestBytes(r.messages) - 2;
          if (r.report.bytes?.floorOver === true) {
            // refused up front (no call), or found at the end of the one run that paid for its calls
            if (r.report.summarizerCalls > 0) expect(r.report.reason).toMatch(/\(after this run\)$/);
            expect(r.report.bytes.floor?.total ?? 0).toBeGreaterThan(budget);
            // no loop of paying runs: the next run on the result is refused up front
            const again = await compactAnthropicMessages({ messages: r.messages }, config, options);
            expect(again.report.summarizerCalls).toBe(0);
            expect(again.report.bytes?.floorOver).toBe(true);
          } else {
            expect(sent, r.report.reason).toBeLessThanOrEqual(budget);
            // the engine's count is not below what is sent (it is what the trigger judged)
            expect(r.report.bytes?.after ?? 0).toBeGreaterThanOrEqual(sent);
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 240_000);
});
