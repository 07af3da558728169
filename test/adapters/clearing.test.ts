// The clearing tier (L13) in every format: a cleared tool result is written back as the item it was
// read from with only its content replaced by the placeholder; every other item is the caller's own
// object (or, for a message that holds several results, the same with only those parts replaced).
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { placeholderPattern } from "../../src/engine/run/clearing.ts";
import { compactBeforeStep, compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";

const config = { token_threshold: 8000, tokenizer: "chars" as const, strategy: "clear" as const, clear_keep: 2 };
const placeholder = placeholderPattern("[tool result cleared: {chars} chars]");
type Obj = Record<string, unknown>;

/** Every key of a and b but `field` holds the same value (the same object where it is one). */
function onlyFieldDiffers(a: Obj, b: Obj, field: string): boolean {
  const keys = Object.keys(a);
  if (!isDeepStrictEqual(keys, Object.keys(b))) return false;
  return keys.every((k) => k === field || a[k] === b[k]);
}

describe("clearing writes back only the content of cleared results", () => {
  it("OpenAI: a cleared `tool` message is the message as read with a new content; the rest are the input's objects", async () => {
    const input = openAIConversation({ turns: 16 }).map((m) => (m.role === "tool" ? { ...m, x_cache: 12 } : m));
    const r = await compactOpenAIMessages(input, config);
    const cleared = r.report.clearing?.records ?? [];
    expect(cleared.length).toBeGreaterThan(5);
    expect(r.messages.length).toBe(input.length);
    let seen = 0;
    r.messages.forEach((m, i) => {
      if (m === input[i]) return;
      seen++;
      expect(onlyFieldDiffers(m as Obj, input[i] as Obj, "content")).toBe(true);
      expect((m as Obj).content).toMatch(placeholder);
    });
    expect(seen).toBe(cleared.length);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    expect(r.report.tokensAfter).toBe((r.report.tokensBefore ?? 0) - (r.report.clearing?.tokensFreed ?? 0));
  });

  it("Anthropic: a cleared `tool_result` block has a new content; its message's other blocks are the same objects", async () => {
    const conv = anthropicConversation({ turns: 16 });
    const r = await compactAnthropicMessages(conv, config);
    const cleared = r.report.clearing?.records ?? [];
    expect(cleared.length).toBeGreaterThan(5);
    expect(r.messages.length).toBe(conv.messages.length);
    let blocks = 0;
    let breakpoints = 0;
    r.messages.forEach((m, i) => {
      const was = conv.messages[i] as Obj;
      if (m === was) return;
      // the cache breakpoint before the first changed message: its last block, only cache_control added
      const last = ((m as Obj).content as Obj[]).at(-1) as Obj;
      if (last.cache_control !== undefined && !("cache_control" in (((was.content as Obj[]).at(-1) ?? {}) as Obj))) {
        const { cache_control: _, ...rest } = last;
        expect(rest).toEqual((was.content as Obj[]).at(-1));
        breakpoints++;
        return;
      }
      expect(onlyFieldDiffers(m as Obj, was, "content")).toBe(true);
      const now = (m as Obj).content as Obj[];
      const before = was.content as Obj[];
      expect(now.length).toBe(before.length);
      now.forEach((b, k) => {
        if (b === before[k]) return;
        blocks++;
        expect(b.type).toBe("tool_result");
        expect(onlyFieldDiffers(b, before[k], "content")).toBe(true);
        expect(b.content).toMatch(placeholder);
      });
    });
    expect(blocks).toBe(cleared.length);
    expect(breakpoints).toBe(1);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("AI SDK: a cleared `tool-result` part has a text output; its tool message's other parts are the same objects", async () => {
    const input = modelMessagesConversation({ turns: 16 });
    const r = await compactModelMessages(input, config);
    const cleared = r.report.clearing?.records ?? [];
    expect(cleared.length).toBeGreaterThan(5);
    expect(r.messages.length).toBe(input.length);
    let parts = 0;
    r.messages.forEach((m, i) => {
      const was = input[i] as Obj;
      if (m === input[i]) return;
      expect(onlyFieldDiffers(m as Obj, was, "content")).toBe(true);
      const now = (m as Obj).content as Obj[];
      const before = was.content as Obj[];
      now.forEach((p, k) => {
        if (p === before[k]) return;
        parts++;
        expect(onlyFieldDiffers(p, before[k], "output")).toBe(true);
        const out = p.output as Obj;
        expect(out.type === "text" || out.type === "error-text").toBe(true);
        expect(out.value).toMatch(placeholder);
      });
    });
    expect(parts).toBe(cleared.length);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("AI SDK compactBeforeStep returns the messages of a step whose results were only cleared", async () => {
    const messages = modelMessagesConversation({ turns: 16 });
    const step = await compactBeforeStep(config)({ messages });
    expect(step).toBeDefined();
    const changed = (step?.messages ?? []).filter((m, i) => m !== messages[i]);
    expect(changed.length).toBeGreaterThan(0);
    // besides the cleared results, the message before the first of them carries the cache breakpoint
    const [mark, ...rest] = changed;
    expect(mark.providerOptions?.anthropic?.cacheControl).toEqual({ type: "ephemeral" });
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((m) => m.role === "tool")).toBe(true);
  });

  it("Responses: a cleared `function_call_output` has a new output; every other item is the input's object", async () => {
    const input = responsesConversation({ turns: 16 });
    const r = await compactResponsesItems(input, config);
    const cleared = r.report.clearing?.records ?? [];
    expect(cleared.length).toBeGreaterThan(5);
    expect(r.input.length).toBe(input.length);
    let seen = 0;
    r.input.forEach((item, i) => {
      if (item === input[i]) return;
      seen++;
      expect(item.type).toBe("function_call_output");
      expect(onlyFieldDiffers(item as unknown as Obj, input[i] as unknown as Obj, "output")).toBe(true);
      expect((item as unknown as Obj).output).toMatch(placeholder);
    });
    expect(seen).toBe(cleared.length);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
  });

  it("Responses: a screenshot or an approval answer is never cleared", async () => {
    const long = "x".repeat(4000);
    const input = [
      { type: "message", role: "user", content: "go" },
      {
        type: "computer_call",
        call_id: "c1",
        action: { type: "screenshot" },
        id: "cc1",
        pending_safety_checks: [],
        status: "completed",
      },
      {
        type: "computer_call_output",
        call_id: "c1",
        output: { type: "computer_screenshot", image_url: `data:${long}` },
      },
      { type: "function_call", call_id: "f1", name: "read", arguments: "{}" },
      { type: "function_call_output", call_id: "f1", output: long },
      { type: "message", role: "assistant", content: "done" },
      { type: "function_call", call_id: "f2", name: "read", arguments: "{}" },
      { type: "function_call_output", call_id: "f2", output: "short" },
      { type: "message", role: "user", content: "next" },
    ] as Parameters<typeof compactResponsesItems>[0];
    const r = await compactResponsesItems(input, {
      ...config,
      token_threshold: 1000,
      clear_keep: 0,
      retention_window: 1,
      clear_at_least: 0, // one result of 1000 tokens is cleared: below the default
    });
    expect(r.report.clearing?.records.map((c) => c.toolCallId)).toEqual(["f1"]);
    expect(r.input[2]).toBe(input[2]);
  });
});
