// An AI SDK language model that makes its calls over HTTP to a loopback agent server
// (agent-overflow-server.ts), as a provider package does: the call's prompt in the API's request
// shape (Google's `contents`, OpenAI's and Anthropic's `messages`), an error answer thrown as the
// AI SDK's APICallError with its status and body. Its first successful call answers with one tool
// call, every later one with a text, so a generateText loop runs two steps.
import { APICallError } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { AgentApi } from "./agent-overflow-server.ts";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The model calling `url` (the server's base URL) in `api`'s shape. */
export function httpAgentModel(api: AgentApi, url: string, toolName: string, text: string): MockLanguageModelV4 {
  let answered = 0;
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const system = prompt.filter((m) => m.role === "system").map((m) => m.content);
      const rest = prompt.filter((m) => m.role !== "system");
      const [endpoint, body] =
        api === "google"
          ? [`${url}/v1beta/models/gemini-2.5-flash:generateContent`, { systemInstruction: system, contents: rest }]
          : api === "anthropic"
            ? [`${url}/v1/messages`, { system, messages: rest }]
            : [`${url}/chat/completions`, { messages: prompt }];
      const res = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await res.text();
      if (!res.ok)
        throw new APICallError({
          message: res.statusText,
          url: endpoint,
          requestBodyValues: body,
          statusCode: res.status,
          responseBody: answer,
          isRetryable: false,
        });
      answered++;
      return answered === 1
        ? {
            content: [{ type: "tool-call", toolCallId: "live-1", toolName, input: "{}" }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          }
        : { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}
