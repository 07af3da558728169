// The LangChain.js middleware end to end: a real `createAgent` agent (langchain 1) on a real
// ChatOpenAI model (@langchain/openai) whose API is a loopback server scripted as a tool-calling
// model, with safecut's middleware summarizing through a second loopback server (the OpenAI
// summarizer). Every request the model received is checked: each holds the user's message, no
// tool result is parted from its call, and the context stays bounded where the same agent
// without the middleware sends everything.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readModelMessages } from "../../src/adapters/ai-sdk.ts";
import { LangChainBridge } from "../../src/adapters/langchain.ts";
import { kernelViews } from "../../src/engine/store/views.ts";
import { compactModelMessages } from "../../src/entries/ai-sdk.ts";
import { safecutMiddleware } from "../../src/entries/langchain.ts";
import type { CompactionReport } from "../../src/index.ts";
import { factfulAnswer, type Imitation, type RecordedRequest, startImitation } from "../support/http-imitation.ts";

const READS = 12;
const TASK = "Read the twelve source files and tell me which one defines the parser.";
const open: Imitation[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

interface WireMessage {
  readonly role: string;
  readonly content: unknown;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly { readonly id: string }[];
}

const wire = (req: RecordedRequest) => req.body.messages as WireMessage[];

/** A model that reads file n on its n-th call (0-based) while n < READS, then answers (what compaction left it does not change its course). */
function agentScript(calls: number) {
  const message =
    calls < READS
      ? {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${calls}`,
              type: "function",
              function: { name: "read_file", arguments: JSON.stringify({ path: `src/file${calls}.ts` }) },
            },
          ],
        }
      : { role: "assistant", content: "src/file7.ts defines the parser." };
  return {
    kind: "raw" as const,
    status: 200,
    body: JSON.stringify({
      id: `chatcmpl-${calls}`,
      object: "chat.completion",
      created: 0,
      model: "gpt-4o-mini",
      choices: [{ index: 0, message, finish_reason: calls < READS ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
  };
}

const readFile = tool(
  async ({ path }: { path: string }) => `// ${path}\n${"export const value = 1; // a line of the file\n".repeat(40)}`,
  { name: "read_file", description: "Reads a file", schema: z.object({ path: z.string() }) },
);

async function runAgent(
  middleware: ReturnType<typeof safecutMiddleware>[],
): Promise<{ model: Imitation; answer: string }> {
  const model = await startImitation("openai", agentScript);
  open.push(model);
  const agent = createAgent({
    model: new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: model.url } }),
    tools: [readFile],
    middleware,
  });
  const result = await agent.invoke({ messages: [new HumanMessage(TASK)] }, { recursionLimit: 100 });
  const last = result.messages[result.messages.length - 1];
  return { model, answer: typeof last.content === "string" ? last.content : JSON.stringify(last.content) };
}

/** Every tool result of the request answers a call made earlier in the same request. */
function pairedInEveryRequest(requests: readonly RecordedRequest[]): void {
  for (const [n, req] of requests.entries()) {
    const called = new Set<string>();
    for (const m of wire(req)) {
      for (const c of m.tool_calls ?? []) called.add(c.id);
      if (m.role === "tool")
        expect(called.has(m.tool_call_id ?? ""), `request ${n}: orphan ${m.tool_call_id}`).toBe(true);
    }
  }
}

describe("safecutMiddleware on a createAgent agent", { timeout: 60_000 }, () => {
  it("keeps the user's message and every pairing, and bounds the context the model is sent", async () => {
    const bare = await runAgent([]);
    const summarizer = await startImitation("openai", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
    open.push(summarizer);
    const reports: CompactionReport[] = [];
    const compacted = await runAgent([
      safecutMiddleware(
        {
          provider: "openai",
          base_url: summarizer.url,
          model: "gpt-4o-mini",
          tokenizer: "chars",
          token_threshold: 4_000,
          retention_window: 4,
          timeout_ms: 5_000,
        },
        { onReport: (r) => reports.push(r), env: { OPENAI_API_KEY: "sk-test" } },
      ),
    ]);
    expect(compacted.answer).toBe("src/file7.ts defines the parser.");
    expect(bare.answer).toBe(compacted.answer);
    // the same number of model calls: compaction changed what was sent, not what the agent did
    expect(compacted.model.requests.length).toBe(bare.model.requests.length);
    expect(compacted.model.requests.length).toBe(READS + 1);
    for (const req of compacted.model.requests)
      expect(wire(req).filter((m) => m.role === "user" && m.content === TASK)).toHaveLength(1);
    pairedInEveryRequest(compacted.model.requests);
    const size = (req: RecordedRequest) => JSON.stringify(wire(req)).length;
    const largest = Math.max(...compacted.model.requests.map(size));
    const bareLargest = Math.max(...bare.model.requests.map(size));
    // the middleware ran: old results cleared, then the stretch before the window summarized (the
    // default clear-then-summarize reaching its low-water target), and the model was sent the summary
    expect(reports.some((r) => (r.clearing?.results ?? 0) > 0 && r.stretches.length > 0)).toBe(true);
    expect(summarizer.requests.length).toBeGreaterThan(0);
    expect(
      compacted.model.requests.some((req) =>
        wire(req).some((m) => m.role === "assistant" && String(m.content).startsWith("<summary>")),
      ),
    ).toBe(true);
    // before the trigger fired the two agents sent the same; after it, far less
    expect(largest).toBeLessThan(bareLargest);
    expect(size(compacted.model.requests[READS])).toBeLessThan(size(bare.model.requests[READS]) / 2);
  });

  it("in background mode (soft_token_threshold) compacts while the agent goes on, with the same laws", async () => {
    const summarizer = await startImitation("openai", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
    open.push(summarizer);
    const reports: CompactionReport[] = [];
    const run = await runAgent([
      safecutMiddleware(
        {
          provider: "openai",
          base_url: summarizer.url,
          model: "gpt-4o-mini",
          tokenizer: "chars",
          token_threshold: 6_000,
          soft_token_threshold: 3_000,
          retention_window: 4,
          timeout_ms: 5_000,
        },
        { onReport: (r) => reports.push(r), env: { OPENAI_API_KEY: "sk-test" } },
      ),
    ]);
    expect(run.answer).toBe("src/file7.ts defines the parser.");
    expect(run.model.requests.length).toBe(READS + 1);
    for (const req of run.model.requests)
      expect(wire(req).filter((m) => m.role === "user" && m.content === TASK)).toHaveLength(1);
    pairedInEveryRequest(run.model.requests);
    expect(reports.some((r) => r.outcome === "compacted")).toBe(true);
    // a result taken from the background run reached the model: some request carries a summary
    expect(
      run.model.requests.some((req) =>
        wire(req).some((m) => m.role === "assistant" && String(m.content).startsWith("<summary>")),
      ),
    ).toBe(true);
  });

  it("refuses a bad setting when the agent is built, naming it", () => {
    expect(() => safecutMiddleware({ token_threshold: -1 })).toThrow(/^token_threshold: /);
  });
});

describe("the LangChain bridge", () => {
  it("gives back the caller's own objects for untouched messages and keeps a cleared result's id and call", () => {
    const bridge = new LangChainBridge();
    const user = new HumanMessage({ content: "hi", id: "u1" });
    const call = new AIMessage({
      content: "",
      id: "a1",
      tool_calls: [{ id: "c1", name: "read_file", args: { path: "x" } }],
    });
    const result = new ToolMessage({ content: "long body", tool_call_id: "c1", id: "t1", name: "read_file" });
    const before = [user, call, result];
    const model = bridge.toModel(before);
    // the same conversion at every step: identities hold for the due tracker
    expect(bridge.toModel(before)).toEqual(model);
    expect(bridge.toModel(before)[0]).toBe(model[0]);
    const cleared = {
      role: "tool" as const,
      content: [
        {
          type: "tool-result" as const,
          toolCallId: "c1",
          toolName: "read_file",
          output: { type: "text" as const, value: "[tool result cleared: 9 chars]" },
        },
      ],
    };
    const out = bridge.fromModel([model[0], model[1], cleared], before);
    expect(out[0]).toBe(user);
    expect(out[1]).toBe(call);
    expect(ToolMessage.isInstance(out[2])).toBe(true);
    const t = out[2] as ToolMessage;
    expect([t.id, t.tool_call_id, t.name, t.content]).toEqual([
      "t1",
      "c1",
      "read_file",
      "[tool result cleared: 9 chars]",
    ]);
  });

  it("names the message it cannot read", () => {
    const bridge = new LangChainBridge();
    const call = new AIMessage({ content: "", tool_calls: [{ id: "", name: "read_file", args: {} }] });
    expect(() => bridge.toModel([new HumanMessage("hi"), call])).toThrow(/^messages\[1\]\.tool_calls\[0\]\.id: /);
  });

  it("keeps an AI message holding a provider's compaction block as the caller's own object through a compaction", async () => {
    const bridge = new LangChainBridge();
    const compaction = new AIMessage({
      content: [
        { type: "compaction", content: "Files 0 to 9 were read.", encrypted_content: "Eq".repeat(300) },
        { type: "text", text: "Continuing." },
      ],
    });
    const before: BaseMessage[] = [new HumanMessage("Read the files."), compaction];
    for (let k = 0; k < 12; k++) {
      before.push(
        new AIMessage({ content: "", tool_calls: [{ id: `c${k}`, name: "read_file", args: { path: `f${k}` } }] }),
      );
      before.push(new ToolMessage({ content: `line of f${k}\n`.repeat(40), tool_call_id: `c${k}`, name: "read_file" }));
    }
    const model = bridge.toModel(before);
    // read under the kernel's compaction role, a boundary like a user message
    expect(kernelViews(readModelMessages(model).messages).roles[1]).toBe("compaction");
    const r = await compactModelMessages(model, { token_threshold: 1500, tokenizer: "chars", min_stretch_tokens: 0 });
    expect(r.report.outcome).toMatch(/^compacted/);
    const out = bridge.fromModel(r.messages, before);
    expect(out).toContain(compaction);
    expect(out.length).toBeLessThan(before.length);
  });

  it("keeps an AI message holding a compaction block and tool calls whole, with its tool results, through a compaction", async () => {
    const bridge = new LangChainBridge();
    const block = { type: "compaction", content: "Files 0 to 5 were read.", encrypted_content: "Eq".repeat(300) };
    const holder = new AIMessage({
      content: [block, { type: "text", text: "Reading the next one." }],
      tool_calls: [{ id: "c100", name: "read_file", args: { path: "f100" } }],
    });
    const result = new ToolMessage({ content: "line of f100\n".repeat(40), tool_call_id: "c100", name: "read_file" });
    const turn = (k: number) => [
      new AIMessage({ content: "", tool_calls: [{ id: `c${k}`, name: "read_file", args: { path: `f${k}` } }] }),
      new ToolMessage({ content: `line of f${k}\n`.repeat(40), tool_call_id: `c${k}`, name: "read_file" }),
    ];
    const before: BaseMessage[] = [new HumanMessage("Read the files.")];
    for (let k = 0; k < 6; k++) before.push(...turn(k));
    before.push(holder, result);
    for (let k = 6; k < 14; k++) before.push(...turn(k));
    const r = await compactModelMessages(bridge.toModel(before), {
      token_threshold: 1500,
      tokenizer: "chars",
      min_stretch_tokens: 0,
      retention_window: 2,
    });
    expect(r.report.outcome).toMatch(/^compacted/);
    expect(r.report.laws.every((l) => l.ok)).toBe(true);
    const out = bridge.fromModel(r.messages, before);
    expect(out.length).toBeLessThan(before.length);
    // the message as the caller holds it (its block and its call), and its result right after it
    expect(out.filter((m) => m === holder)).toHaveLength(1);
    expect(out[out.indexOf(holder) + 1]).toBe(result);
  });
});
