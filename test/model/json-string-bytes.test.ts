// jsonStringBytes (message-bytes.ts) counts the UTF-8 bytes of a string's JSON text without
// building it: the same number as JSON.stringify then Buffer.byteLength, on any string; jsonBytes
// the same for any value (plain JSON data counted without building the text, anything else from it).
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

/** jsonBytes' answer, or the error it threw. */
function outcome(f: () => number): number | string {
  try {
    return f();
  } catch (e) {
    return `${(e as Error).constructor.name}`;
  }
}

describe("jsonBytes", () => {
  it("counts any JSON value as its JSON text's bytes (fast-check)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonBytes(v as never)).toBe(viaJson(v as never));
      }),
      { numRuns: 2000 },
    );
  });
  it("counts or refuses any value as JSON.stringify then Buffer.byteLength do: undefined, functions, symbols, -0, NaN, holes, toJSON, class instances, bigints (fast-check)", () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const odd = fc.oneof(
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant(Symbol("s")),
      fc.constant(-0),
      fc.constant(Number.NaN),
      fc.constant(Number.NEGATIVE_INFINITY),
      fc.constant(1e21),
      fc.constant(5e-7),
      fc.constant({ toJSON: () => ({ a: "é" }) }),
      fc.constant({ toJSON: "not a function" }),
      fc.constant(new Point(3)),
      fc.constant(new Date(0)),
      fc.constant(Object.create(null) as object),
      // a hole: an array of length 3 with nothing at index 1
      fc.constant(Object.assign(new Array<number>(3), { 0: 1, 2: 3 })),
      fc.constant(10n),
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 1 }),
        odd,
        fc.array(tie("v"), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie("v"), { maxKeys: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.oneof(fc.array(value, { maxLength: 4 }), fc.dictionary(fc.string(), value)), (v) => {
        expect(outcome(() => jsonBytes(v as never))).toEqual(outcome(() => viaJson(v as never)));
      }),
      { numRuns: 2000 },
    );
  });
  it("counts a value nested deeper than its walk goes from the JSON text", () => {
    let v: unknown = "leaf";
    for (let i = 0; i < 400; i++) v = i % 2 === 0 ? [v, 1] : { k: v, é: null };
    expect(jsonBytes(v as never)).toBe(viaJson(v as never));
  });
});
