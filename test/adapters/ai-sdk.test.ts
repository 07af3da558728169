// The AI SDK adapter on messages typed with the `ai` package's own ModelMessage: reading (tool
// pairing, approvals, provider-executed results, ongoing calls, unknown parts), exact round
// trips, errors naming the message and field, compaction whose laws hold in the SDK's own
// messages (retention window counted in them), and the prepareStep hook in a real agent loop.
import type { ModelMessage } from "ai";
import { generateText, stepCountIs, tool } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readModelMessages, writeModelMessages } from "../../src/adapters/ai-sdk.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { compactBeforeStep, compactModelMessages } from "../../src/library/ai-sdk.ts";
import { ConfigError, InputError } from "../../src/model/errors.ts";
import { modelMessagesConversation } from "../support/generate-sdk.ts";
import { toolThenTextModel } from "../support/tool-then-text-model.ts";

const image = new Uint8Array([137, 80, 78, 71]);

// Every part kind the installed `ai` types define, in a short agent exchange.
const FIXTURE: ModelMessage[] = [
  { role: "system", content: "You are a careful agent." },
  {
    role: "user",
    content: [
      { type: "text", text: "What is in the picture and the repo?" },
      { type: "image", image, mediaType: "image/png" },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "I should look at both.", providerOptions: { anthropic: { signature: "sig" } } },
      {
        type: "reasoning-file",
        data: { type: "url", url: new URL("https://example.com/plan.png") },
        mediaType: "image/png",
      },
      { type: "custom", kind: "openai.compaction", providerOptions: { openai: { id: "cmp_1" } } },
      { type: "text", text: "Looking." },
      { type: "tool-call", toolCallId: "c1", toolName: "ls", input: { dir: "." } },
      { type: "tool-call", toolCallId: "c2", toolName: "cat", input: { path: "README.md" } },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "c1", toolName: "ls", output: { type: "json", value: ["a.ts", "b.ts"] } },
      { type: "tool-result", toolCallId: "c2", toolName: "cat", output: { type: "error-text", value: "ENOENT" } },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId: "ws1", toolName: "web_search", input: { q: "png" }, providerExecuted: true },
      {
        type: "tool-result",
        toolCallId: "ws1",
        toolName: "web_search",
        output: { type: "text", value: "PNG is a format" },
      },
      { type: "file", data: { type: "url", url: new URL("https://example.com/a.png") }, mediaType: "image/png" },
      { type: "tool-call", toolCallId: "rm1", toolName: "rm", input: { path: "b.ts" } },
      { type: "tool-approval-request", approvalId: "ap1", toolCallId: "rm1" },
    ],
  },
  { role: "tool", content: [{ type: "tool-approval-response", approvalId: "ap1", approved: true }] },
  {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "rm1", toolName: "rm", output: { type: "text", value: "removed" } }],
  },
  { role: "assistant", content: "Done." },
  { role: "user", content: "Now run the tests." },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "test", input: {} }] },
];

describe("reading AI SDK messages", () => {
  it("maps every part kind, pairs calls with results and approvals with answers", () => {
    const r = readModelMessages(FIXTURE);
    expect(r.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "system", // the compaction item of message 2, after its calls and before their results
      "tool",
      "tool",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
    const asst = r.messages[2];
    expect(asst.role === "assistant" && asst.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ["c1", "ls", '{"dir":"."}'],
      ["c2", "cat", '{"path":"README.md"}'],
    ]);
    expect(r.messages[5]).toMatchObject({ role: "tool", toolCallId: "c2", content: "ENOENT", isError: true });
    expect(r.messages[3]).toMatchObject({ role: "system", serverCompaction: true });
    expect(r.messages[4]).toMatchObject({ role: "tool", toolCallId: "c1", content: '["a.ts","b.ts"]' });
    // the provider-executed search pairs inside its assistant message; the approval pairs like a call
    const withApproval = r.messages[6];
    expect(withApproval.role === "assistant" && withApproval.toolCalls.map((c) => c.id)).toEqual([
      "ws1",
      "rm1",
      "approval:ap1",
    ]);
    expect(r.messages[7]).toMatchObject({ role: "tool", toolCallId: "ws1" });
    expect(r.messages[8]).toMatchObject({ role: "tool", toolCallId: "approval:ap1", content: "approved" });
    // the last call has no result yet: an ongoing call, read without complaint
    expect(r.messages[12]).toMatchObject({ role: "assistant", toolCalls: [{ id: "t1" }] });
    // engine message -> input message
    expect(r.map.items).toBe(FIXTURE.length);
    expect(r.map.spans.map((s) => s.first)).toEqual([0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]);
  });

  it("writes untouched messages back as the very same objects", () => {
    const r = readModelMessages(FIXTURE);
    const out = writeModelMessages(r.messages, r);
    expect(out).toHaveLength(FIXTURE.length);
    out.forEach((m, i) => expect(m).toBe(FIXTURE[i]));
  });

  it("writes what is left of a message cut by a summary with its own part objects", () => {
    const r = readModelMessages(FIXTURE);
    // engine message 4 is the first of the two results of tool message 3: replace it alone
    const cut = [
      ...r.messages.slice(0, 4),
      { role: "summary" as const, content: "read the listing" },
      ...r.messages.slice(5),
    ];
    const out = writeModelMessages(cut, r);
    expect(out[3]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "<summary>\nread the listing\n</summary>" }],
    });
    const rest = out[4];
    const original = FIXTURE[3];
    expect(rest).not.toBe(original);
    expect(
      rest.role === "tool" &&
        original.role === "tool" &&
        rest.content.length === 1 &&
        rest.content[0] === original.content[1],
    ).toBe(true);
    out.slice(5).forEach((m, i) => expect(m).toBe(FIXTURE[4 + i]));
  });

  it("keeps parts of a kind it does not know, in place", () => {
    const unknownPart = { type: "future-part", payload: 42 };
    // a part kind newer than the installed types: only a cast can state it
    const msgs = [
      { role: "assistant", content: [{ type: "text", text: "hi" }, unknownPart] },
    ] as unknown as ModelMessage[];
    const r = readModelMessages(msgs);
    // an unknown part counts as its JSON text by the character heuristic (never 0 tokens)
    const mediaTokens = Math.ceil(JSON.stringify(unknownPart).length / 4);
    // its bytes in a request: its JSON text and a separator (AI SDK messages carry no source to count)
    const mediaBytes = JSON.stringify(unknownPart).length + 1;
    expect(r.messages).toEqual([{ role: "assistant", content: "hi", toolCalls: [], mediaTokens, mediaBytes }]);
    expect(writeModelMessages(r.messages, r)[0]).toBe(msgs[0]);
  });

  it("reads a summary back as a summary (rolling summaries)", () => {
    const msgs: ModelMessage[] = [
      { role: "assistant", content: [{ type: "text", text: "<summary>\nearlier work\n</summary>" }] },
    ];
    expect(readModelMessages(msgs).messages).toEqual([{ role: "summary", content: "earlier work" }]);
  });
});

describe("bad AI SDK input names the message and field", () => {
  const cases: [string, unknown, string][] = [
    [
      "a non-string toolCallId",
      [
        {
          role: "assistant",
          content: [
            { type: "text", text: "x" },
            { type: "tool-call", toolCallId: 7, toolName: "f", input: {} },
          ],
        },
      ],
      "messages[0].content[1].toolCallId: expected a string, got a number",
    ],
    ["an unknown role", [{ role: "robot", content: "x" }], 'messages[0].role: unknown role "robot"'],
    [
      "a system message with parts",
      [{ role: "system", content: [{ type: "text", text: "x" }] }],
      "messages[0].content: expected a string, got an array",
    ],
    [
      "an orphan result",
      [
        { role: "user", content: "x" },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "zz", toolName: "f", output: { type: "text", value: "" } }],
        },
      ],
      'messages[1].content[0].toolCallId: orphan tool result: no tool call has id "zz"',
    ],
    [
      "a duplicate call id",
      [
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "f", input: {} }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "f", input: {} }] },
      ],
      'messages[1].content[0].toolCallId: duplicate tool call id "a" (already used at messages[0].content[0].toolCallId)',
    ],
    [
      "an output without a type",
      [
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "f", input: {} }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "f", output: { value: "x" } }] },
      ],
      "messages[1].content[0].output.type: expected a string, got nothing (field missing)",
    ],
    ["a message that is not an object", [3], "messages[0]: expected a message object, got a number"],
  ];
  for (const [what, input, message] of cases) {
    it(what, () => {
      let err: unknown;
      try {
        readModelMessages(input as ModelMessage[]);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toContain(message);
    });
  }
});

// The laws, stated on AI SDK messages: every kept result's call is kept before it, calls that
// had results keep them, system and user messages are the same objects in the same order, and
// the last `window` messages are the very same objects.
function expectSdkLaws(before: readonly ModelMessage[], after: readonly ModelMessage[], window: number): void {
  const prot = (ms: readonly ModelMessage[]) => ms.filter((m) => m.role === "system" || m.role === "user");
  expect(prot(after)).toHaveLength(prot(before).length);
  prot(after).forEach((m, i) => expect(m).toBe(prot(before)[i]));
  const w = Math.min(window, before.length);
  for (let k = 1; k <= w; k++) expect(after[after.length - k]).toBe(before[before.length - k]);
  const answeredBefore = new Set(
    before.flatMap((m) =>
      (Array.isArray(m.content) ? m.content : []).flatMap((p) => (p.type === "tool-result" ? [p.toolCallId] : [])),
    ),
  );
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const m of after) {
    if (!Array.isArray(m.content)) continue;
    for (const p of m.content) {
      if (p.type === "tool-call") calls.add(p.toolCallId);
      if (p.type === "tool-result") {
        expect(calls.has(p.toolCallId), `orphan result ${p.toolCallId}`).toBe(true);
        answered.add(p.toolCallId);
      }
    }
  }
  for (const id of calls) if (answeredBefore.has(id)) expect(answered.has(id), `call ${id} lost its result`).toBe(true);
}

describe("compacting AI SDK messages", () => {
  it("replaces old steps by a summary; laws hold; the window counts AI SDK messages", async () => {
    const input = modelMessagesConversation({ turns: 12 });
    const r = await compactModelMessages(input, { token_threshold: 3000, retention_window: 5 });
    // user messages and the window may keep it above the trigger: then it says so (still due)
    expect(r.report.outcome).toMatch(/^compacted(-still-due)?$/);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.messages.length).toBeLessThan(input.length);
    expectSdkLaws(input, r.messages, 5);
    const summaries = r.messages.filter(
      (m) =>
        m.role === "assistant" &&
        Array.isArray(m.content) &&
        m.content.some((p) => p.type === "text" && p.text.startsWith("<summary>")),
    );
    expect(summaries.length).toBeGreaterThan(0);
    // the report counts AI SDK messages, not the engine's
    expect(r.report.messagesBefore).toBe(input.length);
    expect(r.report.messagesAfter).toBe(r.messages.length);
    const first = r.report.stretches[0];
    expect(r.messages.slice(0, first.input.first)).toEqual(input.slice(0, first.input.first));
    expect(r.messages[first.input.first]).toBe(summaries[0]);
  });

  it("does nothing when nothing is due: the same objects come back", async () => {
    const input = modelMessagesConversation({ turns: 2 });
    const r = await compactModelMessages(input, { token_threshold: 1_000_000 });
    expect(r.report.outcome).toBe("nothing-to-do");
    r.messages.forEach((m, i) => expect(m).toBe(input[i]));
  });

  it("keeps pairing and the retention window on random histories (fast-check)", async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          turns: fc.integer({ min: 1, max: 8 }),
          callsPerStep: fc.integer({ min: 1, max: 3 }),
          stepsPerTurn: fc.integer({ min: 1, max: 3 }),
          outputLines: fc.integer({ min: 1, max: 12 }),
          seed: fc.integer({ min: 1, max: 1000 }),
          ongoingAtEnd: fc.boolean(),
        }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 200, max: 4000 }),
        async (gen, window, threshold) => {
          const input = modelMessagesConversation(gen);
          const r = await compactModelMessages(input, {
            token_threshold: threshold,
            retention_window: window,
            tokenizer: "chars",
          });
          expectSdkLaws(input, r.messages, window);
          expect(r.report.messagesAfter).toBe(r.messages.length);
          if (r.report.stretches.length > 0) compacted++;
        },
      ),
      { numRuns: 60 },
    );
    expect(compacted).toBeGreaterThan(10); // the property was tested on real compactions, not only on no-ops
  });
});

describe("compactBeforeStep in an AI SDK agent loop", () => {
  it("refuses a bad configuration when the agent is built, not at its first step", () => {
    expect(() => compactBeforeStep({ retention_window: 0 })).toThrow(ConfigError);
  });

  it("compacts the messages the model sees at a later step", async () => {
    // this `ai` version takes system instructions apart from the messages
    const [system, ...history] = modelMessagesConversation({ turns: 10 });
    const model = toolThenTextModel("live-1", "ls", "all done");
    const reports: CompactionReport[] = [];
    const result = await generateText({
      model,
      instructions: system.role === "system" ? system.content : "",
      messages: history,
      tools: { ls: tool({ inputSchema: z.object({}), execute: async () => "a.ts b.ts" }) },
      stopWhen: stepCountIs(3),
      prepareStep: compactBeforeStep(
        { token_threshold: 3000, strategy: "summarize" },
        { onReport: (r) => reports.push(r) },
      ),
    });
    expect(result.text).toBe("all done");
    expect(reports[0].outcome).toMatch(/^compacted(-still-due)?$/);
    expect(reports[0].stretches.length).toBeGreaterThan(0);
    // the model got fewer messages than the history had, a summary among them
    const prompt = model.doGenerateCalls[0].prompt;
    expect(prompt.length).toBeLessThan(history.length);
    expect(JSON.stringify(prompt)).toContain("<summary>");
  });
});
