// Clearing for a request over max_request_bytes (the byte goal): a result is cleared only where
// its placeholder is strictly shorter in tokens as well as in bytes (kernel byteWeightsAfter), so
// the run's token counts only fall (L13). A tool result of about the placeholder's length used to
// be picked for the bytes it frees while its token count stayed the same, and the run stopped on
// "internal: a cleared message's count 12 is not below its count 12".
import { describe, expect, it } from "vitest";
import { generateConversation } from "../../bench/conversation.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { messageBytes } from "../../src/model/message-bytes.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";

describe("clearing toward the byte budget", () => {
  it("clears only results that shrink in tokens too, and brings the request under its bytes", async () => {
    for (const seed of [1, 2, 3]) {
      const ms = generateConversation(300, { seed });
      const budget = 150_000;
      const before = ms.reduce((t, m) => t + messageBytes(m), 0);
      expect(before).toBeGreaterThan(budget);
      const r = await compactMessages(ms, {
        token_threshold: 1_000_000,
        max_request_bytes: budget,
        tokenizer: "chars",
      });
      expect(r.report.outcome).toBe("compacted");
      const records = r.report.clearing?.records ?? [];
      expect(records.length).toBeGreaterThan(0);
      const counter = charCounter();
      const resultOf = (xs: typeof ms, id: string) => xs.find((m) => m.role === "tool" && m.toolCallId === id);
      for (const c of records) {
        expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
        const was = resultOf(ms, c.toolCallId);
        const now = resultOf(r.messages, c.toolCallId);
        if (was === undefined || now === undefined) throw new Error(`result ${c.toolCallId} missing`);
        expect(messageTokens(counter, now)).toBeLessThan(messageTokens(counter, was));
        expect(messageBytes(now)).toBeLessThan(messageBytes(was));
      }
      expect(r.messages.reduce((t, m) => t + messageBytes(m), 0)).toBeLessThanOrEqual(budget);
    }
  });
});
