// An AI SDK model for agent-loop tests, from the AI SDK's own test kit: its first call answers
// with one tool call, every later call with a text, so a generateText loop runs two steps.
import { MockLanguageModelV4 } from "ai/test";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The model: the call `toolCallId` of `toolName` (no input) first, then `text`. */
export function toolThenTextModel(toolCallId: string, toolName: string, text: string): MockLanguageModelV4 {
  let n = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      n++;
      return n === 1
        ? {
            content: [{ type: "tool-call", toolCallId, toolName, input: "{}" }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          }
        : { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}
