import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { requiredFacts } from "../../src/engine/summarize/facts.ts";
import { validateSummary } from "../../src/engine/summarize/validate-summary.ts";
import { bpeCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";

describe("offline extractive summarizer", () => {
  const counter = bpeCounter();
  const msgs = readOpenAIMessages(openAIConversation({ turns: 2 })).slice(2, 9);
  const facts = requiredFacts(msgs, []);
  const replaced = msgs.reduce((s, m) => s + counter.count(m.content) + 4, 0);
  const req = {
    prompt: "",
    stretch: msgs,
    previousSummary: "before: src/old.ts",
    requiredFacts: facts,
    maxTokens: 2000,
    replacedTokens: replaced,
    summaryTag: "summary",
    model: "x",
  };

  it("is deterministic, shorter than its input, keeps every fact, and passes validation", async () => {
    const s = offlineSummarizer(counter);
    const a = await s.summarize(req);
    expect(await s.summarize(req)).toBe(a);
    expect(facts.length).toBeGreaterThan(3);
    for (const f of facts) expect(a).toContain(f);
    expect(
      validateSummary(a, { replacedTokens: replaced, maxTokens: 2000, requiredFacts: facts, counter }),
    ).toMatchObject({ ok: true });
    expect(a).toContain("Before that: before: src/old.ts");
  });

  it("drops notes, not facts, to fit a tight budget", async () => {
    const a = await offlineSummarizer(counter).summarize({ ...req, maxTokens: 150 });
    for (const f of facts) expect(a).toContain(f);
    expect(counter.count(a) + 4).toBeLessThanOrEqual(150);
  });

  it("fits the budget its request states (a share of the stretch), within maxTokens", async () => {
    const s = offlineSummarizer(counter);
    const full = await s.summarize(req);
    expect(counter.count(full) + 4).toBeGreaterThan(150);
    const asked = await s.summarize({ ...req, budgetTokens: 150 });
    for (const f of facts) expect(asked).toContain(f);
    expect(counter.count(asked) + 4).toBeLessThanOrEqual(150);
    // a stated budget over maxTokens: maxTokens caps it
    expect(await s.summarize({ ...req, maxTokens: 150, budgetTokens: 5000 })).toBe(asked);
  });
});
