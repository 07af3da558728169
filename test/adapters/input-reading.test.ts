// How input files are read where issue 19 found them misread: JSON errors at their real line and
// column (pretty-printed JSON and JSONL alike), parts that are not text counted by a documented
// estimate per kind in all four formats (never 0), a --format the file's marks contradict
// refused, duplicate keys (the last wins, as the providers' parsers read them) and a user
// message with content null (refused).
import { describe, expect, it } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import {
  AUDIO_BYTES_PER_TOKEN,
  FILE_REFERENCE_TOKENS,
  IMAGE_LOW_DETAIL_TOKENS,
  IMAGE_TOKENS,
  PDF_PAGE_TOKENS,
} from "../../src/model/media-tokens.ts";
import type { Message } from "../../src/model/message.ts";
import { bpeCounter, charCounter, messageTokens } from "../../src/model/tokens.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";

const dir = tempDir();
const errorOf = async (text: string, extra: string[] = []): Promise<{ code: number; stderr: string }> => {
  const r = await runInProcess(["compact", "-", ...extra], { cwd: dir, stdin: text });
  return { code: r.code, stderr: r.stderr };
};

describe("JSON errors name the real line and column", () => {
  const pretty = JSON.stringify(
    {
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "hello" },
        { role: "assistant", content: "hi" },
      ],
    },
    null,
    2,
  );

  it("a trailing comma on line 6 of a pretty-printed file is reported where the parse stops, at line 7", async () => {
    const lines = pretty.split("\n");
    // line 6 is `      "content": "hello"` in the first message: a comma after it, then "}" on line 7
    expect(lines[5]).toContain('"content": "hello"');
    lines[5] = `${lines[5]},`;
    const r = await errorOf(lines.join("\n"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`invalid JSON at line 7, column 5: unexpected "}", expected a quoted key`);
    expect(r.stderr).not.toContain("line 1");
  });

  it("a truncated pretty-printed file is reported where it ends", async () => {
    const cut = pretty.slice(0, pretty.lastIndexOf('"hi"') + 4);
    const lastLine = cut.split("\n").length;
    const r = await errorOf(cut);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`invalid JSON at line ${lastLine}, column ${cut.split("\n").at(-1)!.length + 1}`);
  });

  it("JSONL: the error is on its own line, its column counted from that line's start", async () => {
    const text = [
      JSON.stringify({ role: "user", content: "a" }),
      JSON.stringify({ role: "assistant", content: "b" }),
      '{"role": "user", "content": "c",}',
      JSON.stringify({ role: "assistant", content: "d" }),
    ].join("\n");
    const r = await errorOf(text);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`line 3: invalid JSON at column 33: unexpected "}", expected a quoted key`);
  });

  it("JSONL: a value that goes on past its line is reported on that line, not at a later line's error", async () => {
    const text = [JSON.stringify({ role: "user", content: "a" }), '{"role": "assistant",', '"content": "b"}'].join(
      "\n",
    );
    const r = await errorOf(text);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 2: invalid JSON at column 22: the value does not end on its line");
  });
});

describe("parts that are not text count by an estimate per kind, never 0", () => {
  const b64 = (bytes: number) => Buffer.alloc(bytes, 7).toString("base64");
  const audio = b64(100_000);
  const pdf = Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Pages /Count 3 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type /Page >>\n4 0 obj << /Type /Page >>\n%%EOF",
  ).toString("base64");
  const png = `data:image/png;base64,${b64(100_000)}`;

  /** The user message's tokens minus those of the same text alone: what the part added. */
  function added(file: string, counter = bpeCounter()): number {
    const msgs = readConversationFile(file).messages;
    const user = msgs.find((m) => m.role === "user")!;
    const alone: Message = { role: "user", content: user.content };
    return messageTokens(counter, user) - messageTokens(counter, alone);
  }
  const openai = (part: object) =>
    JSON.stringify({ messages: [{ role: "user", content: [{ type: "text", text: "look" }, part] }] });
  const anthropic = (block: object) =>
    JSON.stringify({ system: "s", messages: [{ role: "user", content: [{ type: "text", text: "look" }, block] }] });
  const aiSdk = (part: object) =>
    JSON.stringify([
      { role: "user", content: [{ type: "text", text: "look" }, part] },
      { role: "assistant", content: [{ type: "reasoning", text: "r" }] },
    ]);
  const responses = (part: object) =>
    JSON.stringify({ input: [{ role: "user", content: [{ type: "input_text", text: "look" }, part] }] });

  it.each([
    [
      "openai input_audio (100 KB)",
      openai({ type: "input_audio", input_audio: { data: audio, format: "mp3" } }),
      Math.ceil(100_000 / AUDIO_BYTES_PER_TOKEN),
    ],
    ["openai image_url data URL (100 KB)", openai({ type: "image_url", image_url: { url: png } }), IMAGE_TOKENS],
    [
      "openai image_url, detail low",
      openai({ type: "image_url", image_url: { url: png, detail: "low" } }),
      IMAGE_LOW_DETAIL_TOKENS,
    ],
    [
      "openai file (a 3-page PDF)",
      openai({ type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${pdf}` } }),
      3 * PDF_PAGE_TOKENS,
    ],
    ["openai file by id", openai({ type: "file", file: { file_id: "file-1" } }), FILE_REFERENCE_TOKENS],
    [
      "anthropic image",
      anthropic({ type: "image", source: { type: "base64", media_type: "image/png", data: b64(100_000) } }),
      IMAGE_TOKENS,
    ],
    [
      "anthropic PDF document",
      anthropic({ type: "document", source: { type: "base64", media_type: "application/pdf", data: pdf } }),
      3 * PDF_PAGE_TOKENS,
    ],
    ["ai-sdk image", aiSdk({ type: "image", image: b64(100_000), mediaType: "image/png" }), IMAGE_TOKENS],
    ["ai-sdk PDF file", aiSdk({ type: "file", data: pdf, mediaType: "application/pdf" }), 3 * PDF_PAGE_TOKENS],
    [
      "ai-sdk audio file",
      aiSdk({ type: "file", data: audio, mediaType: "audio/mpeg" }),
      Math.ceil(100_000 / AUDIO_BYTES_PER_TOKEN),
    ],
    ["responses input_image", responses({ type: "input_image", image_url: png }), IMAGE_TOKENS],
    [
      "responses input_file (PDF)",
      responses({ type: "input_file", filename: "a.pdf", file_data: `data:application/pdf;base64,${pdf}` }),
      3 * PDF_PAGE_TOKENS,
    ],
  ])("%s", (_name, file, expected) => {
    expect(added(file)).toBe(expected);
    // the estimate does not depend on the text counter
    expect(added(file, charCounter())).toBe(expected);
  });

  it("an unknown part counts as its JSON text by the character heuristic", () => {
    const part = { type: "future_part", payload: "x".repeat(4000) };
    expect(added(openai(part))).toBe(Math.ceil(JSON.stringify(part).length / 4));
  });
});

describe("--format against the file's marks", () => {
  const anthropicBody = JSON.stringify({
    model: "claude-haiku-4-5",
    system: "You are careful.",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a b" }] },
    ],
  });

  it("--format openai on an Anthropic body (its system) is refused, not misread", async () => {
    const r = await errorOf(anthropicBody, ["--format", "openai"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format openai does not match the file: its top-level "system" reads as anthropic');
  });

  it("--format openai on Anthropic content blocks is refused, naming the message and the block", async () => {
    const noSystem = JSON.stringify({ messages: (JSON.parse(anthropicBody) as { messages: unknown[] }).messages });
    const r = await errorOf(noSystem, ["--format", "openai"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'messages[1]: --format openai does not match the file: messages[1] reads as anthropic (a "tool_use" part)',
    );
  });

  it("--format naming the file's own format is accepted", async () => {
    const r = await runInProcess(["compact", "-", "--format", "anthropic"], { cwd: dir, stdin: anthropicBody });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(anthropicBody);
  });
});

describe("duplicate keys and content null", () => {
  it("a duplicate key: the last one wins (as JSON.parse and the providers' parsers read it), and the message is written back as it was", async () => {
    const text = '[{"role":"user","content":"first","content":"second"},{"role":"assistant","content":"ok"}]';
    const conv = readConversationFile(text);
    expect(conv.messages[0]?.content).toBe("second");
    const r = await runInProcess(["compact", "-"], { cwd: dir, stdin: text });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(text);
  });

  it.each(["user", "system", "tool"])("a %s message with content null is refused naming the field", async (role) => {
    const msg = role === "tool" ? { role, tool_call_id: "c1", content: null } : { role, content: null };
    const calls =
      role === "tool"
        ? [
            {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
            },
          ]
        : [];
    const r = await errorOf(JSON.stringify([...calls, msg]));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`content: a ${role} message needs content (a string or an array of parts), got null`);
  });

  it("an assistant message calling tools may have content null", async () => {
    const text = JSON.stringify([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "done" },
    ]);
    const r = await runInProcess(["compact", "-"], { cwd: dir, stdin: text });
    expect(r.code).toBe(0);
  });
});
