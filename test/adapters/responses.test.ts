// The Responses adapter on items typed with the `openai` package's own ResponseInputItem:
// reading (call_id pairing for every client-executed tool, MCP approvals, reasoning kept with
// its following item, protected item types), exact round trips, errors naming the item and
// field, and compaction whose laws hold in Responses items (retention window counted in them).
import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { readResponsesItems, writeResponsesItems } from "../../src/adapters/responses.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import { InputError } from "../../src/model/errors.ts";
import { responsesConversation } from "../support/generate-sdk.ts";

const FIXTURE: ResponseInputItem[] = [
  { role: "developer", content: "You are a careful agent." },
  {
    type: "message",
    role: "user",
    content: [
      { type: "input_text", text: "Fix the build." },
      { type: "input_image", detail: "auto", image_url: "https://example.com/x.png" },
    ],
  },
  { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAA" },
  { type: "function_call", call_id: "c1", name: "run", arguments: '{"cmd":"make"}' },
  { type: "custom_tool_call", call_id: "c2", name: "patch", input: "*** Begin Patch" },
  { type: "function_call_output", call_id: "c1", output: "error: missing ;" },
  { type: "custom_tool_call_output", call_id: "c2", output: [{ type: "input_text", text: "applied" }] },
  { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "make error" } },
  { type: "mcp_approval_request", id: "mcpr_1", name: "deploy", arguments: "{}", server_label: "ops" },
  { type: "mcp_approval_response", approval_request_id: "mcpr_1", approve: false },
  { type: "item_reference", id: "msg_old" },
  {
    id: "msg_2",
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Fixed.", annotations: [] }],
  },
  { type: "message", role: "user", content: "Thanks, now deploy." },
  { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "deploying" }] },
  { type: "function_call", call_id: "c3", name: "deploy", arguments: "{}" },
];

describe("reading Responses items", () => {
  it("pairs calls by call_id, keeps reasoning with its next item, protects what it cannot read", () => {
    const r = readResponsesItems(FIXTURE);
    expect(r.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "assistant",
      "tool",
      "system",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(r.messages[2]).toMatchObject({ toolCalls: [{ id: "c1", name: "run", arguments: '{"cmd":"make"}' }] });
    expect(r.messages[3]).toMatchObject({ toolCalls: [{ id: "c2", name: "patch", arguments: "*** Begin Patch" }] });
    expect(r.messages[5]).toMatchObject({ role: "tool", toolCallId: "c2", content: "applied" });
    expect(r.messages[8]).toMatchObject({ role: "tool", toolCallId: "approval:mcpr_1", content: "denied" });
    expect(r.messages[10]).toMatchObject({ role: "assistant", content: "Fixed." });
    // the last call is unanswered: an ongoing call, kept with its reasoning
    expect(r.messages[12]).toMatchObject({ toolCalls: [{ id: "c3" }] });
    expect(r.map.spans[2]).toEqual({ first: 2, last: 3 });
    expect(r.map.spans[12]).toEqual({ first: 13, last: 14 });
  });

  it("writes untouched items back as the very same objects", () => {
    const r = readResponsesItems(FIXTURE);
    const out = writeResponsesItems(r.messages, r);
    expect(out).toHaveLength(FIXTURE.length);
    out.forEach((item, i) => expect(item).toBe(FIXTURE[i]));
  });

  it("reads a summary back as a summary", () => {
    const items: ResponseInputItem[] = [
      { type: "message", role: "assistant", content: "<summary>\nold work\n</summary>" },
    ];
    expect(readResponsesItems(items).messages).toEqual([{ role: "summary", content: "old work" }]);
  });
});

describe("bad Responses input names the item and field", () => {
  const cases: [string, unknown, string][] = [
    [
      "a call without call_id",
      [{ type: "function_call", name: "f", arguments: "{}" }],
      "input[0].call_id: expected a string, got nothing (field missing)",
    ],
    [
      "an orphan output",
      [{ type: "function_call_output", call_id: "x", output: "" }],
      'input[0].call_id: orphan tool result: no tool call has id "x"',
    ],
    [
      "an output before its call",
      [
        { type: "function_call_output", call_id: "x", output: "" },
        { type: "function_call", call_id: "x", name: "f", arguments: "{}" },
      ],
      'input[0].call_id: tool result for "x" comes before its call at input[1].call_id',
    ],
    [
      "two outputs for one call",
      [
        { type: "function_call", call_id: "x", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "x", output: "" },
        { type: "function_call_output", call_id: "x", output: "" },
      ],
      'input[2].call_id: second tool result for "x" (first at input[1].call_id)',
    ],
    ["an unknown role", [{ type: "message", role: "robot", content: "x" }], 'input[0].role: unknown role "robot"'],
    [
      "a bad content part",
      [{ type: "message", role: "user", content: [{ type: "input_text", text: 5 }] }],
      "input[0].content[0].text: expected a string, got a number",
    ],
    ["an item that is not an object", [null], "input[0]: expected an item object, got null"],
  ];
  for (const [what, input, message] of cases) {
    it(what, () => {
      let err: unknown;
      try {
        readResponsesItems(input as ResponseInputItem[]);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toContain(message);
    });
  }
});

function callId(item: ResponseInputItem): { call?: string; output?: string } {
  if (item.type === "function_call") return { call: item.call_id };
  if (item.type === "function_call_output") return { output: item.call_id ?? undefined };
  return {};
}

// The laws, stated on Responses items: outputs follow their calls, calls that had outputs keep
// them, user and system/developer messages are the same objects in order, the last `window`
// items are the very same objects, and no reasoning item loses the item after it.
function expectResponsesLaws(
  before: readonly ResponseInputItem[],
  after: readonly ResponseInputItem[],
  window: number,
): void {
  const prot = (xs: readonly ResponseInputItem[]) => xs.filter((x) => "role" in x && x.role !== "assistant");
  expect(prot(after)).toHaveLength(prot(before).length);
  prot(after).forEach((x, i) => expect(x).toBe(prot(before)[i]));
  const w = Math.min(window, before.length);
  for (let k = 1; k <= w; k++) expect(after[after.length - k]).toBe(before[before.length - k]);
  const answeredBefore = new Set(before.flatMap((x) => callId(x).output ?? []));
  const calls = new Set<string>();
  const answered = new Set<string>();
  after.forEach((x, i) => {
    const { call, output } = callId(x);
    if (call !== undefined) calls.add(call);
    if (output !== undefined) {
      expect(calls.has(output), `orphan output ${output}`).toBe(true);
      answered.add(output);
    }
    if (x.type === "reasoning") expect(after[i + 1]).toBe(before[before.indexOf(x) + 1]);
  });
  for (const id of calls) if (answeredBefore.has(id)) expect(answered.has(id), `call ${id} lost its output`).toBe(true);
}

describe("compacting Responses items", () => {
  it("replaces old steps by a summary message; laws hold; the window counts items", async () => {
    const input = responsesConversation({ turns: 12 });
    const r = await compactResponsesItems(input, { token_threshold: 3000, retention_window: 7 });
    // user messages and the window may keep it above the trigger: then it says so (still due)
    expect(r.report.outcome).toMatch(/^compacted(-still-due)?$/);
    expect(r.report.stretches.length).toBeGreaterThan(0);
    expect(r.input.length).toBeLessThan(input.length);
    expectResponsesLaws(input, r.input, 7);
    const summary = r.input.find(
      (x) =>
        x.type === "message" &&
        x.role === "assistant" &&
        typeof x.content === "string" &&
        x.content.startsWith("<summary>"),
    );
    expect(summary).toBeDefined();
    expect(r.report.messagesBefore).toBe(input.length);
    expect(r.report.messagesAfter).toBe(r.input.length);
    expect(r.input[r.report.stretches[0].input.first]).toBe(summary);
  });

  it("never separates a reasoning item from its call, even where the window begins between them", async () => {
    const input: ResponseInputItem[] = [{ type: "message", role: "user", content: "Go." }];
    for (let k = 0; k < 10; k++) {
      input.push({ type: "reasoning", id: `rs_${k}`, summary: [], encrypted_content: "x".repeat(50) });
      input.push({ type: "function_call", call_id: `c${k}`, name: "read", arguments: `{"path":"src/f${k}.ts"}` });
      input.push({ type: "function_call_output", call_id: `c${k}`, output: `line of src/f${k}.ts\n`.repeat(40) });
    }
    // the last 2 items are the last call and its output: the window begins right after a reasoning item
    const r = await compactResponsesItems(input, { token_threshold: 500, retention_window: 2, tokenizer: "chars" });
    expect(r.report.outcome).toBe("compacted");
    expectResponsesLaws(input, r.input, 2);
    expect(r.input.slice(-3)).toEqual(input.slice(-3));
  });

  it("does nothing when nothing is due: the same objects come back", async () => {
    const input = responsesConversation({ turns: 2 });
    const r = await compactResponsesItems(input, { token_threshold: 1_000_000 });
    expect(r.report.outcome).toBe("nothing-to-do");
    r.input.forEach((x, i) => expect(x).toBe(input[i]));
  });

  it("keeps pairing, reasoning and the retention window on random histories (fast-check)", async () => {
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
          const input = responsesConversation(gen);
          const r = await compactResponsesItems(input, {
            token_threshold: threshold,
            retention_window: window,
            tokenizer: "chars",
          });
          expectResponsesLaws(input, r.input, window);
          expect(r.report.messagesAfter).toBe(r.input.length);
          if (r.report.stretches.length > 0) compacted++;
        },
      ),
      { numRuns: 60 },
    );
    expect(compacted).toBeGreaterThan(10);
  });
});
