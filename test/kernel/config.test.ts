import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConfigView } from "../../src/kernel/config.ts";
import * as k from "../../src/kernel/config.ts";
import { configRules, validateConfig as ref } from "../../src/reference/config.ts";
import { int, RUNS } from "./gen.ts";

// Values cluster around each rule's boundary so that valid and invalid configurations both occur.
const edge = fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom(99_999, 100_000, 100_001), int);
const view: fc.Arbitrary<ConfigView> = fc.record({
  maxTokens: fc.oneof(edge, fc.integer({ min: 1, max: 100_000 })),
  tokenThresholdSet: fc.boolean(),
  tokenThreshold: edge,
  messageThresholdSet: fc.boolean(),
  messageThreshold: edge,
  turnThresholdSet: fc.boolean(),
  turnThreshold: edge,
  retentionWindow: edge,
  summaryTagLength: edge,
  modelKnown: fc.boolean(),
  contextWindowSet: fc.boolean(),
  contextWindow: edge,
  reserveTokens: edge,
  keepRecentTokensSet: fc.boolean(),
  keepRecentTokens: edge,
  softTokenThresholdSet: fc.boolean(),
  softTokenThreshold: fc.oneof(edge, fc.constantFrom(59_999, 60_000, 60_001)),
});
const valid: ConfigView = {
  maxTokens: 2000,
  tokenThresholdSet: true,
  tokenThreshold: 60000,
  messageThresholdSet: false,
  messageThreshold: 0,
  turnThresholdSet: false,
  turnThreshold: 0,
  retentionWindow: 6,
  summaryTagLength: 7,
  modelKnown: true,
  contextWindowSet: false,
  contextWindow: 0,
  reserveTokens: 16384,
  keepRecentTokensSet: false,
  keepRecentTokens: 0,
  softTokenThresholdSet: false,
  softTokenThreshold: 0,
};
// Mostly-valid views with one or two fields perturbed reach the later rules too.
const nearValid: fc.Arbitrary<ConfigView> = fc
  .tuple(view, fc.subarray(Object.keys(valid) as Array<keyof ConfigView>, { maxLength: 2 }))
  .map(([v, keys]) => {
    const out: ConfigView = { ...valid };
    for (const key of keys) (out as unknown as Record<string, unknown>)[key] = v[key];
    return out;
  });
const anyView = fc.oneof(view, nearValid);

const rule: Record<Exclude<k.ConfigField, "none">, (c: ConfigView) => boolean> = {
  maxTokens: k.maxTokensOk,
  tokenThreshold: k.tokenThresholdOk,
  messageThreshold: k.messageThresholdOk,
  turnThreshold: k.turnThresholdOk,
  trigger: k.thresholdsOk,
  retentionWindow: k.retentionWindowOk,
  summaryTag: k.summaryTagOk,
  model: k.modelOk,
  contextWindow: k.contextWindowOk,
  reserveTokens: k.reserveTokensOk,
  keepRecentTokens: k.keepRecentTokensOk,
  softTokenThreshold: k.softTokenThresholdOk,
};

describe("config (L12)", () => {
  it("validateConfig agrees with the reference", () => {
    fc.assert(
      fc.property(anyView, (c) => k.validateConfig(c) === ref(c)),
      { numRuns: RUNS },
    );
  });
  it("each rule agrees with the reference's rule", () => {
    fc.assert(
      fc.property(anyView, (c) => configRules(c).every(([field, ok]) => rule[field](c) === ok)),
      { numRuns: RUNS },
    );
  });
  it("ensures: none iff every rule holds; a named field breaks its rule and every earlier rule holds", () => {
    fc.assert(
      fc.property(anyView, (c) => {
        const got = k.validateConfig(c);
        const rules = configRules(c);
        if ((got === "none") !== rules.every(([, ok]) => ok)) return false;
        if ((got === "none") !== k.configOk(c)) return false;
        if (got === "none") return true;
        const i = rules.findIndex(([f]) => f === got);
        return !rule[got](c) && rules.slice(0, i).every(([, ok]) => ok);
      }),
      { numRuns: RUNS },
    );
  });
  it("reaches every verdict", () => {
    const seen = new Set<k.ConfigField>();
    fc.assert(
      fc.property(anyView, (c) => {
        seen.add(k.validateConfig(c));
      }),
      { numRuns: RUNS },
    );
    expect([...seen].sort()).toEqual(["none", ...Object.keys(rule)].sort());
  });
  it("the documented defaults are valid; a zero threshold and an empty tag are not", () => {
    expect(k.validateConfig(valid)).toBe("none");
    expect(k.validateConfig({ ...valid, tokenThreshold: 0 })).toBe("tokenThreshold");
    expect(k.validateConfig({ ...valid, tokenThresholdSet: false })).toBe("trigger");
    expect(k.validateConfig({ ...valid, summaryTagLength: 0 })).toBe("summaryTag");
    expect(k.validateConfig({ ...valid, maxTokens: k.maxTokensLimit() + 1 })).toBe("maxTokens");
  });
  it("a soft threshold lies below token_threshold and below the window's room after the reserve", () => {
    const soft = (n: number) => ({ ...valid, softTokenThresholdSet: true, softTokenThreshold: n });
    expect(k.validateConfig(soft(59_999))).toBe("none");
    expect(k.validateConfig(soft(60_000))).toBe("softTokenThreshold");
    expect(k.validateConfig(soft(0))).toBe("softTokenThreshold");
    const windowed = (n: number) => ({ ...soft(n), contextWindowSet: true, contextWindow: 100_000 });
    expect(k.validateConfig(windowed(59_999))).toBe("none");
    expect(k.validateConfig({ ...windowed(83_615), tokenThresholdSet: false })).toBe("none");
    expect(k.validateConfig({ ...windowed(83_616), tokenThresholdSet: false })).toBe("softTokenThreshold");
  });
});
