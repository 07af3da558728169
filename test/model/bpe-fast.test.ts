// The BPE counter counts by pre-token (o200k_base's split, then a table of pre-token counts) and
// must give exactly the tokenizer's o200k_base count; its split (a scanner for ASCII, the regex
// for the rest, over the text in windows) must end every pre-token where gpt-tokenizer's own
// split pattern does. Generated texts mix every class the split
// pattern tells apart (upper and lower letters, digits, spaces, tabs, newlines, the contraction
// suffixes, '/', punctuation, control characters); the corpus is real-looking text, code, JSON,
// hashes, CJK and emoji. No text here has a run longer than BPE_MAX_RUN, so the counter's count
// is meant to be exact.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { describe, expect, it } from "vitest";
import { countO200k } from "../../src/model/o200k-count.ts";
import { BPE_MAX_RUN, bpeCounter, bpePieces } from "../../src/model/tokens.ts";

const exact = (text: string) => countTokens(text, { disallowedSpecial: new Set<string>() });

/** Where the tokenizer's own split (gpt-tokenizer's o200k_base pattern) ends each pre-token. */
const splitEnds = (text: string) => [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map((m) => m.index + m[0].length);

const atoms = [
  "a",
  "z",
  "A",
  "Z",
  "ab",
  "AB",
  "Ab",
  "aB",
  "0",
  "7",
  "12",
  "1234",
  " ",
  "  ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\v",
  "\f",
  "'",
  "'s",
  "'S",
  "'t",
  "'ll",
  "'LL",
  "'lL",
  "'ve",
  "'re",
  "'d",
  "'m",
  "'x",
  "/",
  "//",
  ".",
  ",",
  "_",
  "-",
  "{",
  "}",
  '"',
  "\\",
  "<|endoftext|>",
  "é",
  "É",
  "ß",
  "日本",
  "😀",
  "\u00a0",
  "\u2028",
  "\u0301",
  "٣",
  "\u0000",
  "\u001f",
  "\u007f",
  "=>",
  "...",
  "#",
  "@",
  "~",
];
const atomText = fc.array(fc.constantFrom(...atoms), { maxLength: 40 }).map((xs) => xs.join(""));
const anyAscii = fc.string({
  unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const anyText = fc.string({ unit: "grapheme", maxLength: 30 });

function corpus(): string[] {
  const root = join(import.meta.dirname, "..", "..");
  const texts: string[] = [];
  for (const f of [
    "src/engine/store/store.ts",
    "src/kernel/stretch.ts",
    "README.md",
    "proofs/PROPERTIES.md",
    "package.json",
    "bench/RESULTS.md",
  ]) {
    const t = readFileSync(join(root, f), "utf8");
    for (let i = 0; i < t.length; i += 2_000) texts.push(t.slice(i, i + 2_000));
  }
  let x = 7;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < 50; i++) {
    texts.push(Array.from({ length: 8 }, () => next().toString(16).padStart(8, "0")).join("")); // a sha-like hash
    texts.push(
      `commit ${next().toString(36)}${next().toString(36)} Author: dev <d@x.io> {"id":${next()},"ok":true,"path":"src/f${i}.ts"}`,
    );
    texts.push(Buffer.from(String(next()).repeat(6)).toString("base64"));
  }
  texts.push(
    "吾輩は猫である。名前はまだ無い。机器学习是人工智能的一个分支。한국어 텍스트도 있습니다.",
    "deploy ok ✅ 🚀🔥 👍🏽 👨‍👩‍👧 🇯🇵 café naïve — “quotes”",
  );
  return texts;
}

describe("the BPE counter gives the tokenizer's exact o200k_base count", () => {
  it("on generated texts of every character class", () => {
    fc.assert(
      fc.property(fc.oneof(atomText, anyAscii, anyText, fc.string({ unit: "binary", maxLength: 20 })), (text) => {
        expect(bpePieces(text)).toHaveLength(1);
        expect(bpeCounter().count(text), JSON.stringify(text)).toBe(exact(text));
        const ends: number[] = [];
        countO200k(text, undefined, ends);
        expect(ends, JSON.stringify(text)).toEqual(splitEnds(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it("on a corpus of text, code, JSON, hashes, CJK and emoji, counted twice (cold and cached)", () => {
    const texts = corpus();
    expect(texts.length).toBeGreaterThan(150);
    for (let round = 0; round < 2; round++) {
      for (const text of texts) expect(bpeCounter().count(text), JSON.stringify(text.slice(0, 80))).toBe(exact(text));
    }
  });

  it("with the text read in windows of any size, so that every kind of pre-token straddles a window's end", () => {
    const texts = fc.oneof(atomText, anyAscii, anyText, fc.constantFrom(...corpus().slice(0, 40)));
    const check = (text: string, window: number) => {
      const ends: number[] = [];
      const what = `${JSON.stringify(text)} in windows of ${window}`;
      expect(countO200k(text, window, ends), what).toBe(exact(text));
      expect(ends, what).toEqual(splitEnds(text));
      expect(countO200k(text, window), what).toBe(exact(text)); // without ends: with the stretch table
    };
    fc.assert(fc.property(texts, fc.integer({ min: 1, max: 64 }), check), { numRuns: 3_000 });
    // a pre-token longer than the window: punctuation followed by a long tail of line breaks and slashes
    for (const window of [1, 2, 3, 7, 16]) check(`x}${"\n/".repeat(40)} y`, window);
  });

  it("on the whole corpus as one text, longer than the counter's window", () => {
    const text = corpus().join(" ");
    expect(text.length).toBeGreaterThan(100_000);
    expect(bpePieces(text)).toHaveLength(1);
    expect(bpeCounter().count(text)).toBe(exact(text));
  });

  it("a text with a run longer than BPE_MAX_RUN anywhere is counted in bpePieces' pieces", () => {
    // the counter looks for long runs at sample points only; a run at any offset must still be found
    const run = fc.constantFrom("a", "Z", "é", "日", "-", "😀", " ", "\n", "7");
    fc.assert(
      fc.property(atomText, run, fc.integer({ min: BPE_MAX_RUN + 1, max: 3 * BPE_MAX_RUN }), atomText, (a, r, n, b) => {
        const text = `${a}${r.repeat(Math.ceil(n / r.length)).slice(0, n)}${b}`;
        const pieces = bpePieces(text);
        expect(pieces.length).toBeGreaterThan(1);
        expect(bpeCounter().count(text)).toBe(pieces.reduce((sum, piece) => sum + exact(piece), 0));
      }),
      { numRuns: 300 },
    );
  });
});
