// The providers' own server-side compaction items: Anthropic's compaction content block (context
// management's compact_* edit: `type: "compaction"`, its summary, opaque encrypted content and
// signature) and OpenAI Responses' compaction item (encrypted). Each is read (not refused), kept
// byte for byte, never cleared or summarized, counted by its size, kept with the message it
// belongs to, and persisted verbatim in a session; a conversation holding one compacts around it.
import { afterAll, describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import { readResponsesItems } from "../../src/adapters/responses.ts";
import { kernelViews } from "../../src/engine/store/views.ts";
import { compactResponsesItems } from "../../src/entries/responses.ts";
import { compactAnthropicMessages } from "../../src/index.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { openSession } from "../../src/session/open.ts";
import { backends, removeFresh } from "../session/backends.ts";

afterAll(removeFresh);

const ENCRYPTED = `EqQBCkYIBxgCKkD${"x9".repeat(400)}`;
const COMPACTION: JsonObject = {
  type: "compaction",
  content: "The user asked to fix the failing tests; files 0 to 9 were read.",
  encrypted_content: ENCRYPTED,
  signature: "sig-abc",
};
const CONFIG = { token_threshold: 1500, tokenizer: "chars", retention_window: 4, min_stretch_tokens: 0 } as const;

/** Tool turns reading files `from`..`to - 1`, Anthropic shape. */
function reads(from: number, to: number): JsonObject[] {
  const out: JsonObject[] = [];
  for (let k = from; k < to; k++) {
    out.push({
      role: "assistant",
      content: [{ type: "tool_use", id: `t${k}`, name: "read", input: { path: `f${k}` } }],
    });
    out.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${k}`, content: `line of f${k}\n`.repeat(40) }],
    });
  }
  return out;
}

describe("Anthropic's compaction block", () => {
  it("is read as a protected message counted by its size, and written back byte for byte", () => {
    const messages: Json[] = [
      { role: "user", content: "Fix the failing tests." },
      { role: "assistant", content: [COMPACTION, { type: "text", text: "Continuing." }] },
    ];
    const read = readAnthropicMessages(messages, undefined);
    expect(read.map((m) => m.role)).toEqual(["user", "system"]);
    // the kernel sees it under its own role, a boundary like a user message
    expect(kernelViews(read).roles).toEqual(["user", "compaction"]);
    expect(read[1].content).toContain(ENCRYPTED);
    expect(charCounter().count(read[1].content)).toBeGreaterThan(ENCRYPTED.length / 8);
    const text = `${JSON.stringify({ messages }, null, 1)}\n`;
    const file = readConversationFile(text);
    expect(file.format).toBe("anthropic");
    expect(writeConversationFile(file.messages, { ...file, format: file.format, container: file.container })).toBe(
      text,
    );
  });

  it("stays byte for byte through a compaction that summarizes around it, with calls after it in its message", async () => {
    const split: JsonObject = {
      role: "assistant",
      content: [COMPACTION, { type: "tool_use", id: "t10", name: "read", input: { path: "f10" } }],
    };
    const messages = [
      { role: "user", content: "Fix the failing tests." },
      ...reads(0, 6),
      split,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t10", content: "line of f10\n".repeat(40) }] },
      ...reads(11, 18),
    ] as JsonObject[];
    const r = await compactAnthropicMessages({ messages } as never, { ...CONFIG, retention_window: 2 });
    expect(r.report.outcome).toMatch(/^compacted/);
    const out = JSON.stringify(r.messages);
    // the block itself, unchanged and once
    expect(out.split(JSON.stringify(COMPACTION)).length).toBe(2);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    // what is kept of its message starts with the block, as the server returned it
    const holder = (r.messages as unknown as JsonObject[]).find(
      (m) => Array.isArray(m.content) && JSON.stringify(m.content[0]) === JSON.stringify(COMPACTION),
    );
    expect(holder).toBeDefined();
    // kept whole, its call with it, and the call's result right after it
    expect(out.split(JSON.stringify(split)).length).toBe(2);
    const at = (r.messages as unknown as JsonObject[]).findIndex((m) => JSON.stringify(m) === JSON.stringify(split));
    expect(JSON.stringify(r.messages[at + 1])).toContain('"tool_use_id":"t10"');
  });
});

describe("OpenAI Responses' compaction item", () => {
  const item = { type: "compaction", id: "cmp_1", encrypted_content: ENCRYPTED } as const;

  it("is counted by the size of its encrypted content, and kept as the same object through a compaction", async () => {
    const read = readResponsesItems([item] as never);
    expect(read.messages[0]).toMatchObject({ role: "system", content: ENCRYPTED });
    expect(kernelViews(read.messages).roles).toEqual(["compaction"]);
    const input: JsonObject[] = [{ role: "user", content: "Fix the failing tests." }, item];
    for (let k = 0; k < 12; k++) {
      input.push({ type: "function_call", call_id: `c${k}`, name: "read", arguments: `{"path":"f${k}"}` });
      input.push({ type: "function_call_output", call_id: `c${k}`, output: `line of f${k}\n`.repeat(40) });
    }
    const r = await compactResponsesItems(input as never, CONFIG);
    expect(r.report.outcome).toMatch(/^compacted/);
    expect((r.input as unknown[]).includes(item)).toBe(true);
    expect(r.report.tokensBefore).toBeGreaterThan(charCounter().count(ENCRYPTED));
  });
});

describe.each(backends)("server compaction items in a session: $name", (backend) => {
  afterAll(removeFresh);
  it("are persisted verbatim and stay in the context through the session's compaction", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "anthropic" });
    const holder = { role: "assistant", content: [COMPACTION, { type: "text", text: "Continuing." }] };
    const texts = [
      JSON.stringify({ role: "user", content: "Fix the failing tests." }),
      JSON.stringify(holder),
      JSON.stringify({ role: "user", content: "Go on." }),
      ...reads(0, 12).map((m) => JSON.stringify(m)),
    ];
    await s.appendTexts(texts);
    const report = await s.compact(CONFIG, { counter: charCounter() });
    expect(report.outcome).toMatch(/^compacted/);
    expect((await s.contextText()).split("\n")).toContain(texts[1]);
    await s.close();
    const again = await openSession(at);
    expect((await again.contextText()).split("\n")).toContain(texts[1]);
    expect((await again.history({ full: true })).split("\n").slice(0, texts.length)).toEqual(texts);
    await again.close();
  });
});
