// The byte budget's default from the provider: the provider-specific helpers (compactAnthropicMessages,
// compactOpenAIMessages, compactResponsesItems, the AI SDK hook when it knows its model's
// provider) take the provider's documented request size (PROVIDER_REQUEST_BYTES) as
// max_request_bytes when it is unset. An Anthropic history whose tool-result images are over
// Anthropic's 32 MB is refused by the loopback server (it enforces that size and answers with
// Anthropic's real 413 request_too_large body); compacted by the helper with no setting, it fits.
import Anthropic from "@anthropic-ai/sdk";
import type { ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { readModelMessages } from "../../src/adapters/ai-sdk.ts";
import { readResponsesItems } from "../../src/adapters/responses.ts";
import type { CompactionReport } from "../../src/engine/run/report.ts";
import { compactBeforeStep } from "../../src/library/ai-sdk.ts";
import { compactAnthropicMessages } from "../../src/library/compact-wire.ts";
import { PROVIDER_REQUEST_BYTES } from "../../src/model/context-overflow.ts";
import { messageBytes } from "../../src/model/message-bytes.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { serverPool } from "../support/agent-overflow-server.ts";
import { imageData, imageHistory } from "../support/image-history.ts";

const pool = serverPool();
afterEach(pool.closeAll);

const ANTHROPIC_BYTES = PROVIDER_REQUEST_BYTES.anthropic;

describe("max_request_bytes defaults to the provider's documented request size", () => {
  it("an Anthropic history over 32 MB of tool-result images: refused as it is; compactAnthropicMessages compacts it with no setting, and it fits", async () => {
    // nine screenshots of 3 MB (4 MB of base64 each): about 36 MB, a few thousand tokens
    const messages = imageHistory(12, (i) => i >= 1 && i <= 9, 3_000_000);
    const server = await pool.serve("anthropic", 200_000, ANTHROPIC_BYTES);
    const client = new Anthropic({ baseURL: server.url, apiKey: "sk-ant-test", maxRetries: 0 });
    const send = (ms: unknown[]) =>
      client.messages.create({ model: "claude-haiku-4-5", max_tokens: 256, messages: ms as Anthropic.MessageParam[] });
    const refused = await send(messages).catch((e: unknown) => e);
    expect((refused as { status?: number }).status).toBe(413);
    // no max_request_bytes, no token setting: the provider's size is the budget
    const r = await compactAnthropicMessages({ messages }, {}, { summarizer: offlineSummarizer(charCounter()) });
    expect(r.report.dueBefore).toBe(true);
    expect(r.report.bytes).toMatchObject({ dueByBytes: true, maxRequestBytes: ANTHROPIC_BYTES });
    expect(r.report.bytes?.after).toBeLessThanOrEqual(ANTHROPIC_BYTES);
    await send(r.messages);
    expect(server.requests.map((q) => q.status)).toEqual([413, 200]);
  }, 60_000);

  it("an explicit max_request_bytes is kept (the provider's figure is only the default)", async () => {
    const messages = imageHistory(12, (i) => i >= 1 && i <= 6, 150_000);
    const r = await compactAnthropicMessages(
      { messages },
      { max_request_bytes: 900_000 },
      { summarizer: offlineSummarizer(charCounter()) },
    );
    expect(r.report.bytes).toMatchObject({ dueByBytes: true, maxRequestBytes: 900_000 });
  });
});

/** An AI SDK agent's history: `rounds` screenshot calls, the results of rounds in `withImage` holding a PNG of `imageBytes` (base64 file data). */
function modelImageHistory(rounds: number, withImage: (i: number) => boolean, imageBytes: number): ModelMessage[] {
  const ms: ModelMessage[] = [
    { role: "user", content: "Take a screenshot of each page and tell me which one is broken." },
  ];
  for (let i = 0; i < rounds; i++) {
    ms.push({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "screenshot", input: { page: i } }],
    });
    const value = withImage(i)
      ? [
          { type: "text" as const, text: `page ${i}` },
          {
            type: "file" as const,
            mediaType: "image/png",
            data: { type: "data" as const, data: imageData(imageBytes, i) },
          },
        ]
      : [{ type: "text" as const, text: `page ${i}: fine` }];
    ms.push({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: `c${i}`, toolName: "screenshot", output: { type: "content", value } },
      ],
    });
  }
  ms.push({ role: "user", content: "Which page is broken?" });
  return ms;
}

const requestSize = (ms: readonly ModelMessage[]) => Buffer.byteLength(JSON.stringify(ms), "utf8");

describe("AI SDK image and file parts counted in bytes", () => {
  it("a tool result's image and a user message's binary image count their bytes (the data as a request carries it)", () => {
    const png = Buffer.alloc(300_000, 7);
    const ms: ModelMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "This one." },
          { type: "image", image: new Uint8Array(png) },
        ],
      },
      ...modelImageHistory(1, () => true, 300_000).slice(1, 3),
    ];
    const read = readModelMessages(ms, "messages", {}).messages;
    const bytes = read.map(messageBytes);
    // the user's 300 KB as base64 (400 KB), not its text alone
    expect(bytes[0]).toBeGreaterThanOrEqual(png.toString("base64").length);
    // the tool result's image: at least its base64 text
    const tool = read.findIndex((m) => m.role === "tool");
    expect(bytes[tool]).toBeGreaterThanOrEqual(imageData(300_000, 0).length);
    // and the sum is not below the JSON of the messages that hold only strings
    const strings = ms.slice(1);
    expect(bytes.slice(1).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(requestSize(strings));
  });

  it("a Responses user message's input_image (a data: URL) counts its bytes too", () => {
    const url = `data:image/png;base64,${imageData(300_000, 3)}`;
    const read = readResponsesItems(
      [
        {
          role: "user",
          content: [
            { type: "input_text", text: "This one." },
            { type: "input_image", image_url: url, detail: "auto" },
          ],
        },
      ],
      "input",
      {},
    ).messages;
    expect(messageBytes(read[0])).toBeGreaterThanOrEqual(url.length);
  });

  it("the hook's byte check sees tool-result images: a step over max_request_bytes is compacted under it", async () => {
    const reports: CompactionReport[] = [];
    const hook = compactBeforeStep(
      { token_threshold: 10_000_000, max_request_bytes: 900_000 },
      { summarizer: offlineSummarizer(charCounter()), onReport: (r) => reports.push(r) },
    );
    const messages = modelImageHistory(12, (i) => i >= 1 && i <= 6, 150_000);
    expect(requestSize(messages)).toBeGreaterThan(900_000);
    const out = await hook({ messages });
    expect(reports).toHaveLength(1);
    expect(reports[0].bytes).toMatchObject({ dueByBytes: true, floorOver: false, maxRequestBytes: 900_000 });
    expect(requestSize(out?.messages ?? messages)).toBeLessThanOrEqual(900_000);
  });
});

describe("the AI SDK hook takes its step's model's provider's request size", () => {
  it("a step of an Anthropic model whose tool-result images are over 32 MB is compacted with no setting; an unknown provider's is not", async () => {
    const messages = modelImageHistory(12, (i) => i >= 1 && i <= 9, 3_000_000);
    expect(requestSize(messages)).toBeGreaterThan(ANTHROPIC_BYTES);
    const reports: CompactionReport[] = [];
    const options = {
      summarizer: offlineSummarizer(charCounter()),
      onReport: (r: CompactionReport) => reports.push(r),
    };
    // a provider that documents no size (an OpenAI-compatible server): no byte trigger, the step is left as it is
    expect(await compactBeforeStep({}, options)({ messages, model: { provider: "ollama.chat" } })).toBeUndefined();
    expect(reports).toHaveLength(0);
    // the same step of an Anthropic model (the AI SDK gives prepareStep the model object)
    const out = await compactBeforeStep({}, options)({ messages, model: { provider: "anthropic.messages" } });
    expect(reports).toHaveLength(1);
    expect(reports[0].bytes).toMatchObject({ dueByBytes: true, maxRequestBytes: ANTHROPIC_BYTES });
    expect(requestSize(out?.messages ?? messages)).toBeLessThanOrEqual(ANTHROPIC_BYTES);
    // a gateway id names its provider too
    const viaGateway = await compactBeforeStep({}, options)({ messages, model: "anthropic/claude-haiku-4-5" });
    expect(viaGateway).toBeDefined();
  }, 60_000);
});

describe("the clearing tier given the byte goal", () => {
  it("a run due by its bytes alone clears the oldest image results until the request fits, under strategy clear and the default alike, with no summarizer call", async () => {
    const messages = imageHistory(12, (i) => i >= 1 && i <= 6, 150_000);
    for (const strategy of ["clear", "clear-then-summarize"] as const) {
      let calls = 0;
      const inner = offlineSummarizer(charCounter());
      const summarizer = {
        name: inner.name,
        summarize: (q: Parameters<typeof inner.summarize>[0]) => {
          calls++;
          return inner.summarize(q);
        },
      };
      const r = await compactAnthropicMessages(
        { messages },
        { strategy, token_threshold: 100_000, max_request_bytes: 900_000 },
        { summarizer },
      );
      expect(r.report.bytes).toMatchObject({ dueByBytes: true, maxRequestBytes: 900_000 });
      expect(r.report.clearing?.results).toBeGreaterThan(0);
      expect(r.report.bytes?.after).toBeLessThanOrEqual(900_000);
      // the oldest first, and no more than the goal needs: the last screenshots are kept
      expect(Buffer.byteLength(JSON.stringify(r.messages))).toBeGreaterThan(900_000 - 250_000);
      expect(calls).toBe(0);
    }
  });
});
