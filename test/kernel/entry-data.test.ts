// The `safecut/kernel` entry hands the kernel plain data: a caller's array whose elements change
// between reads (a Proxy, a getter) cannot make a proven ensures false, because the entry reads
// each element once into a copy and the kernel reads only the copy (src/entries/kernel-data.ts).
// The probes check the ensures against the values the FIRST read of each element returned: the
// only values a single snapshot can have seen.
import { describe, expect, it } from "vitest";
import * as entry from "../../src/entries/kernel.ts";
import type { Role } from "../../src/kernel/roles.ts";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import { batchFreed } from "../../src/reference/batch.ts";

/** An array that answers `first` at an index's first read and `later` at every read after it; it records the first reads. */
function shifting(n: number, first: number, later: number): { xs: number[]; seen: number[] } {
  const reads = new Array<number>(n).fill(0);
  const seen: number[] = [];
  const xs = new Proxy(new Array<number>(n).fill(first), {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) {
        const i = Number(key);
        reads[i] += 1;
        if (reads[i] === 1) seen[i] = first;
        return reads[i] === 1 ? first : later;
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { xs, seen };
}

// user, then (assistant, user) five times: five one-message stretches at 1, 3, 5, 7, 9
const roles: Role[] = ["user", ...Array.from({ length: 5 }, (): Role[] => ["assistant", "user"]).flat()];
const n = roles.length;
const none = new Array<number>(n).fill(-1);
const idle = new Array<boolean>(n).fill(false);

describe("safecut/kernel reads each argument once (plain data)", () => {
  it("planBatch on tokens that change after their first read: the plan meets its ensures on what was read", () => {
    const { xs, seen } = shifting(n, 1000, 0);
    const plan = entry.planBatch(roles, none, none, idle, 1, xs, 0, [], [], 1500, 0, 0);
    // on the first-read values each stretch frees 1000: two meet the need of 1500, and the
    // ensures says no stretch is planned once the ones before it free the need
    for (let k = 0; 2 * k + 1 < plan.length; k++) expect(batchFreed(seen, plan, 0, 0, k)).toBeLessThan(1500);
    expect(plan).toEqual([1, 2, 3, 4]);
  });

  it("getters on elements are read once: the kernel decides on those values", () => {
    const tokens = new Array<number>(n).fill(1000);
    let reads = 0;
    for (const i of [1, 3]) {
      let mine = 0;
      Object.defineProperty(tokens, i, {
        get: () => {
          reads += 1;
          mine += 1;
          return mine === 1 ? 1000 : 0;
        },
      });
    }
    // two stretches of 1000 meet the need; read again as 0 they would not, and the plan would go on
    expect(entry.planBatch(roles, none, none, idle, 1, tokens, 0, [], [], 1500, 0, 0)).toEqual([1, 2, 3, 4]);
    expect(reads).toBe(2);
  });

  it("what is not data is refused, naming the argument", () => {
    const bad = [1, (() => 2) as unknown as number];
    expect(() => entry.totalTokens(bad)).toThrow(KernelBoundaryError);
    expect(() => entry.totalTokens(bad)).toThrow(/xs\[1\] to be plain data: a function is not data/);
  });

  it("a broken requires is refused on the copy, naming it", () => {
    expect(() => entry.rangeTokens([1, 2, 3], 2, 1)).toThrow(/kernel boundary: rangeTokens requires/);
  });

  it("values the kernel only moves keep their identity (splice's T)", () => {
    const a = { id: "a" };
    const b = { id: "b" };
    const s = { id: "summary" };
    const out = entry.splice([a, b, a], 1, 2, s);
    expect(out[0]).toBe(a);
    expect(out[1]).toBe(s);
    expect(out[2]).toBe(a);
  });
});
