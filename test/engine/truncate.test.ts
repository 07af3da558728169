import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { truncateToolOutput } from "../../src/engine/tool-output/truncate.ts";

describe("tool output truncation (L11)", () => {
  const text = ["one", "two", "three", "four", "five"].join("\n");
  it("keeps the head or the tail by lines", () => {
    expect(truncateToolOutput(text, { maxLines: 2, maxBytes: 1000 })).toEqual({
      text: "one\ntwo",
      truncated: true,
      keptLines: 2,
      omittedLines: 3,
    });
    expect(truncateToolOutput(text, { maxLines: 2, maxBytes: 1000, keep: "tail" }).text).toBe("four\nfive");
  });
  it("stops at the byte budget first when it is tighter (UTF-8 bytes)", () => {
    expect(truncateToolOutput(text, { maxLines: 5, maxBytes: 8 }).text).toBe("one\ntwo");
    expect(truncateToolOutput("ééé\nb", { maxLines: 5, maxBytes: 6 }).text).toBe("ééé");
    expect(truncateToolOutput(text, { maxLines: 10, maxBytes: 1000 }).truncated).toBe(false);
  });
  it("rejects negative budgets naming them", () => {
    expect(() => truncateToolOutput(text, { maxLines: -1, maxBytes: 5 })).toThrow("maxLines");
  });
  it("never exceeds either budget", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 30 }),
        fc.nat(40),
        fc.nat(200),
        fc.boolean(),
        (lines, maxLines, maxBytes, tail) => {
          const r = truncateToolOutput(lines.join("\n"), { maxLines, maxBytes, keep: tail ? "tail" : "head" });
          expect(Buffer.byteLength(r.text, "utf8")).toBeLessThanOrEqual(maxBytes);
          expect(r.keptLines).toBeLessThanOrEqual(maxLines);
        },
      ),
      { numRuns: 300 },
    );
  });
});
