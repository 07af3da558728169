// The bad-input corpus for conversations: fast-check builds valid OpenAI and Anthropic histories,
// then breaks them (fields deleted, replaced by values of the wrong type, ids copied onto other
// ids, unknown roles and block types, orphan tool results, duplicate tool call ids, results moved
// before their calls, whole messages replaced by junk, JSON text truncated or garbled). Every case
// must end in a clear error naming the JSON path or in a lawful compaction, and the (deep-frozen)
// input must be untouched.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/adapters/compact-wire.ts";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { compactMessages } from "../../src/engine/compact-messages.ts";
import type { ConfigInput } from "../../src/engine/config.ts";
import type { Json, JsonObject } from "../../src/engine/json.ts";
import { attempt, corrupt, corruption, deepFreeze, expectClearError, expectLawfulResult, junk } from "./judge.ts";

// Low thresholds so that most well-formed cases really compact (offline summarizer, no network).
const CONFIG: ConfigInput = { token_threshold: 60, tokenizer: "chars", retention_window: 2, max_tokens: 400 };
const RUNS = 600;

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom("see src/app.ts", "TypeError: x is undefined", "call fetchUser now", "ok", "", "<summary>old</summary>", "{{conversation}}"),
);

type Step = { kind: "system" | "user" | "assistant" | "calls"; calls: number; answered: boolean; text: string };
const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom("system", "user", "assistant", "calls", "calls"),
  calls: fc.integer({ min: 1, max: 3 }),
  answered: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
  text,
});

/** A well-formed OpenAI history: calls answered right after (or left ongoing). */
function buildOpenAI(steps: readonly Step[]): JsonObject[] {
  const out: JsonObject[] = [];
  let id = 0;
  for (const s of steps) {
    if (s.kind === "system" || s.kind === "user") out.push({ role: s.kind, content: s.text });
    else if (s.kind === "assistant") out.push({ role: "assistant", content: s.text });
    else {
      const ids = Array.from({ length: s.calls }, () => `call_${id++}`);
      out.push({
        role: "assistant", content: s.text === "" ? null : s.text,
        tool_calls: ids.map((c) => ({ id: c, type: "function", function: { name: "read_file", arguments: `{"path":"src/${c}.ts"}` } })),
      });
      if (s.answered) for (const c of ids) out.push({ role: "tool", tool_call_id: c, content: `result of ${c}: ${s.text}` });
    }
  }
  return out;
}

/** A well-formed Anthropic history: tool_use blocks answered by tool_result blocks in the next user message. */
function buildAnthropic(steps: readonly Step[]): { system?: Json; messages: JsonObject[] } {
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
        content: [...(s.text === "" ? [] : [{ type: "text", text: s.text }]), ...ids.map((c) => ({ type: "tool_use", id: c, name: "bash", input: { cmd: `cat src/${c}.ts` } }))],
      });
      if (s.answered) pending = ids.map((c) => ({ type: "tool_result", tool_use_id: c, content: `output of ${c}` }));
    }
  }
  flushUser(undefined);
  return system === undefined ? { messages } : { system, messages };
}

/** Structural breakages that generic corruption reaches only by luck. */
type Structural =
  | { kind: "moveFirst"; at: number } // a message (e.g. a tool result) moved before everything
  | { kind: "duplicate"; at: number } // a message repeated (duplicate call ids, second results)
  | { kind: "insert"; at: number; value: Json }; // a junk or orphan message inserted
const structural: fc.Arbitrary<Structural> = fc.oneof(
  fc.record({ kind: fc.constant("moveFirst" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const), at: fc.nat(),
    value: fc.oneof(
      junk,
      fc.constant<Json>({ role: "tool", tool_call_id: "no_such_call", content: "orphan" }),
      fc.constant<Json>({ role: "user", content: [{ type: "tool_result", tool_use_id: "no_such_call", content: "orphan" }] }),
      fc.record({ role: junk, content: text }) as fc.Arbitrary<Json>,
    ),
  }),
);

function applyStructural(ms: Json[], ss: readonly Structural[]): void {
  for (const s of ss) {
    if (ms.length === 0 && s.kind !== "insert") continue;
    const i = s.at % Math.max(1, ms.length);
    if (s.kind === "moveFirst") ms.unshift(...ms.splice(i, 1));
    else if (s.kind === "duplicate") ms.splice(i, 0, structuredClone(ms[i]));
    else ms.splice(i, 0, structuredClone(s.value));
  }
}

const breakage = fc.record({
  corruptions: fc.array(corruption, { maxLength: 3 }),
  structure: fc.array(structural, { maxLength: 2 }),
});

describe("malformed OpenAI histories", () => {
  it("give a clear error naming the JSON path, or a lawful compaction; the input is untouched", async () => {
    let errors = 0;
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 20 }), breakage, async (steps, b) => {
        const msgs: Json[] = buildOpenAI(steps);
        applyStructural(msgs, b.structure);
        corrupt(msgs, b.corruptions);
        const input = deepFreeze(msgs);
        const copy = structuredClone(input);
        const r = await attempt(() => compactOpenAIMessages(input, CONFIG));
        expect(input).toEqual(copy);
        if (!r.ok) {
          errors++;
          if (process.env.BAD_INPUT_LOG) console.log((r.error as Error).message);
          expectClearError(r.error);
          return;
        }
        if (r.value.report.stretches.length > 0) compacted++;
        expectLawfulResult(readOpenAIMessages(copy), readOpenAIMessages(r.value.messages), r.value.report);
      }),
      { numRuns: RUNS },
    );
    // the corpus exercises both verdicts, not only one of them
    if (process.env.BAD_INPUT_LOG) console.log(`openai: ${errors} errors, ${compacted} compacted of ${RUNS}`);
    expect(errors).toBeGreaterThan(RUNS / 10);
    expect(compacted).toBeGreaterThan(RUNS / 20);
  });
});

describe("malformed Anthropic histories", () => {
  it("give a clear error naming the JSON path, or a lawful compaction; the input is untouched", async () => {
    let errors = 0;
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 20 }), breakage, fc.option(junk), async (steps, b, badSystem) => {
        const conv = buildAnthropic(steps);
        const msgs: Json[] = conv.messages;
        applyStructural(msgs, b.structure);
        corrupt(msgs, b.corruptions);
        const system = badSystem ?? conv.system;
        const input = deepFreeze({ system, messages: msgs });
        const copy = structuredClone(input);
        const r = await attempt(() => compactAnthropicMessages(input, CONFIG));
        expect(input).toEqual(copy);
        if (!r.ok) {
          errors++;
          expectClearError(r.error);
          return;
        }
        if (r.value.report.stretches.length > 0) compacted++;
        expectLawfulResult(
          readAnthropicMessages([...copy.messages], copy.system),
          readAnthropicMessages(r.value.messages, r.value.system),
          r.value.report,
        );
      }),
      { numRuns: RUNS },
    );
    expect(errors).toBeGreaterThan(RUNS / 10);
    expect(compacted).toBeGreaterThan(RUNS / 20);
  });
});

describe("malformed conversation files (text)", () => {
  const garble = fc.oneof(
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), s: fc.constantFrom("{", "}", "[", ",", '"', "\\", "\n", "NaN", "\u0000", "garbage") }),
    fc.record({ kind: fc.constant("replace" as const), s: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("", "   ", "null", "42", '"x"', "{}", "[]", '{"messages": 3}', '{"messages": [], "system": 5}', "[1, 2]", '{"role": "user"}')) }),
  );

  it("give a clear error or a lawful result, for JSON and JSONL in both shapes", async () => {
    let errors = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 10 }), fc.constantFrom("openai-json", "openai-jsonl", "anthropic-json", "anthropic-jsonl"), fc.array(garble, { maxLength: 2 }), async (steps, shape, gs) => {
        let t: string;
        if (shape.startsWith("openai")) {
          const ms = buildOpenAI(steps);
          t = shape.endsWith("jsonl") ? ms.map((m) => JSON.stringify(m)).join("\n") : JSON.stringify({ model: "gpt-4o", messages: ms });
        } else {
          const a = buildAnthropic(steps);
          t = shape.endsWith("jsonl")
            ? [...(a.system === undefined ? [] : [{ system: a.system }]), ...a.messages].map((m) => JSON.stringify(m)).join("\n")
            : JSON.stringify({ model: "claude-haiku-4-5", ...a });
        }
        for (const g of gs) {
          if (g.kind === "truncate") t = t.slice(0, g.at % (t.length + 1));
          else if (g.kind === "insert") { const i = g.at % (t.length + 1); t = t.slice(0, i) + g.s + t.slice(i); }
          else t = g.s;
        }
        const r = await attempt(async () => {
          const file = readConversationFile(t);
          return { file, result: await compactMessages(file.messages, CONFIG) };
        });
        if (!r.ok) {
          errors++;
          expectClearError(r.error);
          return;
        }
        expectLawfulResult(r.value.file.messages, r.value.result.messages, r.value.result.report);
      }),
      { numRuns: RUNS },
    );
    expect(errors).toBeGreaterThan(RUNS / 10);
  });
});
