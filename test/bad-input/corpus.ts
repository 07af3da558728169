// Generators shared by the bad-input tests: valid OpenAI and Anthropic histories built from
// steps (so every breakage starts from something realistic), structural breakages, and
// text-level damage to conversation files.
import fc from "fast-check";
import type { Json, JsonObject } from "../../src/model/json.ts";
import { junk } from "./judge.ts";

export const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    "see src/app.ts",
    "TypeError: x is undefined",
    "call fetchUser now",
    "ok",
    "",
    "<summary>old</summary>",
    "{{conversation}}",
  ),
);

export type Step = { kind: "system" | "user" | "assistant" | "calls"; calls: number; answered: boolean; text: string };
export const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom("system", "user", "assistant", "calls", "calls"),
  calls: fc.integer({ min: 1, max: 3 }),
  answered: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
  text,
});

/** A well-formed OpenAI history: calls answered right after (or left ongoing). */
export function buildOpenAI(steps: readonly Step[]): JsonObject[] {
  const out: JsonObject[] = [];
  let id = 0;
  for (const s of steps) {
    if (s.kind === "system" || s.kind === "user") out.push({ role: s.kind, content: s.text });
    else if (s.kind === "assistant") out.push({ role: "assistant", content: s.text });
    else {
      const ids = Array.from({ length: s.calls }, () => `call_${id++}`);
      out.push({
        role: "assistant",
        content: s.text === "" ? null : s.text,
        tool_calls: ids.map((c) => ({
          id: c,
          type: "function",
          function: { name: "read_file", arguments: `{"path":"src/${c}.ts"}` },
        })),
      });
      if (s.answered)
        for (const c of ids) out.push({ role: "tool", tool_call_id: c, content: `result of ${c}: ${s.text}` });
    }
  }
  return out;
}

/** A well-formed Anthropic history: tool_use blocks answered by tool_result blocks in the next user message. */
export function buildAnthropic(steps: readonly Step[]): { system?: Json; messages: JsonObject[] } {
  const messages: JsonObject[] = [];
  let system: Json | undefined;
  let pending: Json[] = [];
  let id = 0;
  const flushUser = (t: string | undefined) => {
    const blocks: Json[] = [...pending, ...(t === undefined ? [] : [{ type: "text", text: t }])];
    pending = [];
    if (blocks.length > 0) messages.push({ role: "user", content: blocks });
  };
  for (const s of steps) {
    if (s.kind === "system") system = s.text;
    else if (s.kind === "user") flushUser(s.text);
    else {
      flushUser(undefined);
      const ids = s.kind === "calls" ? Array.from({ length: s.calls }, () => `toolu_${id++}`) : [];
      messages.push({
        role: "assistant",
        content: [
          ...(s.text === "" ? [] : [{ type: "text", text: s.text }]),
          ...ids.map((c) => ({ type: "tool_use", id: c, name: "bash", input: { cmd: `cat src/${c}.ts` } })),
        ],
      });
      if (s.answered) pending = ids.map((c) => ({ type: "tool_result", tool_use_id: c, content: `output of ${c}` }));
    }
  }
  flushUser(undefined);
  return system === undefined ? { messages } : { system, messages };
}

/** Structural breakages that generic corruption reaches only by luck. */
export type Structural =
  | { kind: "moveFirst"; at: number } // a message (e.g. a tool result) moved before everything
  | { kind: "duplicate"; at: number } // a message repeated (duplicate call ids, second results)
  | { kind: "insert"; at: number; value: Json }; // a junk or orphan message inserted
export const structural: fc.Arbitrary<Structural> = fc.oneof(
  fc.record({ kind: fc.constant("moveFirst" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    value: fc.oneof(
      junk,
      fc.constant<Json>({ role: "tool", tool_call_id: "no_such_call", content: "orphan" }),
      fc.constant<Json>({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "no_such_call", content: "orphan" }],
      }),
      fc.record({ role: junk, content: text }) as fc.Arbitrary<Json>,
    ),
  }),
);

export function applyStructural(ms: Json[], ss: readonly Structural[]): void {
  for (const s of ss) {
    if (ms.length === 0 && s.kind !== "insert") continue;
    const i = s.at % Math.max(1, ms.length);
    if (s.kind === "moveFirst") ms.unshift(...ms.splice(i, 1));
    else if (s.kind === "duplicate") ms.splice(i, 0, structuredClone(ms[i]));
    else ms.splice(i, 0, structuredClone(s.value));
  }
}

/** Text-level damage to a conversation file. */
export const garble = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    s: fc.constantFrom("{", "}", "[", ",", '"', "\\", "\n", "NaN", "\u0000", "garbage"),
  }),
  fc.record({
    kind: fc.constant("replace" as const),
    s: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        "",
        "   ",
        "null",
        "42",
        '"x"',
        "{}",
        "[]",
        '{"messages": 3}',
        '{"messages": [], "system": 5}',
        "[1, 2]",
        '{"role": "user"}',
      ),
    ),
  }),
);

/** The shapes a conversation file comes in. */
export type FileShape = "openai-json" | "openai-jsonl" | "anthropic-json" | "anthropic-jsonl";
export const fileShape: fc.Arbitrary<FileShape> = fc.constantFrom(
  "openai-json",
  "openai-jsonl",
  "anthropic-json",
  "anthropic-jsonl",
);

/** The text of a (valid) conversation file of the given shape. */
export function conversationText(steps: readonly Step[], shape: FileShape): string {
  if (shape.startsWith("openai")) {
    const ms = buildOpenAI(steps);
    return shape.endsWith("jsonl")
      ? ms.map((m) => JSON.stringify(m)).join("\n")
      : JSON.stringify({ model: "gpt-4o", messages: ms });
  }
  const a = buildAnthropic(steps);
  return shape.endsWith("jsonl")
    ? [...(a.system === undefined ? [] : [{ system: a.system }]), ...a.messages]
        .map((m) => JSON.stringify(m))
        .join("\n")
    : JSON.stringify({ model: "claude-haiku-4-5", ...a });
}

/** Applies text damage in order. */
export function garbleText(t: string, gs: readonly Garble[]): string {
  let out = t;
  for (const g of gs) {
    if (g.kind === "truncate") out = out.slice(0, g.at % (out.length + 1));
    else if (g.kind === "insert") {
      const i = g.at % (out.length + 1);
      out = out.slice(0, i) + g.s + out.slice(i);
    } else out = g.s;
  }
  return out;
}

/** One text damage. */
export type Garble =
  | { kind: "truncate"; at: number }
  | { kind: "insert"; at: number; s: string }
  | { kind: "replace"; s: string };
