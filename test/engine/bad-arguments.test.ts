// Every public entry point that takes messages throws a SafecutError (kind "input" or "config",
// naming what is wrong) for bad arguments, never a plain TypeError; and refuses values nested
// deeper than MAX_NESTING before any summarizer call.
import { describe, expect, it } from "vitest";
import {
  compact,
  compactAnthropicMessages,
  compactMessages,
  compactOpenAIMessages,
  SafecutError,
} from "../../src/index.ts";
import { MAX_NESTING } from "../../src/model/json-depth.ts";
import type { Message } from "../../src/model/message.ts";
import type { Summarizer } from "../../src/model/summarizer.ts";

const bad: [string, unknown][] = [
  ["null", null],
  ["undefined", undefined],
  ["a number", 42],
  ["an object", { role: "user" }],
  ["a string", "hello"],
  ["an array holding null", [null]],
];

async function thrown(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  return undefined;
}

function expectSafecutError(e: unknown, kind: string, text: RegExp): void {
  expect(e).toBeInstanceOf(SafecutError);
  expect((e as SafecutError).kind).toBe(kind);
  expect((e as SafecutError).message).toMatch(text);
}

describe("bad arguments to the public entry points", () => {
  it.each(bad)("compact / compactMessages (%s as the messages) throw an InputError", async (_n, v) => {
    for (const f of [compact, compactMessages])
      expectSafecutError(await thrown(() => f(v as Message[], {})), "input", /messages/);
  });

  it.each(bad)("compactOpenAIMessages (%s) throws an InputError", async (_n, v) => {
    expectSafecutError(await thrown(() => compactOpenAIMessages(v as never)), "input", /messages/);
  });

  it.each(bad)("compactAnthropicMessages ({ messages: %s } and the bare value) throws an InputError", async (_n, v) => {
    expectSafecutError(await thrown(() => compactAnthropicMessages({ messages: v } as never)), "input", /messages/);
    expectSafecutError(await thrown(() => compactAnthropicMessages(v as never)), "input", /conversation|messages/);
  });

  it.each([
    ["a number", 7],
    ["an array", []],
    ["a string", "x"],
  ])("a config that is %s is a ConfigError (null means the defaults)", async (_n, v) => {
    const ms: Message[] = [{ role: "user", content: "hi" }];
    expectSafecutError(await thrown(() => compactMessages(ms, v as never)), "config", /config/);
    expectSafecutError(
      await thrown(() => compactOpenAIMessages([{ role: "user", content: "hi" }], v as never)),
      "config",
      /config/,
    );
  });

  it.each([
    ["null", null],
    ["a number", 7],
    ["a string", "x"],
  ])("options that are %s are an InputError", async (_n, v) => {
    const ms: Message[] = [{ role: "user", content: "hi" }];
    for (const f of [
      () => compactMessages(ms, {}, v as never),
      () => compactOpenAIMessages([{ role: "user", content: "hi" }], {}, v as never),
      () => compactAnthropicMessages({ messages: [{ role: "user", content: "hi" }] }, {}, v as never),
    ]) {
      expectSafecutError(await thrown(f), "input", /options/);
    }
  });
});

describe("values nested too deep", () => {
  const deep = (n: number): unknown => {
    let v: unknown = {};
    for (let i = 0; i < n; i++) v = { a: v };
    return v;
  };
  const calls: string[] = [];
  const counting: Summarizer = {
    name: "counting",
    summarize: async (r) => {
      calls.push(r.prompt);
      return "<summary>x</summary>";
    },
  };

  it("are refused by compactMessages before any summarizer call, naming the path", async () => {
    const ms = [
      { role: "user", content: "hi", extra: deep(5000) },
      { role: "assistant", content: "x ".repeat(500), toolCalls: [] },
      { role: "user", content: "go" },
    ] as unknown as Message[];
    const e = await thrown(() =>
      compactMessages(ms, { token_threshold: 10, tokenizer: "chars", retention_window: 1 }, { summarizer: counting }),
    );
    expectSafecutError(
      e,
      "input",
      new RegExp(`^messages\\[0\\]\\.extra\\.a\\.a.*nested more than ${MAX_NESTING} levels deep`),
    );
    expect(calls).toEqual([]);
  });

  it("are refused by compactOpenAIMessages and compactAnthropicMessages when read", async () => {
    expectSafecutError(
      await thrown(() => compactOpenAIMessages([{ role: "user", content: "hi", extra: deep(5000) }] as never)),
      "input",
      /^messages\[0\]\.extra\.a/,
    );
    const anthropic = {
      messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: deep(5000) }] }],
    };
    expectSafecutError(
      await thrown(() => compactAnthropicMessages(anthropic as never)),
      "input",
      /^messages\[0\]\.content\[0\]\.input\.a/,
    );
  });

  it(`accept ${MAX_NESTING} levels`, async () => {
    const ms = [{ role: "user", content: "hi", extra: deep(MAX_NESTING - 2) }] as unknown as Message[];
    const r = await compactMessages(ms, {});
    expect(r.report.outcome).toBe("nothing-to-do");
  });
});
