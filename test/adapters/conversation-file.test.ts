import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";

function roundTrip(text: string): string {
  const f = readConversationFile(text);
  return writeConversationFile(f.messages, { format: f.format, container: f.container, envelope: f.envelope });
}

describe("conversation files", () => {
  const oa = openAIConversation({ turns: 3 });
  const an = anthropicConversation({ turns: 3 });

  it("reads and writes a JSON array (OpenAI)", () => {
    const text = `${JSON.stringify(oa, null, 2)}\n`;
    expect(readConversationFile(text)).toMatchObject({ format: "openai", container: "json-array" });
    expect(roundTrip(text)).toBe(text);
  });

  it("reads and writes a request body, keeping the other fields and the model", () => {
    const body = { model: "gpt-4o-mini", temperature: 0, messages: oa };
    const text = `${JSON.stringify(body, null, 2)}\n`;
    const f = readConversationFile(text);
    expect(f).toMatchObject({ format: "openai", container: "json-object", model: "gpt-4o-mini" });
    expect(roundTrip(text)).toBe(text);
  });

  it("detects Anthropic by its top-level system and blocks", () => {
    const text = `${JSON.stringify({ model: "claude-x", system: an.system, messages: an.messages }, null, 2)}\n`;
    expect(readConversationFile(text).format).toBe("anthropic");
    expect(readConversationFile(JSON.stringify(an.messages)).format).toBe("anthropic");
    expect(roundTrip(text)).toBe(text);
  });

  it("reads and writes JSONL in both formats (Anthropic system as a first line)", () => {
    const o = `${oa.map((m) => JSON.stringify(m)).join("\n")}\n`;
    expect(readConversationFile(o).container).toBe("jsonl");
    expect(roundTrip(o)).toBe(o);
    const a = `${[JSON.stringify({ system: an.system }), ...an.messages.map((m) => JSON.stringify(m))].join("\n")}\n`;
    expect(readConversationFile(a)).toMatchObject({ format: "anthropic", container: "jsonl" });
    expect(roundTrip(a)).toBe(a);
  });

  it("honors an explicit format", () => {
    const text = JSON.stringify([{ role: "user", content: "hi" }]);
    expect(readConversationFile(text, { format: "anthropic" }).format).toBe("anthropic");
  });

  it.each([
    ["", "input is empty"],
    ["{not json", "invalid JSON"],
    ['{"role":"user","content":"a"}\n{oops}\n', "line 2: invalid JSON"],
    ['{"messages": 3}', "messages: expected an array of messages, got a number"],
    ["42", "expected an array of messages"],
  ])("rejects %j with a clear error", (text, message) => {
    expect(() => readConversationFile(text)).toThrow(message);
  });
});
