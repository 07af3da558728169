// Prompt-cache breakpoints on compacted output (issue 31, part 4): the Anthropic wire helper and
// the AI SDK hook mark the last message before the first one compaction changed
// (`cache_control: {type: "ephemeral"}`; AI SDK: providerOptions.anthropic.cacheControl), so the
// prefix the provider already cached is read, not re-written; never past the provider's four
// breakpoints (the caller's counted), and their own earlier mark is moved, not added to.
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { compactAnthropicMessages } from "../../src/index.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import type { JsonObject } from "../../src/model/json.ts";
import { anthropicConversation } from "../support/generate.ts";
import { modelMessagesConversation } from "../support/generate-sdk.ts";

const EPHEMERAL = { type: "ephemeral" };
const CONFIG = { token_threshold: 5000, strategy: "summarize" } as const;

/** Indices of messages carrying a breakpoint on any block. */
function marked(messages: readonly JsonObject[]): number[] {
  return messages.flatMap((m, i) =>
    Array.isArray(m.content) && m.content.some((b) => typeof b === "object" && b !== null && "cache_control" in b)
      ? [i]
      : [],
  );
}

/** A message's JSON without breakpoints (cache_control, providerOptions). */
const bare = (m: object) =>
  JSON.stringify(m, (key, v) => (key === "cache_control" || key === "providerOptions" ? undefined : v));

/** The first index where the output differs from the input, breakpoints aside. */
function firstChanged(before: readonly object[], after: readonly object[]): number {
  let i = 0;
  while (i < before.length && i < after.length && (before[i] === after[i] || bare(before[i]) === bare(after[i]))) i++;
  return i;
}

/** The caller's breakpoint on a message's last block. */
function withMark(m: JsonObject): JsonObject {
  const content = m.content as JsonObject[];
  return { ...m, content: [...content.slice(0, -1), { ...content[content.length - 1], cache_control: EPHEMERAL }] };
}

describe("cache breakpoints on the Anthropic wire", () => {
  it("marks the last message before the first changed one, beside the caller's own", async () => {
    const conv = anthropicConversation({ turns: 15 });
    // the common agent's breakpoints: the system prompt and the last message
    const system = [{ type: "text", text: conv.system, cache_control: EPHEMERAL }];
    const messages = [...conv.messages.slice(0, -1), withMark(conv.messages[conv.messages.length - 1])];
    const r = await compactAnthropicMessages({ system, messages }, CONFIG);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    const at = firstChanged(messages, r.messages);
    expect(at).toBeGreaterThan(0);
    expect(marked(r.messages)).toEqual([at - 1, r.messages.length - 1]);
    const block = (r.messages[at - 1].content as JsonObject[]).at(-1);
    expect(block?.cache_control).toEqual(EPHEMERAL);
    // the marked message is otherwise the one read
    expect({ ...r.messages[at - 1], content: (r.messages[at - 1].content as JsonObject[]).slice(0, -1) }).toEqual({
      ...messages[at - 1],
      content: (messages[at - 1].content as JsonObject[]).slice(0, -1),
    });
  });

  it("adds none when the caller already uses four", async () => {
    const conv = anthropicConversation({ turns: 15 });
    const system = [{ type: "text", text: conv.system, cache_control: EPHEMERAL }];
    const n = conv.messages.length;
    const messages = conv.messages.map((m, i) => (i === 0 || i === 1 || i === n - 1 ? withMark(m) : m));
    const r = await compactAnthropicMessages({ system, messages }, CONFIG);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    const count = marked(r.messages).length + 1;
    expect(count).toBeLessThanOrEqual(4);
  });

  it("moves its own mark on the next call instead of adding another", async () => {
    const conv = anthropicConversation({ turns: 15 });
    const first = await compactAnthropicMessages(conv, CONFIG);
    const more = anthropicConversation({ turns: 30 }).messages.slice(conv.messages.length);
    const second = await compactAnthropicMessages(
      { system: conv.system, messages: [...first.messages, ...more] },
      CONFIG,
    );
    expect(second.report.stretches.length).toBeGreaterThan(0);
    expect(marked(second.messages).length).toBe(1);
  });

  it("leaves an unchanged conversation as it was", async () => {
    const conv = anthropicConversation({ turns: 2 });
    const r = await compactAnthropicMessages(conv, CONFIG);
    expect(r.messages).toEqual(conv.messages);
    expect(marked(r.messages)).toEqual([]);
  });
});

describe("cache breakpoints in the AI SDK hook", () => {
  it("the hook marks the last message before the first changed one with providerOptions.anthropic.cacheControl", async () => {
    const messages = modelMessagesConversation({ turns: 15 });
    const hook = compactBeforeStep(CONFIG);
    const r = await hook({ messages });
    if (r === undefined) throw new Error("the step was not compacted");
    const at = firstChanged(messages, r.messages);
    expect(at).toBeGreaterThan(0);
    const withControl = r.messages.flatMap((m: ModelMessage, i) =>
      m.providerOptions?.anthropic?.cacheControl === undefined ? [] : [i],
    );
    expect(withControl).toEqual([at - 1]);
    expect(r.messages[at - 1].providerOptions?.anthropic?.cacheControl).toEqual(EPHEMERAL);
    // the message is otherwise the one given
    const { providerOptions: _, ...rest } = r.messages[at - 1];
    const { providerOptions: __, ...given } = messages[at - 1];
    expect(rest).toEqual(given);
  });
});
