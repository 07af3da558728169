// Each loss the writer used to cause, one example each: a file read and written back with nothing
// changed must come back byte for byte (big integers, number spellings, escapes, minified JSON,
// CRLF line ends, a BOM), in every container and both shapes.
import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";

function roundTrip(text: string): string {
  const f = readConversationFile(text);
  return writeConversationFile(f.messages, f);
}

const openai = [
  '{"role":"system","content":"be brief"}',
  '{"role":"user","content":"caf\\u00e9 id 12345678901234567890","x_trace":12345678901234567890}',
  '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\\"n\\":1.50}"}}],"score":1.50}',
  '{"role":"tool","tool_call_id":"c1","content":"ok","weight":1E3}',
];
const anthropic = [
  '{"role":"user","content":"caf\\u00e9"}',
  '{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{"big":12345678901234567890,"r":1.50}}]}',
  '{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok","x":1E3},{"type":"text","text":"go on"}]}',
];

describe("nothing to do: the file comes back byte for byte", () => {
  it.each([
    ["a big integer in an unknown field", `[${openai[1]}]`],
    ["1.50 and 1E3 spelled as they were", `[${openai[2]},${openai[3]}]`.replace("[", `[${openai[1].replace("x_trace", "y")},`)],
    ["an escaped character stays escaped", `[${openai[0]},${openai[1]}]`],
    ["minified OpenAI body with other fields", `{"model":"gpt-4o","temperature":0.70,"messages":[${openai.join(",")}],"seed":12345678901234567890}`],
    ["pretty JSON array with 4 spaces", `[\n    ${openai.join(",\n    ")}\n]\n`],
    ["CRLF JSONL", openai.join("\r\n") + "\r\n"],
    ["JSONL without a final newline", openai.join("\n")],
    ["Anthropic minified body", `{"model":"claude","system":"s\\u00e9","max_tokens":1E3,"messages":[${anthropic.join(",")}]}`],
    ["Anthropic JSONL with a system line, CRLF", [`{"system":"sys \\u00e9"}`, ...anthropic].join("\r\n") + "\r\n"],
    ["Python-style spacing", `[${openai.map((l) => l.replaceAll('":', '": ').replaceAll(',"', ', "')).join(", ")}]`],
  ])("%s", (_name, text) => {
    expect(roundTrip(text)).toBe(text);
  });
});
