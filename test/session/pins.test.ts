// Pinned content (setting `pin`, docs/pins.md) on a session, on both backends, and through the
// OpenAI wire helper and the AI SDK helper: the tool result that loaded AGENTS.md at the start stays in the context
// verbatim with its call after the session compacts, where without the pin it is summarized away;
// the run's L15 check holds and names the pin.

import type { ModelMessage } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { compactModelMessages } from "../../src/library/ai-sdk.ts";
import { compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import type { JsonObject } from "../../src/model/json.ts";
import { openSession } from "../../src/session/open.ts";
import { backends, removeFresh } from "./backends.ts";
import { SMALL_CONFIG } from "./conversation.ts";

afterAll(removeFresh);

const AGENTS = `# AGENTS.md\n- Never push to main.\n${"- keep each module free of side effects\n".repeat(20)}`;
/** OpenAI chat items: AGENTS.md read first, then `turns` turns of file reads. */
function items(turns: number): JsonObject[] {
  const out: JsonObject[] = [
    { role: "user", content: "Fix the failing tests." },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "agents", type: "function", function: { name: "read_file", arguments: '{"path":"AGENTS.md"}' } },
      ],
    },
    { role: "tool", tool_call_id: "agents", content: AGENTS },
  ];
  for (let k = 0; k < turns; k++)
    out.push(
      { role: "user", content: `Turn ${k}: look at src/m${k}.ts` },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: `r${k}`, type: "function", function: { name: "read_file", arguments: `{"path":"src/m${k}.ts"}` } },
        ],
      },
      { role: "tool", tool_call_id: `r${k}`, content: `export const m${k} = ${k};\n`.repeat(8) },
      { role: "assistant", content: `Read src/m${k}.ts.` },
    );
  return out;
}
const held = (ms: readonly unknown[]) =>
  ms.some((m) => (m as JsonObject).role === "tool" && (m as JsonObject).content === AGENTS);
const PIN = { ...SMALL_CONFIG, pin: ["file:AGENTS.md"] };

describe.each(backends)("pins on a session: $name", (backend) => {
  it("the AGENTS.md result stays verbatim in the context after the session compacts; without the pin it goes", async () => {
    for (const pinned of [false, true]) {
      const at = backend.fresh();
      const s = await openSession(at, { format: "openai" });
      await s.append(items(6));
      const report = await s.compact(pinned ? PIN : SMALL_CONFIG);
      expect(report.stretches.length).toBeGreaterThan(0);
      const context = await s.context();
      expect(held(context)).toBe(pinned);
      if (pinned) {
        const l15 = report.laws.find((l) => l.law === "L15");
        expect(l15?.ok).toBe(true);
        expect(l15?.detail).toContain("file:AGENTS.md");
        // a new process reads the same context
        const again = await openSession(at);
        expect(held(await again.context())).toBe(true);
        await again.close();
      }
      await s.close();
    }
  });
});

describe("pins through the OpenAI wire helper", () => {
  it("keeps the pinned result and its call", async () => {
    expect(held((await compactOpenAIMessages(items(6), SMALL_CONFIG)).messages)).toBe(false);
    const r = await compactOpenAIMessages(items(6), PIN);
    expect(held(r.messages)).toBe(true);
    expect(JSON.stringify(r.messages)).toContain('"id":"agents"');
    expect(r.report.laws.find((l) => l.law === "L15")?.ok).toBe(true);
  });
});

describe("pins through the AI SDK helper", () => {
  /** The same session as AI SDK messages. */
  function modelMessages(turns: number): ModelMessage[] {
    const call = (id: string, path: string, value: string): ModelMessage[] => [
      { role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "read_file", input: { path } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: id, toolName: "read_file", output: { type: "text", value } }],
      },
    ];
    const out: ModelMessage[] = [
      { role: "user", content: "Fix the failing tests." },
      ...call("agents", "AGENTS.md", AGENTS),
    ];
    for (let k = 0; k < turns; k++)
      out.push(
        { role: "user", content: `Turn ${k}: look at src/m${k}.ts` },
        ...call(`r${k}`, `src/m${k}.ts`, `export const m${k} = ${k};\n`.repeat(8)),
        { role: "assistant", content: `Read src/m${k}.ts.` },
      );
    return out;
  }
  const kept = (ms: readonly ModelMessage[]) => JSON.stringify(ms).includes(JSON.stringify(AGENTS));

  it("keeps the pinned result verbatim", async () => {
    expect(kept((await compactModelMessages(modelMessages(6), SMALL_CONFIG)).messages)).toBe(false);
    const r = await compactModelMessages(modelMessages(6), PIN);
    expect(kept(r.messages)).toBe(true);
    expect(r.report.laws.find((l) => l.law === "L15")?.ok).toBe(true);
  });
});
