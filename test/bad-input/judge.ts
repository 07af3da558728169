// Shared verdicts for the bad-input corpus: every malformed input must end in a clear error (a
// SafecutError whose message names the field or JSON path) or a correct result, never in a
// crash without a message (TypeError, RangeError, a kernel-boundary error), and no input object
// may be touched (inputs are deep-frozen, so a write throws, and compared with a clone after).
import fc from "fast-check";
import { expect } from "vitest";
import { itemMapOf } from "../../src/engine/run/item-map.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { ConfigError, InputError, KernelBoundaryError, SafecutError } from "../../src/model/errors.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import type { Message } from "../../src/model/message.ts";
import { counted } from "../support/laws.ts";

/** Freezes a value and everything reachable from it; returns it. */
export function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** A JSON path as the adapters write it: messages[3].content[0].type, system, line 4. */
const JSON_PATH = /^(messages|system|line \d+)(\[\d+\])?(\.[A-Za-z_]+|\[\d+\])*$/;

/** The error is one safecut raises on purpose and its message says where the problem is. */
export function expectClearError(e: unknown, known: { fields?: readonly string[] } = {}): void {
  if (!(e instanceof SafecutError)) {
    // a crash: show the stack so the failing case is easy to trace
    throw new Error(`not a clear error: ${e instanceof Error ? e.stack : String(e)}`);
  }
  expect(e).not.toBeInstanceOf(KernelBoundaryError); // ill-formed input must be stopped before the kernel
  expect(e.kind === "input" || e.kind === "config" || e.kind === "usage").toBe(true);
  expect(e.message.trim().length).toBeGreaterThan(10);
  if (e instanceof InputError) {
    if (e.path !== "") {
      expect(e.path).toMatch(JSON_PATH);
      expect(e.message.startsWith(`${e.path}: `)).toBe(true);
    } else {
      // only whole-input problems have no path: empty input, not JSON at all, wrong top-level shape
      expect(e.message).toMatch(/input is empty|invalid JSON|expected an array of messages/);
    }
  }
  if (e instanceof ConfigError) {
    expect(e.field.length).toBeGreaterThan(0);
    expect(e.message.startsWith(`${e.field}: `)).toBe(true);
    if (known.fields) {
      // a field or a path into one (known_models.0), or several unknown keys at once
      for (const f of e.field.split(", "))
        expect(known.fields, `field ${f} named by: ${e.message}`).toContain(f.split(".")[0]);
    }
  }
}

/** Runs `f`, returning its value or the error it threw (sync or async). */
export async function attempt<T>(
  f: () => T | Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await f() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A compaction result is correct: the engine's law checks pass and the report is consistent. */
export function expectLawfulResult(
  before: readonly Message[],
  after: readonly Message[],
  report: CompactionReport,
): void {
  expect(report.laws.filter((l) => !l.ok)).toEqual([]);
  const prot = (ms: readonly Message[]) =>
    ms.filter((m) => m.role === "user" || m.role === "system").map((m) => m.content);
  expect(prot(after)).toEqual(prot(before));
  // counted in the input's own messages (an Anthropic message is one however many blocks)
  expect(report.messagesAfter).toBe(itemMapOf(after).items);
  if (report.stretches.length > 0) expect(counted(report.tokensAfter)).toBeLessThan(counted(report.tokensBefore));
  else expect(after.length).toBe(before.length);
}

/** Values of the wrong type (or out of range) for any field. */
export const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 1e308, 2 ** 53 + 1, -0),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    "",
    "robot",
    "Tool",
    "function",
    "developer",
    "system",
    "tool_use",
    "tool_result",
    "image",
    "<summary>x</summary>",
  ),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(
    fc.constantFrom("type", "text", "id", "role", "x"),
    fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
    { maxKeys: 3 },
  ),
) as fc.Arbitrary<Json>;

type Slot = { parent: JsonObject | Json[]; key: string | number };

/** Every (container, key) slot of a JSON tree, in document order. */
export function slots(root: Json): Slot[] {
  const out: Slot[] = [];
  const walk = (v: Json) => {
    if (Array.isArray(v))
      v.forEach((x, i) => {
        out.push({ parent: v, key: i });
        walk(x);
      });
    else if (typeof v === "object" && v !== null)
      for (const k of Object.keys(v)) {
        out.push({ parent: v, key: k });
        walk(v[k]);
      }
  };
  walk(root);
  return out;
}

/** One generic corruption of a JSON tree: delete a slot, replace it with junk, or copy another slot's value into it. */
export type Corruption =
  | { kind: "delete"; at: number }
  | { kind: "replace"; at: number; value: Json }
  | { kind: "copy"; at: number; from: number };

export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: junk }),
  fc.record({ kind: fc.constant("copy" as const), at: fc.nat(), from: fc.nat() }),
);

/** Applies corruptions to a (mutable, fresh) JSON tree in place; slot indices wrap around. */
export function corrupt(root: Json, cs: readonly Corruption[]): void {
  for (const c of cs) {
    const all = slots(root);
    if (all.length === 0) return;
    const s = all[c.at % all.length];
    if (c.kind === "delete") {
      if (Array.isArray(s.parent)) s.parent.splice(Number(s.key), 1);
      else delete s.parent[String(s.key)];
    } else {
      const value = c.kind === "replace" ? c.value : structuredClone(get(all[c.from % all.length]));
      if (Array.isArray(s.parent)) s.parent[Number(s.key)] = value;
      else s.parent[String(s.key)] = value;
    }
  }
}

function get(s: Slot): Json {
  return Array.isArray(s.parent) ? s.parent[Number(s.key)] : s.parent[String(s.key)];
}
