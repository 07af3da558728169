import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { dueBy, planStep } from "../../src/engine/run/plan.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import type { Summarizer } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";

const counter = charCounter();

describe("planning", () => {
  it("fires on each configured trigger and only then (L1)", () => {
    const c = parseConfig({ token_threshold: 100, message_threshold: 10, turn_threshold: 3 });
    expect(dueBy(c, 99, 9, 2)).toBe("none");
    // the label says which threshold fired (the kernel's thresholdFired), tokens first
    expect(dueBy(c, 100, 0, 0)).toBe("tokens");
    expect(dueBy(c, 0, 10, 0)).toBe("messages");
    expect(dueBy(c, 0, 0, 3)).toBe("turns");
    expect(dueBy(c, 100, 10, 3)).toBe("tokens");
    expect(dueBy(c, 0, 10, 3)).toBe("messages");
    // the token threshold judging a provider's reported usage says so
    expect(dueBy(c, 100, 0, 0, true)).toBe("reported usage");
    expect(dueBy(c, 0, 10, 0, true)).toBe("messages");
    const w = parseConfig({ token_threshold: null, context_window: 1000, reserve_tokens: 200 });
    expect(dueBy(w, 800, 1, 1)).toBe("none");
    expect(dueBy(w, 801, 1, 1)).toBe("context window");
  });

  it("plans the earliest stretch, outside the retention window", () => {
    const msgs = readOpenAIMessages(openAIConversation({ turns: 4 }));
    const store = new ConversationStore(counter, msgs);
    const p = planStep(store.snapshot(), parseConfig({ token_threshold: 1, retention_window: 6 }));
    expect(p.due).toBe(true);
    expect(p.stretch?.start).toBe(2); // after the system message and the first user message
    expect(p.stretch!.end).toBeLessThanOrEqual(msgs.length - 6);
    expect(msgs.slice(p.stretch!.start, p.stretch!.end).every((m) => m.role === "assistant" || m.role === "tool")).toBe(
      true,
    );
  });
});

describe("watermark (L10)", () => {
  it("only grows and never passes the newest user message", async () => {
    const store = new ConversationStore(counter, readOpenAIMessages(openAIConversation({ turns: 12 })));
    const marks: number[] = [];
    const off = offlineSummarizer(counter);
    const s: Summarizer = {
      name: "watching",
      async summarize(r) {
        marks.push(store.watermark);
        return off.summarize(r);
      },
    };
    await compactStore(store, parseConfig({ tokenizer: "chars", token_threshold: 2000 }), { summarizer: s });
    marks.push(store.watermark);
    expect(marks.length).toBeGreaterThan(3);
    for (let i = 1; i < marks.length; i++) expect(marks[i]).toBeGreaterThanOrEqual(marks[i - 1]);
    const newestUser = store.messages.map((m) => m.role).lastIndexOf("user");
    expect(store.watermark).toBeGreaterThan(0);
    expect(store.watermark).toBeLessThanOrEqual(newestUser);
  });
});
