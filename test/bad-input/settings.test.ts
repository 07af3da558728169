// The bad-input corpus for settings: fast-check mixes valid values with wrong types, NaN,
// infinities, negatives, fractions, unsafe integers and unknown keys. parseConfig must either
// return a configuration that satisfies every L12 rule (restated here independently) or throw a
// ConfigError naming the offending field; a compaction run with such settings must give a clear
// error or a lawful result; the settings object is never mutated.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { type Config, type ConfigInput, configSchema } from "../../src/model/config.ts";
import type { Json } from "../../src/model/json.ts";
import { openAIConversation } from "../support/generate.ts";
import { attempt, deepFreeze, expectClearError, expectLawfulResult } from "./judge.ts";

const KNOWN = Object.keys(configSchema.shape);
const UNKNOWN = ["maxTokens", "threshold", "retention", "__proto__x", "summaryTag"];

const badNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -1,
    0,
    -0,
    0.5,
    1e308,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 60),
  ),
  fc.constantFrom("100", "", "ten", true, false, [], {}),
) as fc.Arbitrary<Json>;
const goodNumber = fc.oneof(fc.integer({ min: 1, max: 200_000 }), fc.constant(null));

function valueFor(key: string): fc.Arbitrary<Json> {
  switch (key) {
    case "model":
      return fc.constantFrom("same as agent", "gpt-4o-mini", "claude-haiku-4-5", "llama-3", "", 5 as Json);
    case "prompt":
      return fc.constantFrom("Summarize {{conversation}} in <{{summary_tag}}>", "no placeholder", "", null as Json);
    case "summary_tag":
      return fc.constantFrom("summary", "s", "", " ", null as Json, 3 as Json);
    case "anchors":
    case "known_models":
      return fc.oneof(fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.constantFrom<Json>("x", [1], null));
    case "provider":
      return fc.constantFrom("offline", "openai", "anthropic", "gemini", "", null as Json);
    case "tokenizer":
      return fc.constantFrom("bpe", "chars", "words", null as Json);
    case "base_url":
      return fc.constantFrom("http://127.0.0.1:9", "https://h/v1", null, 7 as Json, "notaurl", "ftp://x/", "");
    default:
      return fc.oneof(goodNumber, badNumber);
  }
}

const settings: fc.Arbitrary<Record<string, Json>> = fc
  .uniqueArray(fc.constantFrom(...KNOWN, ...UNKNOWN), { maxLength: 6 })
  .chain((keys) =>
    fc.tuple(...keys.map((k) => valueFor(k))).map((vs) => Object.fromEntries(keys.map((k, i) => [k, vs[i]]))),
  );

/** The L12 rules and the schema's ranges, restated: what a configuration that parsed must satisfy. */
function expectValid(c: Config): void {
  const isCount = (x: number) => Number.isSafeInteger(x);
  const setOk = (x: number | null) => x === null || (isCount(x) && x >= 1);
  expect(isCount(c.max_tokens) && c.max_tokens >= 1 && c.max_tokens <= 100_000).toBe(true);
  expect(setOk(c.token_threshold) && setOk(c.message_threshold) && setOk(c.turn_threshold)).toBe(true);
  expect(
    c.token_threshold !== null ||
      c.message_threshold !== null ||
      c.turn_threshold !== null ||
      c.context_window !== null,
  ).toBe(true);
  expect(isCount(c.retention_window) && c.retention_window >= 1).toBe(true);
  expect(c.summary_tag.length).toBeGreaterThan(0);
  expect(setOk(c.context_window)).toBe(true);
  expect(isCount(c.reserve_tokens) && c.reserve_tokens >= 0).toBe(true);
  if (c.context_window !== null) expect(c.reserve_tokens).toBeLessThan(c.context_window);
  expect(setOk(c.keep_recent_tokens)).toBe(true);
  if (c.keep_recent_tokens !== null && c.context_window !== null)
    expect(c.keep_recent_tokens + c.reserve_tokens).toBeLessThan(c.context_window);
  expect(setOk(c.soft_token_threshold)).toBe(true);
  if (c.soft_token_threshold !== null && c.token_threshold !== null)
    expect(c.soft_token_threshold).toBeLessThan(c.token_threshold);
  if (c.soft_token_threshold !== null && c.context_window !== null)
    expect(c.soft_token_threshold + c.reserve_tokens).toBeLessThan(c.context_window);
  expect(isCount(c.timeout_ms) && c.timeout_ms >= 1).toBe(true);
  expect(c.prompt).toContain("{{conversation}}");
  expect(c.base_url === null || /^https?:\/\/./.test(c.base_url)).toBe(true);
  expect(isCount(c.max_attempts) && c.max_attempts >= 1).toBe(true);
}

describe("malformed settings", () => {
  it("parse to a configuration satisfying every rule, or fail naming the field; never mutated", () => {
    fc.assert(
      fc.property(settings, (s) => {
        const input = deepFreeze(s);
        const copy = structuredClone(input);
        let c: Config;
        try {
          c = parseConfig(input);
        } catch (e) {
          expectClearError(e, { fields: [...KNOWN, ...UNKNOWN, "(config)"] });
          return;
        }
        expect(input).toEqual(copy);
        expectValid(c);
      }),
      { numRuns: 3_000 },
    );
  });

  it("settings that are not an object at all fail with a clear error", () => {
    for (const v of [42, "max_tokens=5", [], [1], true, Number.NaN] as Json[]) {
      expect(() => parseConfig(v)).toThrow(/\(config\)|expected/);
      try {
        parseConfig(v);
      } catch (e) {
        expectClearError(e, { fields: ["(config)"] });
      }
    }
  });

  it("a compaction under malformed settings gives a clear error or a lawful result", async () => {
    const conversation = readOpenAIMessages(openAIConversation({ turns: 3, seed: 5 }));
    const frozen = deepFreeze(structuredClone(conversation));
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        // keep runs offline and fast: the provider is forced to the offline summarizer
        const input = deepFreeze({ ...s, provider: "offline", tokenizer: "chars" });
        // malformed on purpose: the library must judge what a JavaScript caller could pass
        const r = await attempt(() => compactMessages(frozen, input as unknown as ConfigInput));
        if (!r.ok) {
          expectClearError(r.error, { fields: [...KNOWN, ...UNKNOWN, "(config)"] });
          return;
        }
        expectLawfulResult(frozen, r.value.messages, r.value.report);
      }),
      { numRuns: 400 },
    );
    expect(frozen).toEqual(conversation);
  });
});
