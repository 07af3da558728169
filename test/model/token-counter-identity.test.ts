// The counter a configuration names is one object per name: a session keeps its running token
// counts per counter object (session-context.ts), so a step that names its counter again (each
// compact() under a configuration's tokenizer) finds the counts it kept instead of counting the
// whole context again under a new object.
import { describe, expect, it } from "vitest";
import { bpeCounter, charCounter, tokenCounter } from "../../src/model/tokens.ts";

describe("tokenCounter", () => {
  it("gives the same counter object for the same name, every call", () => {
    expect(tokenCounter("bpe")).toBe(tokenCounter("bpe"));
    expect(tokenCounter("chars")).toBe(tokenCounter("chars"));
    expect(bpeCounter()).toBe(bpeCounter());
    expect(tokenCounter("bpe")).not.toBe(charCounter());
    expect(tokenCounter("bpe").count("hello world")).toBe(2);
  });
});
