// The span-keeping JSON scanner: same values and same accept/refuse verdicts as JSON.parse, spans
// that cut out exactly each object's and array's text, and no call-stack limit on nesting.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactJsonText, JsonSyntaxError, parseJsonText, type SpanMap } from "../../src/adapters/json-text.ts";
import type { Json } from "../../src/model/json.ts";

// JSON texts with random whitespace, escapes and number spellings
const ws = fc.constantFrom("", " ", "\n", "\r\n", "\t", "  \n    ");
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom("1.50", "1E3", "-0", "0.0e-5", "12345678901234567890", "2e+308", "-1.5e-7"),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);
const stringText = fc.oneof(
  fc.string().map((s) => JSON.stringify(s)),
  fc.constantFrom('"caf\\u00e9"', '"a\\/b\\n\\"q\\""', '"\\ud83d\\ude00"'),
);
const jsonText: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    numberText,
    stringText,
    fc.constantFrom("true", "false", "null"),
    fc
      .tuple(fc.array(fc.tuple(ws, tie("v"), ws), { maxLength: 4 }), ws)
      .map(([xs, w]) => (xs.length === 0 ? `[${w}]` : `[${xs.map(([a, v, b]) => a + v + b).join(",")}]`)),
    fc
      .tuple(fc.array(fc.tuple(ws, stringText, ws, ws, tie("v"), ws), { maxLength: 4 }), ws)
      .map(([xs, w]) =>
        xs.length === 0 ? `{${w}}` : `{${xs.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(",")}}`,
      ),
  ),
})).v;

function verdict(f: () => Json): { ok: true; value: Json } | { ok: false } {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof JsonSyntaxError) return { ok: false };
    throw e;
  }
}

describe("parseJsonText", () => {
  it("gives JSON.parse's value, and each container's span parses to that container", () => {
    fc.assert(
      fc.property(ws, jsonText, ws, (a, t, b) => {
        const text = a + t + b;
        const spans: SpanMap = new Map();
        const r = parseJsonText(text, spans);
        expect(r.value).toEqual(JSON.parse(text));
        expect(text.slice(r.start, r.end)).toBe(t);
        for (const [obj, s] of spans) expect(JSON.parse(text.slice(s.start, s.end))).toEqual(obj);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts and refuses what JSON.parse does (texts with a character cut, added or changed)", () => {
    const edit = fc.tuple(
      jsonText,
      fc.nat(),
      fc.constantFrom("", ",", "]", "}", '"', "0", "-", ".", "e", "\\", "\u0001", "x", "tru"),
    );
    fc.assert(
      fc.property(edit, ([t, k, ins]) => {
        const at = t.length === 0 ? 0 : k % t.length;
        for (const text of [t.slice(0, at) + ins + t.slice(at + 1), t.slice(0, at) + ins + t.slice(at)]) {
          const mine = verdict(() => parseJsonText(text, new Map()).value);
          const native = verdict(() => JSON.parse(text) as Json);
          expect(mine.ok, text).toBe(native.ok);
          if (mine.ok && native.ok) expect(mine.value).toEqual(native.value);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps __proto__ as an own key and the last of duplicate keys, as JSON.parse does", () => {
    const text = '{"__proto__":{"x":1},"a":1,"a":2}';
    const v = parseJsonText(text, new Map()).value;
    expect(v).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v as object)).toEqual(["__proto__", "a"]);
  });

  it("reads nesting far deeper than the call stack allows", () => {
    const depth = 100_000;
    const text = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    let v = parseJsonText(text, new Map()).value;
    let n = 0;
    while (Array.isArray(v)) {
      v = v[0];
      n++;
    }
    expect([n, v]).toEqual([depth, 1]);
  });

  it("says where the text is malformed", () => {
    expect(() => parseJsonText('{"a": [1, 2,]}', new Map())).toThrow(JsonSyntaxError);
    try {
      parseJsonText('{"a": [1, 2,]}', new Map());
    } catch (e) {
      expect((e as JsonSyntaxError).offset).toBe(12);
      expect((e as JsonSyntaxError).message).toMatch(/unexpected "]"/);
    }
  });
});

describe("compactJsonText", () => {
  it("drops whitespace between tokens and keeps every token as written", () => {
    fc.assert(
      fc.property(jsonText, (t) => {
        const c = compactJsonText(t, 0, t.length);
        expect(JSON.parse(c)).toEqual(JSON.parse(t));
        expect(c).not.toMatch(/^\s|\s$/);
        expect(compactJsonText(c, 0, c.length)).toBe(c);
      }),
      { numRuns: 300 },
    );
    const spaced = '{ "n" : 12345678901234567890 , "s": " a b " }';
    expect(compactJsonText(spaced, 0, spaced.length)).toBe('{"n":12345678901234567890,"s":" a b "}');
  });
});
