// Memory that travels with the conversation (issue 31, part 1): compactMessages and the wire
// helpers are called before every model call with no memory between calls. An old summary whose
// aged summary was rejected (it cannot shrink that far) must not be asked for again by a later
// call that is given only the messages the earlier call returned (plus what the agent appended):
// what the engine learnt is kept in the summary's marker.
import { describe, expect, it } from "vitest";
import { readModelMessages, writeModelMessages } from "../../src/adapters/ai-sdk.ts";
import { readAnthropicMessages, writeAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { readOpenAIMessages, writeOpenAIMessages } from "../../src/adapters/openai.ts";
import { readResponsesItems, writeResponsesItems } from "../../src/adapters/responses.ts";
import { unwrapSummary, wrapSummary } from "../../src/adapters/summary-marker.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import type { Json } from "../../src/model/json.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import type { SummaryRequest } from "../../src/model/summarizer.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";
import { summaryHistory, summaryText } from "../support/summary-history.ts";

const text = summaryText;

const history = summaryHistory;

const config = {
  tokenizer: "chars" as const,
  strategy: "summarize" as const,
  token_threshold: 8_000,
  target_percent: 60,
  retention_window: 2,
};

/**
 * A summarizer whose every answer is 250 tokens over its budget (an aged summary is then never
 * shorter than what it replaces), and a count of the requests for a summary it was already asked
 * to shorten in an earlier call and whose answer was rejected.
 */
function hopeless() {
  const { summarizer, calls } = recordingSummarizer((r) => text("aged", r.maxTokens + 250));
  const rejected = new Set<string>();
  let repeats = 0;
  /** Called after each compaction: counts this call's requests for already-rejected summaries, then remembers them. */
  const settle = (from: number): void => {
    const asked: SummaryRequest[] = [...calls.single, ...calls.batch.flatMap((b) => b.parts)].slice(from);
    for (const r of asked) if (r.previousSummary !== undefined && rejected.has(r.previousSummary)) repeats++;
    for (const r of asked) if (r.previousSummary !== undefined) rejected.add(r.previousSummary);
  };
  const count = () => calls.single.length + calls.batch.reduce((t, b) => t + b.parts.length, 0);
  return { summarizer, settle, count, repeats: () => repeats };
}

describe("stateless calls remember what cannot shrink", () => {
  it("compactMessages never asks again for a summary a previous call found hopeless", async () => {
    const h = hopeless();
    let messages = history();
    for (let call = 0; call < 4; call++) {
      const from = h.count();
      const r = await compactMessages(messages, config, { summarizer: h.summarizer });
      h.settle(from);
      if (call === 0) expect(h.count()).toBeGreaterThan(0);
      expect(r.report.laws.every((l) => l.ok)).toBe(true);
      messages = [
        ...r.messages,
        { role: "user", content: `next ${call}` },
        { role: "assistant", content: `answer ${call}`, toolCalls: [] },
      ];
    }
    expect(h.repeats()).toBe(0);
  });

  it("compactOpenAIMessages keeps the memory in the summary it writes back (the wire's assistant text)", async () => {
    const h = hopeless();
    const wire = (ms: readonly Message[]): Json[] =>
      ms.map((m) =>
        m.role === "summary"
          ? { role: "assistant", content: `<summary>\n${m.content}\n</summary>` }
          : { role: m.role === "system" ? "system" : m.role === "user" ? "user" : "assistant", content: m.content },
      );
    let messages: Json[] = wire(history());
    for (let call = 0; call < 3; call++) {
      const from = h.count();
      const r = await compactOpenAIMessages(messages, config, { summarizer: h.summarizer });
      h.settle(from);
      // the summaries found not to shrink say so in their opening tag, their text unchanged
      const marked = r.messages.filter((m) => /^<summary floor="\d+">\n/.test(String(m.content)));
      expect(marked.length).toBeGreaterThan(0);
      messages = [
        ...r.messages,
        { role: "user", content: `next ${call}` },
        { role: "assistant", content: `answer ${call}` },
      ];
    }
    expect(h.count()).toBeGreaterThan(0);
    expect(h.repeats()).toBe(0);
  });
});

describe("the summary marker on the wire", () => {
  const marked = summaryMessage("did X in src/a.ts", { aged: 2, floor: 57, after: 3 });
  const text = '<summary aged="2" floor="57" after="3">\ndid X in src/a.ts\n</summary>';

  it("is written in the opening tag and read back whole, and a summary without one is written as before", () => {
    expect(wrapSummary(marked, undefined)).toBe(text);
    expect(unwrapSummary(text, undefined)).toEqual({
      content: "did X in src/a.ts",
      marker: { aged: 2, floor: 57, after: 3 },
    });
    expect(wrapSummary(summaryMessage("plain"), "memo")).toBe("<memo>\nplain\n</memo>");
    expect(unwrapSummary("<memo>\nplain\n</memo>", "memo")).toEqual({ content: "plain" });
  });

  it("is not a summary safecut wrote when its attributes are not the marker's", () => {
    for (const t of [
      '<summary model="x">\nhi\n</summary>',
      '<summary aged="-1">\nhi\n</summary>',
      '<summary aged="1" aged="2">\nhi\n</summary>',
      "<summaryx>\nhi\n</summary>",
    ])
      expect(unwrapSummary(t, undefined)).toBeUndefined();
  });

  it("round-trips byte for byte in OpenAI chat, Anthropic, AI SDK and Responses", () => {
    const ms: Message[] = [{ role: "user", content: "go" }, marked];
    const openai = writeOpenAIMessages(ms);
    expect(openai[1]).toEqual({ role: "assistant", content: text });
    expect(readOpenAIMessages(openai)[1]).toMatchObject({ role: "summary", marker: marked.marker });
    const anthropic = writeAnthropicMessages(ms);
    expect(JSON.stringify(anthropic.messages[1])).toContain(JSON.stringify(text));
    expect(readAnthropicMessages(anthropic.messages, undefined)[1]).toMatchObject({ marker: marked.marker });
    const sdk = writeModelMessages(ms);
    expect(JSON.stringify(sdk[1])).toContain(JSON.stringify(text));
    expect(readModelMessages(sdk).messages[1]).toMatchObject({ role: "summary", marker: marked.marker });
    const responses = writeResponsesItems(ms);
    expect(JSON.stringify(responses[1])).toContain(JSON.stringify(text));
    expect(readResponsesItems(responses).messages[1]).toMatchObject({ role: "summary", marker: marked.marker });
    // read again and written back, an untouched marked summary is the same bytes
    expect(JSON.stringify(writeOpenAIMessages(readOpenAIMessages(openai)))).toBe(JSON.stringify(openai));
  });
});
