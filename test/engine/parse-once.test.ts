// The configuration is parsed once per call, before the input is read, and the parsed values are
// passed down: the adapters do not parse it again inside the engine, compactBeforeStep parses it
// when the agent is built and not at each step, and the CLI refuses a bad setting before it
// looks at the input.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { compactBeforeStep, compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import * as configModule from "../../src/model/config.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";

// every parse goes through parseConfigShape; count its calls
vi.mock("../../src/model/config.ts", async (original) => {
  const m = await original<typeof import("../../src/model/config.ts")>();
  return { ...m, parseConfigShape: vi.fn(m.parseConfigShape) };
});
const parses = vi.mocked(configModule.parseConfigShape);
beforeEach(() => {
  parses.mockClear();
});

const config: ConfigInput = { tokenizer: "chars", token_threshold: 100_000 };
const chat = [
  { role: "user" as const, content: "hello" },
  { role: "assistant" as const, content: "hi" },
];

describe("the configuration is parsed once", () => {
  it.each([
    ["compactOpenAIMessages", (c: ConfigInput) => compactOpenAIMessages(chat, c)],
    ["compactAnthropicMessages", (c: ConfigInput) => compactAnthropicMessages({ messages: chat }, c)],
    ["compactModelMessages", (c: ConfigInput) => compactModelMessages(chat, c)],
    ["compactResponsesItems", (c: ConfigInput) => compactResponsesItems(chat, c)],
  ])("by %s", async (_name, run) => {
    await run(config);
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it("by compactBeforeStep: when the agent is built, not at each step", async () => {
    const step = compactBeforeStep(config);
    expect(parses).toHaveBeenCalledTimes(1);
    expect(await step({ messages: chat })).toBeUndefined();
    expect(await step({ messages: chat })).toBeUndefined();
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it("by the CLI, before the input is read: a bad setting is named even when the input is bad too", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), "{ not json");
    const r = await runInProcess(["compact", "bad.json", "--retention-window", "0"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("safecut: error: retention_window: must be >= 1, got 0\n");
    expect(parses).toHaveBeenCalledTimes(1);
    const missing = await runInProcess(["compact", "missing.json", "--summary-tag", ""], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("safecut: error: summary_tag: must not be empty\n");
  });
});
