import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { snapshotConfig } from "../../src/model/config.ts";
import { ConfigError } from "../../src/model/errors.ts";

describe("configuration", () => {
  it("fills the defaults of README's configuration table", () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      max_tokens: 2000,
      token_threshold: 60000,
      message_threshold: null,
      turn_threshold: null,
      retention_window: 6,
      model: "same as agent",
      summary_tag: "summary",
      context_window: null,
      keep_recent_tokens: null,
      provider: "offline",
      tokenizer: "bpe",
    });
    expect(c.prompt).toContain("{{conversation}}");
  });

  it("keep_recent_tokens: 0 means no keep-recent constraint, the same as unset", async () => {
    expect(parseConfig({ keep_recent_tokens: 0 }).keep_recent_tokens).toBeNull();
    expect(
      parseConfig({ keep_recent_tokens: 0, context_window: 10_000, reserve_tokens: 2_000 }).keep_recent_tokens,
    ).toBeNull();
    const { runInProcess, tempDir } = await import("../support/cli-run.ts");
    const r = await runInProcess(["compact", "-", "--keep-recent-tokens", "0"], {
      cwd: tempDir(),
      stdin: JSON.stringify([{ role: "user", content: "hi" }]),
    });
    expect(r.code).toBe(0);
  });

  it.each([
    [{ keep_recent_tokens: -1 }, "keep_recent_tokens", "must be > 0"],
    [{ retention_window: -1 }, "retention_window", "must be >= 1"],
    [{ retention_window: 0 }, "retention_window", "must be >= 1"],
    [{ token_threshold: Number.NaN }, "token_threshold", "must be a whole number, got a non-finite number"],
    [{ token_threshold: 0 }, "token_threshold", "must be > 0 when set"],
    [{ message_threshold: -5 }, "message_threshold", "must be > 0 when set"],
    [{ turn_threshold: 1.5 }, "turn_threshold", "must be a whole number, got 1.5"],
    [{ max_tokens: 0 }, "max_tokens", "between 1 and 100000"],
    [{ max_tokens: 100001 }, "max_tokens", "between 1 and 100000"],
    [{ max_tokens: "big" }, "max_tokens", 'must be a whole number, got "big"'],
    [{ token_threshold: null }, "token_threshold", "no trigger configured"],
    [{ summary_tag: "" }, "summary_tag", "must not be empty"],
    [{ model: "gpt-5", provider: "anthropic" }, "model", 'unknown model "gpt-5" for provider anthropic'],
    [{ context_window: 1000, reserve_tokens: 1000 }, "reserve_tokens", "below context_window"],
    [{ keep_recent_tokens: -3 }, "keep_recent_tokens", "must be > 0"],
    [{ prompt: "no placeholder" }, "prompt", "{{conversation}}"],
    [{ retention_windw: 3 }, "retention_windw", "unknown setting"],
    [{ anchors: [1] }, "anchors.0", "must be a string, got 1"],
    [{ provider: "mistral" }, "provider", 'must be one of "offline", "openai", "anthropic", got "mistral"'],
  ])("rejects %j naming the field", (input, field, message) => {
    let err: unknown;
    try {
      parseConfig(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).field).toBe(field);
    expect((err as ConfigError).message).toContain(message);
    expect((err as ConfigError).message.startsWith(`${field}: `)).toBe(true);
  });

  it("accepts a context-window-only trigger and known models", () => {
    expect(parseConfig({ token_threshold: null, context_window: 200000 }).context_window).toBe(200000);
    expect(parseConfig({ provider: "anthropic", model: "claude-sonnet-4-5" }).model).toBe("claude-sonnet-4-5");
    expect(parseConfig({ provider: "openai", base_url: "http://localhost:8080/v1", model: "llama3" }).model).toBe(
      "llama3",
    );
    expect(parseConfig({ model: "my-model", known_models: ["my-model"] }).model).toBe("my-model");
  });

  // Errors read as safecut's own (README: the error names the field), never as zod's defaults.
  it.each([
    [
      { provider: "offline", model: "zzz" },
      'model: unknown model "zzz" for provider offline: use "same as agent", "offline", an OpenAI or Anthropic model name, or list it in known_models',
    ],
    [
      { provider: "openai", model: "zzz" },
      'use "same as agent", an OpenAI model name (gpt-..., o1...), or list it in known_models',
    ],
    [{ timeout_ms: 0 }, "timeout_ms: must be >= 1, got 0"],
    [{ max_attempts: -2 }, "max_attempts: must be >= 1, got -2"],
    [{ max_tokens: 1e20 }, "max_tokens: must be a whole number of at most 9007199254740991, got 100000000000000000000"],
    [{ token_threshold: 1.5 }, "token_threshold: must be a whole number, got 1.5"],
    [{ token_threshold: "x" }, 'token_threshold: must be a whole number, got "x"'],
    [{ summary_tag: 3 }, "summary_tag: must be a string, got 3"],
    [{ provider: "gemini" }, 'provider: must be one of "offline", "openai", "anthropic", got "gemini"'],
    // settings are snake_case: the camelCase spelling of one (as a call's options are written) is named
    [
      { tokenThreshold: 8000 },
      "tokenThreshold: unknown setting; settings are snake_case: did you mean token_threshold?",
    ],
    [{ token_treshold: 8000 }, "token_treshold: unknown setting"],
  ])("says %j plainly", (input, message) => {
    expect(() => parseConfig(input as never)).toThrow(message);
    expect(() => parseConfig(input as never)).not.toThrow(/Too (big|small)|expected \w+, received|Invalid/);
  });

  it("snapshots are frozen copies", () => {
    const c = parseConfig({ anchors: ["keep me"] });
    const s = snapshotConfig(c);
    c.anchors.push("later");
    c.max_tokens = 5;
    expect(s.anchors).toEqual(["keep me"]);
    expect(s.max_tokens).toBe(2000);
    expect(Object.isFrozen(s)).toBe(true);
    expect(() => (s.anchors as string[]).push("x")).toThrow();
  });
});
