// A cleared tool result (L13) in a conversation file: the file comes back byte for byte except the
// cleared content value, which holds the placeholder (big integers, 1E3, escapes, key order and
// spacing of the cleared message itself included).
import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";

const config = {
  token_threshold: 500,
  retention_window: 2,
  tokenizer: "chars" as const,
  strategy: "clear" as const,
  clear_keep: 0,
  // one small result is cleared: below the default clear_at_least, which these tests are not about
  clear_at_least: 0,
};
const long = "output line\\n".repeat(300);

async function cleared(text: string): Promise<string> {
  const f = readConversationFile(text);
  const r = await compactMessages(f.messages, config);
  expect(r.report.clearing?.results).toBe(1);
  expect(r.report.laws.every((l) => l.ok)).toBe(true);
  return writeConversationFile(r.messages, f);
}

describe("a cleared tool result is written back with only its content value replaced", () => {
  const openai = (tool: string) => [
    '{"role":"user","content":"caf\\u00e9 go"}',
    '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\\"n\\":1.50}"}}],"score":1.50}',
    tool,
    '{"role":"assistant","content":"done"}',
    '{"role":"user","content":"next"}',
    '{"role":"assistant","content":"ok"}',
  ];
  const tool = (sp: string) =>
    `{"x_seq":${sp}12345678901234567890,${sp}"role":${sp}"tool",${sp}"tool_call_id":${sp}"c1",${sp}"content":${sp}"${long}",${sp}"weight":${sp}1E3}`;

  it.each([
    ["OpenAI, minified", (t: string) => `[${openai(t).join(",")}]`, ""],
    ["OpenAI, JSONL with CRLF", (t: string) => `${openai(t).join("\r\n")}\r\n`, ""],
    ["OpenAI, Python-style spacing", (t: string) => `[${openai(t).join(", ")}]`, " "],
  ])("%s", async (_name, wrap, sp) => {
    const text = wrap(tool(sp));
    const out = await cleared(text);
    const expected = wrap(tool(sp).replace(`"${long}"`, '"[tool result cleared: 3,600 chars]"'));
    expect(out).toBe(expected);
  });

  it("Anthropic: only the cleared tool_result block's content, every other block and field byte for byte", async () => {
    const result = `{"type":"tool_result","tool_use_id":"a","content":"${long}","x_n":1E3}`;
    const rest = `{"type": "text", "text": "caf\\u00e9"}, {"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="},"cache_control":{"type":"ephemeral"}}`;
    const msg = (r: string) => `{"role":"user","x_seq":12345678901234567890,"content":[\n  ${r},\n  ${rest}\n]}`;
    const lines = (r: string) =>
      [
        `{"role":"user","content":"go"}`,
        `{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"read","input":{"n":12345678901234567890}}]}`,
        msg(r),
        `{"role":"assistant","content":"ok"}`,
        `{"role":"user","content":"next"}`,
        `{"role":"assistant","content":"fine"}`,
      ].join(",\n");
    const out = await cleared(`[${lines(result)}]\n`);
    expect(out).toBe(`[${lines(result.replace(`"${long}"`, '"[tool result cleared: 3,600 chars]"'))}]\n`);
  });

  it("Responses file: only the cleared function_call_output's output", async () => {
    const items = (out: string) =>
      [
        `{"type":"message","role":"user","content":"go"}`,
        `{"type":"function_call","call_id":"c1","name":"read","arguments":"{\\"n\\":1.50}"}`,
        `{"type":"function_call_output","x_seq":12345678901234567890,"call_id":"c1","output":${out},"status":"completed"}`,
        `{"type":"message","role":"assistant","content":"done"}`,
        `{"type":"message","role":"user","content":"next"}`,
        `{"type":"message","role":"assistant","content":"ok"}`,
      ].join(",\n  ");
    const out = await cleared(`[\n  ${items(`"${long}"`)}\n]\n`);
    expect(out).toBe(`[\n  ${items('"[tool result cleared: 3,600 chars]"')}\n]\n`);
  });

  it("AI SDK file: only the cleared tool-result part's output, the other parts byte for byte", async () => {
    const part = (id: string, out: string) =>
      `{"type":"tool-result","toolCallId":"${id}","toolName":"read","output":${out},"x_n":1E3}`;
    const text = (out: string) => `{"type":"text","value":"${out}"}`;
    const lines = (first: string) =>
      [
        `{"role":"user","content":"go"}`,
        `{"role":"assistant","content":[{"type":"tool-call","toolCallId":"a","toolName":"read","input":{"n":12345678901234567890}},{"type":"tool-call","toolCallId":"b","toolName":"read","input":{}}]}`,
        `{"role":"tool","content":[${first}, ${part("b", text("short"))}]}`,
        `{"role":"assistant","content":"ok"}`,
        `{"role":"user","content":"next"}`,
        `{"role":"assistant","content":"fine"}`,
      ].join("\n");
    const f = readConversationFile(`${lines(part("a", text(long)))}\n`);
    const r = await compactMessages(f.messages, { ...config, clear_keep: 1 }, { items: f.items });
    expect(r.report.clearing?.results).toBe(1);
    expect(writeConversationFile(r.messages, f)).toBe(
      `${lines(part("a", '{"type":"text","value":"[tool result cleared: 3,600 chars]"}'))}\n`,
    );
  });
});
