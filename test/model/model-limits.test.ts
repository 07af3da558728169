// The model catalogue and the one resolution of a run's model limits: the committed table is
// the one the script generates from the pinned packages; names are found as users write them;
// each limit is its setting, else the catalogue's figure for its model, else unset (an error
// only where the summarizer's limits are needed); the report says which and from where.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOGUE_PATH, catalogueSource } from "../../scripts/model-catalogue.ts";
import { limitsLine } from "../../src/cli/report-text.ts";
import { configForRun, parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import { ConfigError } from "../../src/model/errors.ts";
import type { Message } from "../../src/model/message.ts";
import { CATALOGUE } from "../../src/model/model-catalogue.ts";
import { lookupModel, outputTokenField, resolveModelLimits } from "../../src/model/model-limits.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";

describe("the model catalogue", () => {
  it("is the table scripts/model-catalogue.ts generates from the pinned packages (regenerate: npx tsx scripts/model-catalogue.ts)", async () => {
    expect(readFileSync(CATALOGUE_PATH, "utf8")).toBe(await catalogueSource());
  });

  it("covers the families people use, each with a window above its output cap or equal to it", () => {
    const names = CATALOGUE.map(([n]) => n);
    const families: [string, RegExp][] = [
      ["OpenAI", /^(gpt-|o\d)/],
      ["Anthropic", /^claude-/],
      ["Google", /^gemini-/],
      ["Mistral", /^(mistral|codestral|devstral|magistral|ministral|pixtral|open-mi)/],
      ["DeepSeek", /^deepseek-/],
      ["Qwen", /^(qwen|qwq)/],
      ["Llama", /^llama/],
    ];
    for (const [family, re] of families) expect(names.filter((n) => re.test(n)).length, family).toBeGreaterThan(2);
    for (const [name, window, output] of CATALOGUE) {
      expect(window, name).toBeGreaterThan(0);
      expect(output, name).toBeGreaterThan(0);
    }
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("lookupModel: names as users write them", () => {
  it.each([
    ["gpt-4o-mini", "gpt-4o-mini", 128000, 16384],
    ["GPT-4o-mini", "gpt-4o-mini", 128000, 16384],
    ["openai/gpt-4o", "gpt-4o", 128000, 16384],
    ["gpt-4o-2024-08-06", "gpt-4o", 128000, 16384],
    ["gpt-4o-mini-search-preview", "gpt-4o-mini", 128000, 16384],
    ["ft:gpt-4o-mini-2024-07-18:my-org::abc123", "gpt-4o-mini-2024-07-18", 128000, 16384],
    ["claude-haiku-4-5-20251001", "claude-haiku-4-5-20251001", 200000, 64000],
    ["claude-haiku-4-5", "claude-haiku-4-5", 200000, 64000],
    ["anthropic/claude-haiku-4-5", "claude-haiku-4-5", 200000, 64000],
    ["claude-3-5-haiku-latest", "claude-3-5-haiku", 200000, 8192],
    ["models/gemini-2.5-pro", "gemini-2.5-pro", 1048576, 65536],
    ["mistral-large-latest", "mistral-large-latest", 131072, 16384],
    ["llama3", "llama3", 8192, 8192],
    ["llama3:8b", "llama3", 8192, 8192],
    ["llama3.1:8b", "llama3.1", 131072, 131072],
    ["meta-llama/Llama-3.1-8B-Instruct", "llama3.1", 131072, 131072],
    ["qwen2.5:7b", "qwen2.5", 32768, 32768],
    ["qwen2.5-coder:14b-instruct", "qwen2.5-coder", 32768, 32768],
  ])("%s is the catalogue's %s", (name, entry, window, output) => {
    expect(lookupModel(name)).toEqual({ entry, window, output, reasoning: false });
  });

  it.each(["test-model", "m", "my-finetune", "offline", "", "llama"])("%j is not in it", (name) => {
    expect(lookupModel(name)).toBeUndefined();
  });
});

describe("outputTokenField: the field an OpenAI-style request names its output limit with", () => {
  it.each([
    "o1",
    "o1-mini",
    "o3",
    "o3-mini",
    "o4-mini",
    "gpt-5",
    "gpt-5-mini",
    "gpt-5.1",
    "openai/o3-mini",
    "o3-2025-04-16",
  ])("%s (an OpenAI reasoning model): max_completion_tokens", (m) =>
    expect(outputTokenField(m)).toBe("max_completion_tokens"),
  );
  it.each(["gpt-4o", "gpt-4o-mini", "gpt-4.1", "llama3", "qwen2.5:7b", "claude-haiku-4-5", "test-model"])(
    "%s: max_tokens",
    (m) => expect(outputTokenField(m)).toBe("max_tokens"),
  );
});

describe("resolveModelLimits: each limit its setting, else the catalogue's, else unset", () => {
  const calls = { summarizerCallsModel: true };

  it("the agent's model gives context_window, the summarizer's the summarizer's limits", () => {
    const r = resolveModelLimits(parseConfig({ model: "claude-haiku-4-5-20251001" }), {
      ...calls,
      agentModel: "gpt-4o",
    });
    expect(r.context_window).toEqual({ value: 128000, source: "catalogue", model: "gpt-4o", entry: "gpt-4o" });
    expect(r.summarizer_window).toEqual({
      value: 200000,
      source: "catalogue",
      model: "claude-haiku-4-5-20251001",
      entry: "claude-haiku-4-5-20251001",
    });
    expect(r.summarizer_output_cap.value).toBe(64000);
  });

  it('"same as agent": the agent\'s model gives all three', () => {
    const r = resolveModelLimits(parseConfig({}), { ...calls, agentModel: "llama3.1:8b" });
    expect([r.context_window.value, r.summarizer_window.value, r.summarizer_output_cap.value]).toEqual([
      131072, 131072, 131072,
    ]);
  });

  it("a setting overrides its figure, and says so", () => {
    const c = parseConfig({ context_window: 50000, summarizer_output_cap: 4000, model: "gpt-4o-mini" });
    const r = resolveModelLimits(c, { ...calls, agentModel: "gpt-4o" });
    expect(r.context_window).toEqual({ value: 50000, source: "setting" });
    expect(r.summarizer_output_cap).toEqual({ value: 4000, source: "setting" });
    expect(r.summarizer_window.source).toBe("catalogue");
  });

  it("an unknown model leaves its limits unset, saying why, where they are not needed", () => {
    const r = resolveModelLimits(
      parseConfig({ provider: "openai", base_url: "http://127.0.0.1:1", model: "my-model" }),
      {
        ...calls,
        agentModel: "test-agent",
      },
    );
    expect(r.context_window).toEqual({
      value: null,
      source: "unset",
      model: "test-agent",
      why: 'model "test-agent" is not in the model catalogue',
    });
    expect(r.summarizer_output_cap.value).toBeNull();
    expect(resolveModelLimits(parseConfig({}), calls).context_window).toEqual({
      value: null,
      source: "unset",
      why: "the agent's model is unknown",
    });
  });

  it("the offline summarizer calls no model: the catalogue gives it no limits", () => {
    const r = resolveModelLimits(parseConfig({}), { summarizerCallsModel: false, agentModel: "gpt-4o" });
    expect(r.context_window.value).toBe(128000);
    expect(r.summarizer_output_cap).toEqual({
      value: null,
      source: "unset",
      why: "the offline summarizer calls no model",
    });
  });

  it.each<[ConfigInput, string]>([
    [{ provider: "openai", model: "gpt-7-turbo" }, "openai"],
    [{ provider: "anthropic", model: "claude-next-9" }, "anthropic"],
  ])("an unknown summarizer model on a provider's own API is an error naming it and the setting (%o)", (input, api) => {
    const c = parseConfig(input);
    let err: unknown;
    try {
      resolveModelLimits(c, calls);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).field).toBe("summarizer_output_cap");
    expect((err as Error).message).toContain(`"${input.model}" is not in the model catalogue`);
    expect((err as Error).message).toContain(`the ${api} API refuses a request over it: set summarizer_output_cap`);
    // both figures set: no catalogue needed
    const set = resolveModelLimits(
      parseConfig({ ...input, summarizer_window: 100000, summarizer_output_cap: 8000 }),
      calls,
    );
    expect(set.summarizer_output_cap).toEqual({ value: 8000, source: "setting" });
  });

  it("a small catalogue window keeps a quarter of itself free when reserve_tokens does not fit it", () => {
    // llama3's 8k window is below the default reserve_tokens (16384): the window trigger would
    // be an error out of the box, so a quarter of the window is kept free and the report says so
    const small = configForRun(parseConfig({}), { summarizerCallsModel: false, agentModel: "llama3" });
    expect(small.config.context_window).toBe(8192);
    expect(small.config.reserve_tokens).toBe(2048);
    expect(small.limits.reserveScaled).toEqual({ from: 16384, to: 2048 });
    const fits = configForRun(parseConfig({ reserve_tokens: 2000 }), {
      summarizerCallsModel: false,
      agentModel: "llama3",
    });
    expect(fits.config.reserve_tokens).toBe(2000);
    expect(fits.limits.reserveScaled).toBeUndefined();
  });

  it("a catalogue window the other settings still do not fit is left unset, as before the catalogue, saying why", () => {
    // keep_recent_tokens must fit in context_window - reserve_tokens: 8192 - 2048 does not hold 7000
    const r = configForRun(parseConfig({ keep_recent_tokens: 7000 }), {
      summarizerCallsModel: false,
      agentModel: "llama3",
    });
    expect(r.config.context_window).toBeNull();
    expect(r.config.reserve_tokens).toBe(16384);
    expect(r.limits.reserveScaled).toBeUndefined();
    expect(r.limits.context_window).toMatchObject({ value: null, source: "unset", model: "llama3" });
    expect(r.limits.context_window.source === "unset" && r.limits.context_window.why).toMatch(
      /^the model catalogue's window for "llama3", 8192, does not fit the other settings \(keep_recent_tokens: .*\): set context_window, or change keep_recent_tokens$/,
    );
    // a window the user set is checked against reserve_tokens as written
    expect(() => configForRun(parseConfig({ context_window: 8192 }), { summarizerCallsModel: false })).toThrow(
      /reserve_tokens: must be >= 0 and below context_window, got 16384/,
    );
  });
});

describe("a run's report says which limits it used and where they came from", () => {
  const messages: Message[] = [
    { role: "user", content: "hello" },
    { role: "assistant", content: "hi", toolCalls: [] },
  ];
  const run = (input: ConfigInput, agentModel?: string) =>
    compactStore(new ConversationStore(charCounter(), messages), parseConfig(input), {
      summarizer: { ...offlineSummarizer(charCounter()), name: "openai-like" },
      ...(agentModel === undefined ? {} : { agentModel }),
    });

  it("JSON: modelLimits; text: one line", async () => {
    const r = await run({ summarizer_output_cap: 3000 }, "gpt-4o-mini");
    expect(r.modelLimits.context_window).toEqual({
      value: 128000,
      source: "catalogue",
      model: "gpt-4o-mini",
      entry: "gpt-4o-mini",
    });
    expect(r.modelLimits.summarizer_output_cap).toEqual({ value: 3000, source: "setting" });
    expect(JSON.parse(JSON.stringify(r)).modelLimits.catalogue).toMatch(/^llm-zoo [\d.]+, @tokenlens\/models [\d.]+/);
    expect(limitsLine(r.modelLimits)).toBe(
      "model limits: context_window 128000 (catalogue: gpt-4o-mini, the agent's model), summarizer_window 128000 (catalogue: gpt-4o-mini, the summarizer's model), summarizer_output_cap 3000 (setting)",
    );
  });

  it("the agent's window joins the trigger: a run over context_window - reserve_tokens is due without typing the window", async () => {
    // under the default token_threshold (60000) but over 8192 - 2000 tokens of llama3's window
    const long: Message[] = [
      { role: "user", content: "x".repeat(4 * 7000) },
      { role: "assistant", content: "ok", toolCalls: [] },
    ];
    const c = parseConfig({ reserve_tokens: 2000, retention_window: 1 });
    const r = await compactStore(new ConversationStore(charCounter(), long), c, {
      summarizer: offlineSummarizer(charCounter()),
      agentModel: "llama3",
      dryRun: true,
    });
    expect(r.dueBefore).toBe(true);
    const unknown = await compactStore(new ConversationStore(charCounter(), long), c, {
      summarizer: offlineSummarizer(charCounter()),
      agentModel: "made-up-model",
      dryRun: true,
    });
    expect(unknown.dueBefore).toBe(false);
    expect(limitsLine(unknown.modelLimits)).toBeUndefined();
  });
});

describe("an agent's hook judges its trigger with the agent's model's window", () => {
  it("compactBeforeStep compacts a step over llama3's window - reserve_tokens, under token_threshold", async () => {
    const step = {
      messages: [
        { role: "system" as const, content: "You are a coding agent." },
        ...Array.from({ length: 6 }, (_, i) => [
          { role: "user" as const, content: `task ${i}: ${"read the logs and fix the failing build. ".repeat(120)}` },
          { role: "assistant" as const, content: `done ${i}: ${"the build passes after the change. ".repeat(120)}` },
        ]).flat(),
      ],
    };
    const reports: CompactionReport[] = [];
    const on = (agentModel: string) =>
      compactBeforeStep(
        { reserve_tokens: 2000, retention_window: 2, tokenizer: "chars" },
        { agentModel, env: {}, onReport: (r) => reports.push(r) },
      )(step);
    // about 9,000 tokens: over 8192 - 2000, under the default token_threshold (60000)
    expect(await on("made-up-model")).toBeUndefined();
    expect(reports).toEqual([]);
    await on("llama3");
    expect(reports.map((r) => [r.dueBefore, r.modelLimits.context_window.value])).toEqual([[true, 8192]]);
  });
});
