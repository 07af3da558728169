// Each loss the writer used to cause, one example each: a file read and written back with nothing
// changed must come back byte for byte (big integers, number spellings, escapes, minified JSON,
// CRLF line ends, a BOM), in every container and both shapes; and what is new is written in the
// file's own style.
import { describe, expect, it } from "vitest";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";

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
    [
      "1.50 and 1E3 spelled as they were",
      `[${openai[2]},${openai[3]}]`.replace("[", `[${openai[1].replace("x_trace", "y")},`),
    ],
    ["an escaped character stays escaped", `[${openai[0]},${openai[1]}]`],
    [
      "minified OpenAI body with other fields",
      `{"model":"gpt-4o","temperature":0.70,"messages":[${openai.join(",")}],"seed":12345678901234567890}`,
    ],
    ["pretty JSON array with 4 spaces", `[\n    ${openai.join(",\n    ")}\n]\n`],
    ["CRLF JSONL", `${openai.join("\r\n")}\r\n`],
    ["JSONL without a final newline", openai.join("\n")],
    [
      "Anthropic minified body",
      `{"model":"claude","system":"s\\u00e9","max_tokens":1E3,"messages":[${anthropic.join(",")}]}`,
    ],
    ["Anthropic JSONL with a system line, CRLF", `${[`{"system":"sys \\u00e9"}`, ...anthropic].join("\r\n")}\r\n`],
    ["Python-style spacing", `[${openai.map((l) => l.replaceAll('":', '": ').replaceAll(',"', ', "')).join(", ")}]`],
  ])("%s", (_name, text) => {
    expect(roundTrip(text)).toBe(text);
  });
});

describe("new messages are written in the file's own style", () => {
  const long = "x".repeat(3000);
  const conv = [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "c", content: long },
    { role: "assistant", content: "done" },
    { role: "user", content: "next" },
    { role: "assistant", content: "ok" },
  ];
  async function compacted(text: string): Promise<string> {
    const f = readConversationFile(text);
    const r = await compactMessages(f.messages, { token_threshold: 500, retention_window: 2, tokenizer: "chars" });
    expect(r.report.stretches.length).toBe(1);
    return writeConversationFile(r.messages, f);
  }

  it("pretty (4 spaces, CRLF): the summary is indented like its neighbours, one separator per line", async () => {
    const text = `${JSON.stringify(conv, null, 4).replaceAll("\n", "\r\n")}\r\n`;
    const out = await compacted(text);
    expect(out).toMatch(
      /\r\n {4}\{\r\n {8}"role": "assistant",\r\n {8}"content": "<summary>[^\r\n]*<\/summary>"\r\n {4}\},\r\n {4}\{\r\n {8}"role": "user"/,
    );
    expect(out.replaceAll("\r\n", "")).not.toContain("\n");
  });

  it("minified and Python-style spacing: the summary is spelled the same way", async () => {
    const min = await compacted(JSON.stringify(conv));
    expect(min).toMatch(
      /\},\{"role":"assistant","content":"<summary>.*<\/summary>"\},\{"role":"user","content":"next"\}/,
    );
    const py = JSON.stringify(conv).replaceAll('":', '": ').replaceAll(',"', ', "').replaceAll("},{", "}, {");
    expect(await compacted(py)).toMatch(
      /\}, \{"role": "assistant", "content": "<summary>.*<\/summary>"\}, \{"role": "user"/,
    );
  });
});

describe("a file message a splice cut into", () => {
  it("is its own text with only the summarized tool_result blocks cut out (other fields and blocks byte for byte)", async () => {
    const result = `{"type":"tool_result","tool_use_id":"a","content":"${"output line\\n".repeat(300)}","x_n":1E3}`;
    const rest = `{"type": "text", "text": "caf\\u00e9"}, {"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="},"cache_control":{"type":"ephemeral"}}`;
    const cut = `{"role":"user","x_seq":12345678901234567890,"content":[\n  ${result},\n  ${rest}\n]}`;
    const text =
      "[" +
      [
        `{"role":"user","content":"go"}`,
        `{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"read","input":{"n":12345678901234567890}}]}`,
        cut,
        `{"role":"assistant","content":"ok"}`,
      ].join(",\n") +
      "]\n";
    const f = readConversationFile(text);
    const r = await compactMessages(f.messages, { token_threshold: 500, retention_window: 1, tokenizer: "chars" });
    expect(r.report.stretches.map((s) => s.input)).toEqual([{ first: 1, last: 2 }]);
    const out = writeConversationFile(r.messages, f).split("\n");
    expect(out[0]).toBe(`[{"role":"user","content":"go"},`);
    // the image keeps the user message over the 500-token trigger (the lawful floor): the summary's
    // marker counts the assistant messages after it, for the spacing of later runs
    expect(out[1]).toMatch(/^\{"role":"assistant","content":"<summary after=\\"1\\">.*<\/summary>"\},$/);
    expect(out.slice(2).join("\n")).toBe(
      `{"role":"user","x_seq":12345678901234567890,"content":[\n  ${rest}\n]},\n{"role":"assistant","content":"ok"}]\n`,
    );
    expect(r.report.messagesAfter).toBe(4);
  });
});

describe("JSONL holds one message per line", () => {
  it("a value running over two lines is refused at its first line", () => {
    expect(() => readConversationFile('{"role":"user","content":"a"}\n{"role":"user",\n"content":"b"}\n')).toThrow(
      /^line 2: invalid JSON at column \d+: the value does not end on its line/,
    );
  });
});
