// Format detection over the four shapes: each format's own marks decide; plain text messages
// that read the same in several shapes fall back to "openai" (its summary is valid in all four);
// marks of two formats in one file are refused with the items that show them. Then AI SDK and
// Responses files read, and written back byte for byte where a run left them (or part of them) alone.
import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import { detectFormat } from "../../src/adapters/detect.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Json } from "../../src/model/json.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";

const aiSdk = modelMessagesConversation({ turns: 3 }) as unknown as Json[];
const responses = responsesConversation({ turns: 3 }) as unknown as Json[];

describe("detectFormat", () => {
  it("tells AI SDK messages and Responses items from OpenAI chat and Anthropic messages", () => {
    expect(detectFormat(aiSdk, false)).toBe("ai-sdk");
    expect(detectFormat(responses, false)).toBe("responses");
    expect(detectFormat([{ role: "tool", content: [{ type: "tool-result", toolCallId: "a" }] }], false)).toBe("ai-sdk");
    expect(detectFormat([{ type: "function_call_output", call_id: "a", output: "x" }], false)).toBe("responses");
    expect(detectFormat([{ role: "user", content: [{ type: "input_text", text: "hi" }] }], false)).toBe("responses");
    // an image part: Anthropic's has a source, the AI SDK's an image
    expect(detectFormat([{ role: "user", content: [{ type: "image", image: "https://x/y.png" }] }], false)).toBe(
      "ai-sdk",
    );
    expect(detectFormat([{ role: "user", content: [{ type: "image", source: { type: "url" } }] }], false)).toBe(
      "anthropic",
    );
  });

  it("reads an Anthropic system-role message as Anthropic when tool_use blocks follow", () => {
    const ms = [
      { role: "system", content: "be brief" },
      { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] },
    ];
    expect(detectFormat(ms, false)).toBe("anthropic");
  });

  it("reads an OpenAI tool message with text parts as OpenAI", () => {
    const ms = [{ role: "tool", tool_call_id: "a", content: [{ type: "text", text: "done" }] }];
    expect(detectFormat(ms, false)).toBe("openai");
  });

  it("falls back to openai for plain text messages", () => {
    expect(detectFormat([{ role: "user", content: "hi" }], false)).toBe("openai");
  });

  it("refuses a file with the marks of two formats, naming both items", () => {
    const mixed: Json[] = [
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "f", input: {} }] },
      { role: "assistant", content: null, tool_calls: [] },
    ];
    expect(() => detectFormat(mixed, false)).toThrow(InputError);
    expect(() => detectFormat(mixed, false)).toThrow(/messages\[0\].*ai-sdk.*messages\[1\].*openai.*--format/s);
  });
});

describe("conversation files in AI SDK and Responses shape", () => {
  it("reads a bare AI SDK array and a request body with `messages`", () => {
    expect(readConversationFile(JSON.stringify(aiSdk))).toMatchObject({ format: "ai-sdk", container: "json-array" });
    const body = readConversationFile(JSON.stringify({ model: "gpt-5", messages: aiSdk }));
    expect(body).toMatchObject({ format: "ai-sdk", container: "json-object", model: "gpt-5" });
    expect(body.items?.items).toBe(aiSdk.length);
  });

  it("reads a bare Responses array and a request body with `input`", () => {
    expect(readConversationFile(JSON.stringify(responses))).toMatchObject({
      format: "responses",
      container: "json-array",
    });
    const body = readConversationFile(JSON.stringify({ model: "gpt-5", input: responses, store: false }));
    expect(body).toMatchObject({ format: "responses", container: "json-object", model: "gpt-5" });
    expect(body.items?.items).toBe(responses.length);
  });

  it("writes an untouched file back byte for byte", () => {
    for (const text of [
      `{"model":"m",  "input": ${JSON.stringify(responses, null, 3)} }`,
      `[\n${aiSdk.map((m) => JSON.stringify(m)).join(",\n")}\n]`,
    ]) {
      const f = readConversationFile(text);
      expect(writeConversationFile(f.messages, { ...f, summaryTag: "summary" })).toBe(text);
    }
  });

  it("refuses a body with both `messages` and `input`", () => {
    expect(() => readConversationFile(JSON.stringify({ messages: aiSdk, input: responses }))).toThrow(
      /both "messages" and "input"/,
    );
  });

  it("honors --format ai-sdk and --format responses", () => {
    const plain = JSON.stringify([{ role: "user", content: "hi" }]);
    const a = readConversationFile(plain, { format: "ai-sdk" });
    const r = readConversationFile(plain, { format: "responses" });
    expect([a.format, r.format]).toEqual(["ai-sdk", "responses"]);
    // read by their own readers: each gives its item map
    expect([a.items?.items, r.items?.items]).toEqual([1, 1]);
  });
});

describe("an AI SDK file with some parts of an item summarized away", () => {
  it("writes that item as its own text with only those parts' bytes cut out", () => {
    const call = (id: string) => `{"type":"tool-call","toolCallId":"${id}","toolName":"f","input":{"n":1.50}}`;
    const result = (id: string) =>
      `{"type":"tool-result","toolCallId":"${id}","toolName":"f","output":{"type":"text","value":"${id}"}}`;
    const lines = [
      `{"role":"user","content":"go"}`,
      `{"role":"assistant","content":[${call("a")}, ${call("b")}]}`,
      `{"role":"tool","content":[ ${result("a")},  ${result("b")} ],"seq":12345678901234567891}`,
    ];
    const text = `[\n  ${lines.join(",\n  ")}\n]\n`;
    const f = readConversationFile(text);
    expect(f.format).toBe("ai-sdk");
    // drop the engine message of result "a" (as a splice would with its call): item 2 keeps "b" only
    const kept = f.messages.filter((m) => !(m.role === "tool" && m.toolCallId === "a"));
    const out = writeConversationFile(kept, { ...f, summaryTag: "summary" });
    expect(out).toBe(
      `[\n  ${lines[0]},\n  ${lines[1]},\n  {"role":"tool","content":[ ${result("b")} ],"seq":12345678901234567891}\n]\n`,
    );
  });
});
