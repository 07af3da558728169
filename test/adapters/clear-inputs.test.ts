// clear_inputs (L13): clearing a tool result also replaces its call's arguments by `{}`, in every
// format: an OpenAI `tool_calls` entry's `function.arguments`, an Anthropic `tool_use` block's
// `input`, an AI SDK `tool-call` part's `input`, a Responses `function_call`'s `arguments`. The
// call's id and name stay, and everything else is the input's own (in a file, its own bytes).
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import type { ClearingReport, CompactionReport } from "../../src/engine/run/report.ts";
import { compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";

const config = {
  token_threshold: 8000,
  tokenizer: "chars" as const,
  strategy: "clear" as const,
  clear_keep: 2,
  clear_inputs: true,
};
type Obj = Record<string, unknown>;

/** Every key of a and b but `field` holds the same value (the same object where it is one). */
function onlyFieldDiffers(a: Obj, b: Obj, field: string): boolean {
  const keys = Object.keys(a);
  if (!isDeepStrictEqual(keys, Object.keys(b))) return false;
  return keys.every((k) => k === field || a[k] === b[k]);
}

/** The report's clearing, checked: laws hold, the total fell by what was freed, and every record names its call's message. */
function clearingOf(r: { report: CompactionReport }): ClearingReport {
  const k = r.report.clearing;
  if (k === undefined) throw new Error("no clearing report");
  expect(r.report.laws.every((l) => l.ok)).toBe(true);
  expect(r.report.tokensAfter).toBe((r.report.tokensBefore ?? 0) - k.tokensFreed);
  expect(k.inputs).toBe(k.records.filter((c) => c.arguments !== undefined).length);
  expect(k.inputs).toBeGreaterThan(5);
  return k;
}

/** A run with clear_inputs frees more than the same run without it, and clears the same results. */
function freesMore(withInputs: ClearingReport, without: ClearingReport | undefined): void {
  expect(without?.inputs).toBe(0);
  expect(withInputs.records.map((c) => c.index)).toEqual(without?.records.map((c) => c.index));
  expect(withInputs.tokensFreed).toBeGreaterThan(without?.tokensFreed ?? Number.POSITIVE_INFINITY);
}

/**
 * How many call blocks (parts) of `type` differ between the output and the input messages, after
 * checking that each differs only in an `input` that is now `{}`, in an assistant message that
 * differs only in its content array, whose other blocks are the same objects.
 */
function changedCalls(out: readonly unknown[], input: readonly unknown[], type: string): number {
  let calls = 0;
  out.forEach((m, i) => {
    const was = input[i] as Obj;
    if (m === was || (m as Obj).role !== "assistant") return;
    expect(onlyFieldDiffers(m as Obj, was, "content")).toBe(true);
    const now = (m as Obj).content as Obj[];
    const before = was.content as Obj[];
    expect(now.length).toBe(before.length);
    now.forEach((b, j) => {
      if (b === before[j]) return;
      calls++;
      expect(b.type).toBe(type);
      expect(onlyFieldDiffers(b, before[j], "input")).toBe(true);
      expect(b.input).toEqual({});
    });
  });
  return calls;
}

describe("clear_inputs replaces the cleared results' call arguments by {} in every format", () => {
  it("OpenAI: only `function.arguments` of the cleared calls; every other field and message the input's own", async () => {
    const input = openAIConversation({ turns: 16 }).map((m) => (m.role === "assistant" ? { ...m, x_n: 1 } : m));
    const r = await compactOpenAIMessages(input, config);
    const k = clearingOf(r);
    freesMore(k, (await compactOpenAIMessages(input, { ...config, clear_inputs: false })).report.clearing);
    const ids = new Set(k.records.filter((c) => c.arguments !== undefined).map((c) => c.toolCallId));
    let calls = 0;
    r.messages.forEach((m, i) => {
      const was = input[i] as Obj;
      if (m === was || m.role !== "assistant") return;
      expect(onlyFieldDiffers(m as Obj, was, "tool_calls")).toBe(true);
      const now = (m as Obj).tool_calls as Obj[];
      const before = was.tool_calls as Obj[];
      now.forEach((c, j) => {
        if (c === before[j]) return expect(ids.has(c.id as string)).toBe(false);
        calls++;
        expect(ids.has(c.id as string)).toBe(true);
        expect(onlyFieldDiffers(c, before[j], "function")).toBe(true);
        expect(c.function).toEqual({ ...(before[j].function as Obj), arguments: "{}" });
      });
    });
    expect(calls).toBe(k.inputs);
  });

  it("Anthropic: only `input` of the cleared `tool_use` blocks; the other blocks the same objects", async () => {
    const conv = anthropicConversation({ turns: 16 });
    const r = await compactAnthropicMessages(conv, config);
    const k = clearingOf(r);
    freesMore(k, (await compactAnthropicMessages(conv, { ...config, clear_inputs: false })).report.clearing);
    expect(changedCalls(r.messages, conv.messages, "tool_use")).toBe(k.inputs);
  });

  it("AI SDK: only `input` of the cleared `tool-call` parts; the other parts the same objects", async () => {
    const input = modelMessagesConversation({ turns: 16 });
    const r = await compactModelMessages(input, config);
    const k = clearingOf(r);
    freesMore(k, (await compactModelMessages(input, { ...config, clear_inputs: false })).report.clearing);
    expect(changedCalls(r.messages, input, "tool-call")).toBe(k.inputs);
  });

  it("Responses: only `arguments` of the cleared `function_call` items; every other item the input's object", async () => {
    const input = responsesConversation({ turns: 16 });
    const r = await compactResponsesItems(input, config);
    const k = clearingOf(r);
    freesMore(k, (await compactResponsesItems(input, { ...config, clear_inputs: false })).report.clearing);
    let calls = 0;
    r.input.forEach((item, i) => {
      if (item === input[i] || item.type !== "function_call") return;
      calls++;
      expect(onlyFieldDiffers(item as unknown as Obj, input[i] as unknown as Obj, "arguments")).toBe(true);
      expect(item.arguments).toBe("{}");
    });
    expect(calls).toBe(k.inputs);
  });

  it("Responses: a custom tool call's input is never cleared (free text, not arguments that {} can stand for)", async () => {
    const long = "x".repeat(4000);
    const input = [
      { type: "message", role: "user", content: "go" },
      { type: "custom_tool_call", call_id: "c1", name: "patch", input: long },
      { type: "custom_tool_call_output", call_id: "c1", output: long },
      { type: "function_call", call_id: "f1", name: "read", arguments: JSON.stringify({ path: long }) },
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
      clear_at_least: 0, // two results of 1000 tokens each: below the default
    });
    expect(r.report.clearing?.records.map((c) => [c.toolCallId, c.arguments?.index])).toEqual([
      ["c1", undefined],
      ["f1", 3],
    ]);
    expect(r.input[1]).toBe(input[1]);
    expect(r.input[3]).toEqual({ ...input[3], arguments: "{}" });
  });

  it("without clear_inputs (the default) no call changes", async () => {
    const input = openAIConversation({ turns: 16 });
    const r = await compactOpenAIMessages(input, { ...config, clear_inputs: undefined });
    expect(r.report.clearing?.results).toBeGreaterThan(5);
    expect(r.messages.filter((m, i) => m !== input[i] && m.role !== "tool")).toEqual([]);
  });

  it("a dry run reports what it would clear and changes nothing", async () => {
    const input = openAIConversation({ turns: 16 });
    const r = await compactOpenAIMessages(input, config, { dryRun: true });
    expect(r.report.clearing?.reason).toMatch(/^would clear \d+ tool results, the arguments of \d+ calls \(/);
    expect(r.messages.every((m, i) => m === input[i])).toBe(true);
  });
});

describe("clear_inputs in a conversation file: only the cleared arguments' bytes change", () => {
  const long = "output line\\n".repeat(300);
  // one small result is cleared: below the default clear_at_least, which these tests are not about
  const file = { ...config, token_threshold: 500, retention_window: 2, clear_keep: 0, clear_at_least: 0 };

  async function cleared(text: string, results = 1): Promise<string> {
    const f = readConversationFile(text);
    const r = await compactMessages(f.messages, file, { items: f.items });
    expect(r.report.clearing?.results).toBe(results);
    expect(r.report.clearing?.inputs).toBe(1);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    return writeConversationFile(r.messages, f);
  }

  it("OpenAI JSONL: the call's `arguments` string and the result's content, nothing else", async () => {
    const lines = (args: string, out: string) =>
      [
        '{"role":"user","content":"caf\\u00e9 go"}',
        `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f", "arguments":${args}},"x":1E3}],"score":1.50}`,
        `{"role":"tool","tool_call_id":"c1","content":${out},"n":12345678901234567890}`,
        '{"role":"assistant","content":"done"}',
        '{"role":"user","content":"next"}',
        '{"role":"assistant","content":"ok"}',
      ].join("\r\n");
    const out = await cleared(`${lines('"{\\"path\\":\\"a/b.ts\\",\\"n\\":1.50}"', `"${long}"`)}\r\n`);
    expect(out).toBe(`${lines('"{}"', '"[tool result cleared: 3,600 chars]"')}\r\n`);
  });

  it("Anthropic: the `tool_use` block's `input` and the `tool_result` block's content, nothing else", async () => {
    const lines = (input: string, out: string) =>
      [
        `{"role":"user","content":"go"}`,
        `{"role":"assistant","content":[{"type":"text","text":"reading"}, {"type":"tool_use","id":"a","name":"read","input":${input},"cache_control":{"type":"ephemeral"}}]}`,
        `{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":${out},"x_n":1E3}]}`,
        `{"role":"assistant","content":"ok"}`,
        `{"role":"user","content":"next"}`,
        `{"role":"assistant","content":"fine"}`,
      ].join(",\n  ");
    const out = await cleared(`[\n  ${lines('{ "n": 12345678901234567890 }', `"${long}"`)}\n]\n`);
    expect(out).toBe(`[\n  ${lines("{}", '"[tool result cleared: 3,600 chars]"')}\n]\n`);
  });

  it("AI SDK: the `tool-call` part's `input` and the `tool-result` part's output, nothing else", async () => {
    const lines = (input: string, out: string) =>
      [
        `{"role":"user","content":"go"}`,
        `{"role":"assistant","content":[{"type":"tool-call","toolCallId":"a","toolName":"read","input":${input}}]}`,
        `{"role":"tool","content":[{"type":"tool-result","toolCallId":"a","toolName":"read","output":${out}}]}`,
        `{"role":"assistant","content":"ok"}`,
        `{"role":"user","content":"next"}`,
        `{"role":"assistant","content":"fine"}`,
      ].join("\n");
    const out = await cleared(`${lines('{"n":12345678901234567890,"e":1E3}', `{"type":"text","value":"${long}"}`)}\n`);
    expect(out).toBe(`${lines("{}", '{"type":"text","value":"[tool result cleared: 3,600 chars]"}')}\n`);
  });

  it("Responses: the `function_call`'s `arguments` and the output's `output`, nothing else", async () => {
    const items = (args: string, out: string) =>
      [
        `{"type":"message","role":"user","content":"go"}`,
        `{"type":"function_call","call_id":"c1","name":"read","arguments":${args},"x_seq":12345678901234567890}`,
        `{"type":"function_call_output","call_id":"c1","output":${out},"status":"completed"}`,
        `{"type":"message","role":"assistant","content":"done"}`,
        `{"type":"message","role":"user","content":"next"}`,
        `{"type":"message","role":"assistant","content":"ok"}`,
      ].join(",\n  ");
    const out = await cleared(`[\n  ${items('"{\\"n\\":1.50}"', `"${long}"`)}\n]\n`);
    expect(out).toBe(`[\n  ${items('"{}"', '"[tool result cleared: 3,600 chars]"')}\n]\n`);
  });
});
