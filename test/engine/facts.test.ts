import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  containedFacts,
  errorMessages,
  factTokens,
  filePaths,
  identifiers,
  requiredFacts,
} from "../../src/engine/summarize/facts.ts";
import { validateSummary } from "../../src/engine/summarize/validate-summary.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";

describe("required facts", () => {
  const text =
    "Reading src/engine/tokens.ts, ./bin/safecut.js and package.json (see https://example.com/a/b.html, and/or docs). Calling readConversationFile with MAX_RETRIES and token_threshold on TokenLedger.";
  it("finds file paths, not URLs or prose", () => {
    expect(filePaths(text)).toEqual(["src/engine/tokens.ts", "./bin/safecut.js", "package.json"]);
  });
  it("counts the tokens the facts take in a summary: none for none, else the facts as one text by the counter", () => {
    expect(factTokens([], charCounter())).toBe(0);
    // "src/a.ts readConfig" is 19 characters: ceil(19 / 4) with the chars counter
    expect(factTokens(["src/a.ts", "readConfig"], charCounter())).toBe(5);
    expect(factTokens(["src/a.ts"], { name: "chars", count: () => 7 })).toBe(7);
  });
  it("finds identifiers", () => {
    expect(identifiers(text)).toEqual(["readConversationFile", "MAX_RETRIES", "token_threshold", "TokenLedger"]);
  });
  it("finds error messages up to the line end", () => {
    expect(
      errorMessages("ok\nTypeError: x is undefined\nsrc/a.ts(1,2): error TS2304: Cannot find name 'q'.\nno error here"),
    ).toEqual(["TypeError: x is undefined", "error TS2304: Cannot find name 'q'."]);
  });
  it("takes paths and identifiers from the agent's words, errors from tool output too, plus anchors", () => {
    const stretch: Message[] = [
      {
        role: "assistant",
        content: "Open src/app.ts",
        toolCalls: [{ id: "1", name: "read_file", arguments: '{"path":"lib/util.ts"}' }],
      },
      {
        role: "tool",
        toolCallId: "1",
        content: "export const someHelper = 1; // in other/file.ts\nRangeError: too deep\nDEADLINE 5pm",
      },
    ];
    expect(requiredFacts(stretch, ["DEADLINE 5pm", "absent"])).toEqual([
      "src/app.ts",
      "lib/util.ts",
      "read_file",
      "RangeError: too deep",
      "DEADLINE 5pm",
    ]);
  });
});

describe("summary validation", () => {
  const lim = { replacedTokens: 100, maxTokens: 50, requiredFacts: ["a.ts"], counter: charCounter() };
  it("accepts a short summary with the facts", () => {
    expect(validateSummary("edited a.ts", lim)).toMatchObject({ ok: true });
  });
  it("rejects empty, too long, over max_tokens, missing facts", () => {
    expect(validateSummary(" ", lim)).toMatchObject({ ok: false, reason: "the summary is empty" });
    expect(validateSummary(`a.ts ${"x".repeat(400)}`, lim)).toMatchObject({ ok: false });
    expect(validateSummary(`a.ts ${"x".repeat(300)}`, lim).ok).toBe(false);
    expect(validateSummary(`a.ts ${"x".repeat(300)}`, { ...lim, replacedTokens: 1000 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("exceeds max_tokens"),
    });
    expect(validateSummary("edited b.ts", lim)).toMatchObject({
      ok: false,
      reason: 'the summary dropped required facts: "a.ts"',
    });
  });
});

describe("requiredFacts on a huge message", () => {
  // one message naming 200k distinct identifiers: spreading them into one push overflowed the
  // call stack (RangeError), and the containment filter compared every fact with every other
  it("lists 200k facts of one message, in seconds", () => {
    const names = Array.from({ length: 200_000 }, (_, i) => `handler_${i}x`);
    const m: Message = { role: "assistant", content: names.join(" "), toolCalls: [] };
    const started = performance.now();
    const facts = requiredFacts([m], []);
    expect(facts).toHaveLength(200_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("still drops a fact contained in a longer one, and keeps first-seen order", () => {
    const m: Message = {
      role: "assistant",
      content: "readConfig then TypeError: readConfig failed in src/config/load.ts and load_config",
      toolCalls: [],
    };
    expect(requiredFacts([m], ["load_config", "src/config", "then"])).toEqual([
      "TypeError: readConfig failed in src/config/load.ts and load_config",
      "then",
    ]);
  });

  it("finds the same contained facts by comparing pairs (few facts) as by rolling hashes (many)", () => {
    // short strings over a small alphabet, so that many are inside others
    const fact = fc.string({ unit: fc.constantFrom("a", "b", "/", "_"), minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.uniqueArray(fact, { maxLength: 60 }), (xs) => {
        const facts = new Set(xs);
        const pairs = containedFacts(facts, Number.POSITIVE_INFINITY);
        const hashed = containedFacts(facts, 0);
        expect([...pairs].sort()).toEqual([...hashed].sort());
        // the pairs' answer by definition: inside some longer fact
        for (const f of facts) expect(pairs.has(f)).toBe(xs.some((g) => g.length > f.length && g.includes(f)));
      }),
      { numRuns: 300 },
    );
  });
});
