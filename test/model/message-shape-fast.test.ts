// The hand-written shape check (hasMessageShape) must give the schema's verdict on every value:
// if it accepted something the schema rejects, validation would have become laxer. Generated
// messages start valid and have fields replaced by near misses (wrong kinds, NaN, -0, unsafe
// integers, holes, arrays where objects belong, missing fields); both verdicts must agree on each.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasMessageShape, messageSchema } from "../../src/model/message-shape.ts";

const MISSING = Symbol("missing");

// values that sit next to valid ones for some field
const nearMiss = fc.constantFrom<unknown>(
  MISSING,
  undefined,
  null,
  "",
  "x",
  "openai",
  "anthropic",
  "user",
  "tool",
  "summary",
  "Assistant",
  0,
  -0,
  -1,
  -2,
  1,
  1.5,
  -1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 53,
  -(2 ** 53),
  2 ** 53 - 1,
  true,
  false,
  [],
  [1],
  ["a"],
  [undefined],
  // biome-ignore lint/suspicious/noSparseArray: a sparse array is one of the inputs under test
  [1, , 2],
  {},
  { id: "a", name: "f", arguments: "{}" },
  new Date(0),
  10n,
);

const str = fc.string({ maxLength: 4 });
const validCall = fc.record({ id: str, name: str, arguments: str });
const call = fc.oneof(
  validCall,
  nearMiss,
  fc.record({ id: fc.oneof(str, nearMiss), name: fc.oneof(str, nearMiss), arguments: fc.oneof(str, nearMiss) }),
);
const validSource = fc.record(
  {
    format: fc.constantFrom("openai", "anthropic"),
    index: fc.integer({ min: -1, max: 1000 }),
    raw: fc.jsonValue(),
    parts: fc.integer({ min: 1, max: 5 }),
    blocks: fc.option(fc.oneof(str, fc.array(fc.jsonValue(), { maxLength: 3 })), { nil: undefined }),
  },
  { requiredKeys: ["format", "index", "raw", "parts"] },
);
const source = fc.oneof(
  validSource,
  nearMiss,
  fc.record({
    format: fc.oneof(fc.constantFrom("openai", "anthropic"), nearMiss),
    index: fc.oneof(fc.integer({ min: -3, max: 3 }), nearMiss),
    raw: fc.oneof(fc.jsonValue(), nearMiss),
    parts: fc.oneof(fc.integer({ min: -1, max: 3 }), nearMiss),
    blocks: fc.oneof(str, fc.array(fc.oneof(fc.jsonValue(), nearMiss), { maxLength: 3 }), nearMiss),
  }),
);

/** One field of a message: a valid value or a near miss (MISSING drops the key). */
const field = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: nearMiss, weight: 1 });

const message = fc
  .record({
    role: fc.oneof(
      { arbitrary: fc.constantFrom("system", "user", "assistant", "tool", "summary"), weight: 6 },
      { arbitrary: nearMiss, weight: 1 },
    ),
    content: field(str),
    toolCalls: fc.oneof({ arbitrary: fc.array(call, { maxLength: 3 }), weight: 4 }, { arbitrary: nearMiss, weight: 1 }),
    toolCallId: field(str),
    isError: fc.oneof(fc.constant(MISSING), fc.boolean(), nearMiss),
    source: fc.oneof({ arbitrary: fc.constant(MISSING), weight: 2 }, { arbitrary: source, weight: 3 }),
    extra: fc.oneof(fc.constant(MISSING), fc.jsonValue()),
  })
  .map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) if (v !== MISSING) out[k] = v;
    return out;
  });

const candidate = fc.oneof(
  { arbitrary: message, weight: 20 },
  { arbitrary: nearMiss, weight: 1 },
  { arbitrary: fc.array(message, { maxLength: 1 }), weight: 1 },
);

describe("hasMessageShape gives the schema's verdict", () => {
  it("on generated valid and near-valid messages", () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(candidate, (m) => {
        const zod = messageSchema.safeParse(m).success;
        expect(hasMessageShape(m), fc.stringify(m)).toBe(zod);
        if (zod) accepted++;
        else rejected++;
      }),
      { numRuns: 20_000 },
    );
    // both verdicts are exercised in earnest
    expect(accepted).toBeGreaterThan(2_000);
    expect(rejected).toBeGreaterThan(2_000);
  });

  it("on hand-picked edge cases", () => {
    const ok = { role: "user", content: "x" };
    const src = { format: "openai", index: 0, raw: null, parts: 1 };
    const cases: unknown[] = [
      ok,
      { ...ok, source: src },
      { ...ok, source: { ...src, index: -0 } },
      { ...ok, source: { ...src, index: -1 } },
      { ...ok, source: { ...src, raw: undefined } },
      { ...ok, source: { ...src, index: 2 ** 53 } },
      { ...ok, source: { ...src, parts: 0 } },
      { ...ok, source: { ...src, blocks: [null, 0] } },
      { ...ok, source: { ...src, blocks: new Array(2) } },
      { ...ok, source: [] },
      { ...ok, source: undefined },
      { role: "tool", content: "", toolCallId: "c", isError: undefined },
      { role: "assistant", content: "", toolCalls: new Array(1) },
      { role: "assistant", content: "", toolCalls: [[]] },
      Object.assign(Object.create({ content: "inherited" }), { role: "user" }),
      [ok],
      "user",
      null,
      undefined,
    ];
    for (const m of cases) expect(hasMessageShape(m), fc.stringify(m)).toBe(messageSchema.safeParse(m).success);
  });
});
