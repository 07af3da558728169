// jsonStringBytes (message-bytes.ts) counts the UTF-8 bytes of a string's JSON text without
// building it: the same number as JSON.stringify then Buffer.byteLength, on any string.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonBytes, jsonStringBytes } from "../../src/model/message-bytes.ts";

const viaJson = (s: string) => Buffer.byteLength(JSON.stringify(s), "utf8");

describe("jsonStringBytes", () => {
  it("counts escapes, controls, multi-byte characters, pairs and lone surrogates as JSON.stringify writes them", () => {
    for (const s of [
      "",
      "plain",
      'a"b\\c',
      "\b\t\n\f\r",
      "\u0000\u0001\u001f\u007f",
      "é中😀",
      "\ud800",
      "x\udc00y",
      "\ud83d",
      "\udc00\ud800",
    ])
      expect(jsonStringBytes(s)).toBe(viaJson(s));
  });
  it("equals the JSON text's bytes on any string of code units (fast-check)", () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (codes) => {
        const s = String.fromCharCode(...codes);
        expect(jsonStringBytes(s)).toBe(viaJson(s));
        expect(jsonBytes(s)).toBe(viaJson(s));
      }),
      { numRuns: 2000 },
    );
  });
});
