// Runs worth the prompt-cache re-write they cause (issue 31, part 4): every run that changes the
// conversation makes the provider re-write its cache from the first change on. A due run whose
// plan cannot take the count under token_threshold (what can be summarized now frees a few tokens)
// is spared, by the kernel's batchWorthRewrite, until it frees floor_free_tokens and
// floor_run_every calls have passed; a plan that takes the count under the trigger runs as before.
import { describe, expect, it } from "vitest";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";

/** 24 turns of a 400-token question and a short answer; the answer of turn 20 is about 150 tokens (one stretch worth a call). */
function conversation(): Message[] {
  const out: Message[] = [{ role: "system", content: "go" }];
  for (let t = 0; t < 24; t++) {
    out.push({ role: "user", content: `question ${t} ${"q".repeat(1_580)}` });
    out.push({ role: "assistant", content: t === 20 ? `answer ${t} ${"a".repeat(600)}` : `ok ${t}`, toolCalls: [] });
  }
  return out;
}

const config = { tokenizer: "chars" as const, strategy: "summarize" as const, retention_window: 4 };
const answer = (r: { maxTokens: number }) => "done".padEnd(Math.min(40, r.maxTokens * 2), ".");

describe("runs worth a cache re-write", () => {
  it("a due run that would stay over the trigger for a few tokens freed changes nothing and says why", async () => {
    const { summarizer, calls } = recordingSummarizer(answer);
    const messages = conversation();
    // 9,938 tokens against 9,780: the one stretch worth a call frees about 90 (the floor is under the trigger)
    const r = await compactMessages(messages, { ...config, token_threshold: 9_780 }, { summarizer });
    expect(r.report.dueBefore).toBe(true);
    expect(r.report.lawfulFloor).toBeUndefined();
    // before: a summarizer call that freed 143 tokens and left 9,795, still over the trigger
    expect(calls.single.length + calls.batch.length).toBe(0);
    expect(r.messages).toEqual(messages);
    expect(r.report.reason).toContain("re-writes the provider's prompt cache");
    expect(r.report.reason).toContain("under floor_free_tokens (500)");
  });

  it("a due run whose plan takes the count under the trigger runs as before", async () => {
    const { summarizer, calls } = recordingSummarizer(answer);
    const r = await compactMessages(conversation(), { ...config, token_threshold: 9_900 }, { summarizer });
    expect(calls.single.length + calls.batch.length).toBe(1);
    expect(r.report.stretches.length).toBe(1);
    expect(r.report.tokensAfter).toBeLessThan(9_900);
  });

  it("with floor_free_tokens within reach, the same run goes", async () => {
    const { summarizer, calls } = recordingSummarizer(answer);
    const r = await compactMessages(
      conversation(),
      { ...config, token_threshold: 9_780, floor_free_tokens: 50, floor_run_every: 1 },
      { summarizer },
    );
    expect(calls.single.length + calls.batch.length).toBe(1);
    expect(r.report.stretches.length).toBe(1);
  });
});
