// The nesting check every message goes through: its fast verdict (no paths built) must be the
// verdict of the path-keeping walk, shared references and cycles included, and a value that
// fails must still be named by its path.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertEachNesting, MAX_NESTING, nestingFaultInValue } from "../../src/model/json-depth.ts";

/** Depth of `v` as the check counts it: plain recursion, each object counted at its first visit in the check's order. */
function tooDeepReference(v: unknown): boolean {
  const stack: [unknown, number][] = [[v, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [x, d0] = stack.pop() as [unknown, number];
    if (typeof x !== "object" || x === null || seen.has(x)) continue;
    seen.add(x);
    if (d0 + 1 > MAX_NESTING) return true;
    for (const y of Array.isArray(x) ? x : Object.values(x)) stack.push([y, d0 + 1]);
  }
  return false;
}

/** A chain of `depth` arrays/objects around `leaf`. */
function chain(depth: number, leaf: unknown, objects: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = objects && i % 2 === 0 ? { k: v, n: i } : [i, v];
  return v;
}

describe("nestingFaultInValue", () => {
  it("its verdict is the path-keeping walk's, on chains around the limit with shared parts", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_NESTING - 4, max: MAX_NESTING + 4 }),
        fc.integer({ min: 0, max: MAX_NESTING }),
        fc.boolean(),
        fc.boolean(),
        (deep, shallow, objects, share) => {
          const inner = chain(deep - shallow, "x", objects);
          // the same inner part reached at two depths: only its first visit counts
          const v = share ? [chain(shallow, inner, objects), inner] : chain(shallow, inner, objects);
          const path = nestingFaultInValue(v, "m");
          expect(path !== undefined).toBe(tooDeepReference(v));
          if (path !== undefined) expect(path.startsWith("m")).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a cycle is walked once and refused only if too deep", () => {
    const a: unknown[] = [1];
    a.push(a);
    expect(nestingFaultInValue(a, "m")).toBeUndefined();
    expect(nestingFaultInValue(chain(MAX_NESTING + 1, a, true), "m")).toBe("m.k[1].k[1].k[1].k...");
  });

  it("a value whose paths are exponentially many (every level shared twice) is judged without walking them all", () => {
    const diamond = (depth: number): unknown => {
      let v: unknown = { leaf: true };
      for (let i = 0; i < depth; i++) v = [v, v];
      return v;
    };
    const t0 = performance.now();
    expect(nestingFaultInValue(diamond(MAX_NESTING - 1), "m")).toBeUndefined();
    expect(nestingFaultInValue(diamond(MAX_NESTING + 1), "m")).toBe("m[1][1][1][1][1][1][1]...");
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});

describe("assertEachNesting", () => {
  it("names the first element too deep by its index, and accepts holes and plain values", () => {
    const ok = [{ a: [1, { b: 2 }] }, "text", null, undefined];
    expect(() => assertEachNesting(ok, "messages")).not.toThrow();
    const deep = [
      { a: 1 },
      chain(MAX_NESTING, "x", true),
      chain(MAX_NESTING + 1, "x", true),
      chain(MAX_NESTING + 5, "x", false),
    ];
    expect(() => assertEachNesting(deep, "messages")).toThrow(/^messages\[2\]\.k\[1\]/);
    const sparse: unknown[] = [];
    sparse[3] = chain(MAX_NESTING + 1, "x", false);
    expect(() => assertEachNesting(sparse, "messages")).toThrow(/^messages\[3\]\[1\]/);
  });

  it("judges own paths only: an inherited enumerable key too deep refuses nothing, an own one under it is still found", () => {
    // the fast walk reads inherited enumerable keys too (no own-key test per key): it may only
    // send a value on to the exact check, never clear one that check refuses
    const proto = { inherited: chain(MAX_NESTING + 3, "x", true) };
    const shallowOwn = Object.assign(Object.create(proto) as object, { role: "user", content: "hi" });
    expect(nestingFaultInValue(shallowOwn, "m")).toBeUndefined();
    expect(() => assertEachNesting([{ a: 1 }, shallowOwn], "messages")).not.toThrow();
    const deepOwn = Object.assign(Object.create(proto) as object, { own: chain(MAX_NESTING + 1, "x", false) });
    expect(() => assertEachNesting([shallowOwn, deepOwn], "messages")).toThrow(/^messages\[1\]\.own\[1\]/);
    // a deep inherited key beside a shallow own one with the same shape: the verdicts stay the reference's
    fc.assert(
      fc.property(fc.integer({ min: MAX_NESTING - 3, max: MAX_NESTING + 3 }), fc.boolean(), (depth, objects) => {
        const v = Object.assign(Object.create(proto) as object, { k: chain(depth, "x", objects) });
        expect(nestingFaultInValue(v, "m") !== undefined).toBe(tooDeepReference(v));
      }),
      { numRuns: 50 },
    );
  });
});
