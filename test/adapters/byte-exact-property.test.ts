// Byte-exact writing as properties over generated files: JSON arrays, request bodies with other
// fields, JSONL; OpenAI and Anthropic shapes; pretty (spaces or tabs) and minified; LF or CRLF; with
// or without a BOM; messages carrying unknown fields with big integers, 1.50, 1E3 and escapes.
// (a) nothing to do: the output is the input; (b) compacting: every message not replaced is in the
// output with its exact bytes, in order; (c) what safecut does not know survives byte for byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";

// JSON as text pieces, so numbers and strings keep the spelling they were generated with
type Lex = { readonly raw: string } | { readonly items: Lex[] } | { readonly entries: [string, Lex][] };
interface Style {
  readonly indent: string | null;
  readonly eol: "\n" | "\r\n";
  readonly colon: string;
  readonly comma: string;
}

const escaped = (s: string) =>
  JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function toLex(v: Json): Lex {
  if (Array.isArray(v)) return { items: v.map(toLex) };
  if (typeof v === "object" && v !== null) return { entries: Object.entries(v).map(([k, x]) => [k, toLex(x)]) };
  return { raw: typeof v === "string" ? escaped(v) : JSON.stringify(v) };
}

function render(v: Lex, st: Style, base: string): string {
  if ("raw" in v) return v.raw;
  const parts =
    "items" in v
      ? v.items.map((x) => render(x, st, base + (st.indent ?? "")))
      : v.entries.map(([k, x]) => `${escaped(k)}${st.colon}${render(x, st, base + (st.indent ?? ""))}`);
  const [o, c] = "items" in v ? ["[", "]"] : ["{", "}"];
  if (parts.length === 0) return o + c;
  if (st.indent === null) return o + parts.join(st.comma) + c;
  const inner = base + st.indent;
  return `${o}${st.eol}${inner}${parts.join(`,${st.eol}${inner}`)}${st.eol}${base}${c}`;
}

// unknown fields: numbers JavaScript would respell or round, escapes it would decode
const oddNumber = fc.constantFrom("12345678901234567890", "1.50", "1E3", "-0.0", "1e-7", "0.1000", "9007199254740993");
const oddString = fc.constantFrom('"caf\\u00e9"', '"\\ud83d\\ude00"', '"a\\/b"', '"tab\\there"', '"\\u0000"');
const oddValue: fc.Arbitrary<Lex> = fc.oneof(
  oddNumber.map((raw) => ({ raw })),
  oddString.map((raw) => ({ raw })),
  fc.tuple(oddNumber, oddString).map(([n, s]) => ({
    entries: [
      ["n", { raw: n }],
      ["s", { raw: s }],
    ] as [string, Lex][],
  })),
);
const extras = fc.array(fc.tuple(fc.constantFrom("x_trace", "x_meta", "cache_control", "x_id"), oddValue), {
  maxLength: 2,
});

type Shape = "openai" | "anthropic";
type Container = "array" | "body" | "jsonl";
interface FileCase {
  readonly text: string;
  /** each message's exact text in the file */
  readonly messages: readonly string[];
  /** the text before the first message and after the last (container, other body fields) */
  readonly prefix: string;
  readonly suffix: string;
}

/** Adds unknown fields to a message (and its blocks), and unknown parts; merges text into tool results (Anthropic). */
function decorate(shape: Shape, m: JsonObject, k: number, odd: readonly [string, Lex][][]): Lex {
  const own = odd[k % odd.length] ?? [];
  let content: Json = m.content ?? null;
  if (shape === "openai" && m.role === "user" && typeof content === "string" && k % 3 === 0) {
    content = [
      { type: "text", text: content },
      { type: "x_future_part", data: "kept as is" },
    ];
  }
  if (
    shape === "anthropic" &&
    Array.isArray(content) &&
    content.some((b) => typeof b === "object" && b !== null && !Array.isArray(b) && b.type === "tool_result") &&
    k % 2 === 0
  ) {
    content = [
      ...content,
      { type: "text", text: `note ${k}` },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ];
  }
  const lex = toLex({ ...m, content }) as { entries: [string, Lex][] };
  const blockOdd = odd[(k + 1) % odd.length] ?? [];
  const entries = lex.entries.map(([key, v]): [string, Lex] => {
    if (key !== "content" || !("items" in v)) return [key, v];
    return [
      key,
      { items: v.items.map((b, j) => ("entries" in b && j === 0 ? { entries: [...b.entries, ...blockOdd] } : b)) },
    ];
  });
  return { entries: [...entries, ...own] };
}

function buildFile(
  shape: Shape,
  container: Container,
  turns: number,
  st: Style,
  bom: boolean,
  odd: readonly [string, Lex][][],
  finalEol: boolean,
): FileCase {
  const conv =
    shape === "openai"
      ? { system: undefined, messages: openAIConversation({ turns, seed: turns }) }
      : anthropicConversation({ turns, seed: turns });
  const msgs = conv.messages.map((m, k) => decorate(shape, m, k, odd));
  const ind = st.indent ?? "";
  const end = finalEol ? st.eol : "";
  if (container === "jsonl") {
    const flat: Style = { ...st, indent: null };
    const lines = msgs.map((m) => render(m, flat, ""));
    const sys =
      conv.system !== undefined ? render({ entries: [["system", toLex(conv.system)]] }, flat, "") + st.eol : "";
    return {
      text: (bom ? "\uFEFF" : "") + sys + lines.join(st.eol) + end,
      messages: lines,
      prefix: (bom ? "\uFEFF" : "") + sys,
      suffix: end,
    };
  }
  const base = container === "array" ? "" : ind;
  const texts = msgs.map((m) => render(m, st, base + ind));
  const arr =
    st.indent === null
      ? `[${texts.join(st.comma)}]`
      : `[${st.eol}${base}${ind}${texts.join(`,${st.eol}${base}${ind}`)}${st.eol}${base}]`;
  let text: string;
  if (container === "array") text = arr;
  else {
    const MARK = "\u0000messages\u0000";
    const body: [string, Lex][] = [
      ["model", { raw: '"claude-or-gpt"' }],
      ["seed", { raw: "12345678901234567890" }],
      ...(conv.system !== undefined ? [["system", toLex(conv.system)] as [string, Lex]] : []),
      ["messages", { raw: MARK }],
      ["temperature", { raw: "0.70" }],
      [
        "tools",
        {
          items: [
            {
              entries: [
                ["name", { raw: '"x\\u00e9"' }],
                ["limit", { raw: "1E3" }],
              ],
            },
          ],
        },
      ],
    ];
    text = render({ entries: body }, st, "").replace(MARK, arr);
  }
  text = (bom ? "\uFEFF" : "") + text + end;
  const first = text.indexOf(texts[0]);
  const last = text.lastIndexOf(texts[texts.length - 1]) + texts[texts.length - 1].length;
  return { text, messages: texts, prefix: text.slice(0, first), suffix: text.slice(last) };
}

const style: fc.Arbitrary<Style> = fc.record({
  indent: fc.constantFrom(null, "  ", "    ", "\t"),
  eol: fc.constantFrom("\n" as const, "\r\n" as const),
  colon: fc.constantFrom(":", ": "),
  comma: fc.constantFrom(",", ", "),
});
const fileCase = fc
  .record({
    shape: fc.constantFrom<Shape>("openai", "anthropic"),
    container: fc.constantFrom<Container>("array", "body", "jsonl"),
    turns: fc.integer({ min: 2, max: 6 }),
    style,
    bom: fc.boolean(),
    odd: fc.array(extras, { minLength: 1, maxLength: 4 }),
    finalEol: fc.boolean(),
  })
  .map((c) => ({ ...c, file: buildFile(c.shape, c.container, c.turns, c.style, c.bom, c.odd, c.finalEol) }));

describe("byte-exact writing (properties over generated files)", () => {
  it("(a) a run with nothing to do writes the input back byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(fileCase, async ({ file }) => {
        const f = readConversationFile(file.text);
        const r = await compactMessages(f.messages, { token_threshold: 1_000_000_000, tokenizer: "chars" });
        expect(r.report.outcome).toBe("nothing-to-do");
        expect(writeConversationFile(r.messages, f)).toBe(file.text);
      }),
      { numRuns: 60 },
    );
  });

  it("(b, c) a compacting run keeps every message it did not replace byte for byte, in order, and the container around them", async () => {
    let partials = 0;
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(fileCase, fc.integer({ min: 1, max: 4 }), async ({ file }, window) => {
        const f = readConversationFile(file.text);
        const r = await compactMessages(f.messages, {
          token_threshold: 1500,
          tokenizer: "chars",
          retention_window: window,
          max_tokens: 400,
          strategy: "summarize", // the replaced ranges are the stretches (clearing: byte-exact-clearing.test.ts)
        });
        expect(r.report.laws.filter((l) => !l.ok)).toEqual([]);
        const out = writeConversationFile(r.messages, f);
        if (r.report.stretches.length > 0) compacted++;
        const replaced = new Set<number>();
        for (const s of r.report.stretches) for (let i = s.input.first; i <= s.input.last; i++) replaced.add(i);
        // (b): the messages outside every replaced range, in order, each with its exact bytes
        let at = 0;
        file.messages.forEach((m, i) => {
          if (replaced.has(i)) return;
          const k = out.indexOf(m, at);
          expect(k, `message ${i} kept byte for byte`).toBeGreaterThanOrEqual(at);
          at = k + m.length;
        });
        // (c): the container, other body fields, a system line, a BOM, the final line end
        expect(out.startsWith(file.prefix)).toBe(true);
        expect(out.endsWith(file.suffix)).toBe(true);
        // the output reads back with one message per kept one, plus a summary per stretch (and cut messages once)
        const again = readConversationFile(out);
        expect(again.container).toBe(f.container);
        expect(r.report.messagesAfter).toBeLessThanOrEqual(
          file.messages.length - replaced.size + 2 * r.report.stretches.length,
        );
        if (r.report.messagesAfter > file.messages.length - replaced.size + r.report.stretches.length) partials++;
        if (file.text.includes("\r\n")) expect(out.replaceAll("\r\n", "")).not.toMatch(/\n/);
      }),
      { numRuns: 80 },
    );
    // Anthropic messages holding tool results and text were cut (partly replaced) in some runs
    expect(partials).toBeGreaterThan(0);
    expect(compacted).toBeGreaterThan(60);
  });
});
