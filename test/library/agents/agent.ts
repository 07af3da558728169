// The example agent of the Agents SDK tests: a real `@openai/agents` Agent on the SDK's Chat
// Completions model, whose OpenAI client talks to a loopback server scripted as a tool-calling
// model (each run: one file read, then the answer), with safecut's session as its memory. Used in
// process by openai-agents.test.ts and in a child process (child.ts) that the test kills.
import { Agent, OpenAIChatCompletionsModel, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import type { Behavior, RecordedRequest } from "../../support/http-imitation.ts";

/** The user's message of run `r`. */
export const question = (r: number) => `question ${r}: which file defines the parser?`;

/** The compaction settings of the tests: due within a few runs (character counts), the loopback summarizer. */
export function agentsConfig(summarizerUrl: string) {
  return {
    provider: "openai",
    base_url: summarizerUrl,
    model: "gpt-4o-mini",
    tokenizer: "chars",
    token_threshold: 1_500,
    retention_window: 4,
    timeout_ms: 5_000,
  } as const;
}

/** The environment the summarizer reads its key from. */
export const AGENTS_ENV = { OPENAI_API_KEY: "sk-test" };

interface WireMessage {
  readonly role: string;
  readonly content: unknown;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly { readonly id: string }[];
}

/** The messages of a chat completions request. */
export const wire = (req: RecordedRequest) => req.body.messages as WireMessage[];

/** The model: when the request ends with the user's message, a call reading a file; after the result, the answer. */
export function modelScript(n: number, req: RecordedRequest): Behavior {
  const last = wire(req).at(-1);
  const message =
    last?.role === "tool"
      ? { role: "assistant", content: `src/file7.ts defines the parser (request ${n}).` }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${n}`,
              type: "function",
              function: { name: "read_file", arguments: JSON.stringify({ path: `src/file${n}.ts` }) },
            },
          ],
        };
  return {
    kind: "raw",
    status: 200,
    body: JSON.stringify({
      id: `chatcmpl-${n}`,
      object: "chat.completion",
      created: 0,
      model: "gpt-4o-mini",
      choices: [{ index: 0, message, finish_reason: last?.role === "tool" ? "stop" : "tool_calls" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
  };
}

/** The agent, its model at `modelUrl`. */
export function exampleAgent(modelUrl: string): Agent {
  setTracingDisabled(true);
  const client = new OpenAI({ apiKey: "sk-test", baseURL: modelUrl, maxRetries: 0 });
  const readFile = tool({
    name: "read_file",
    description: "Reads a file",
    parameters: z.object({ path: z.string() }),
    execute: async ({ path }) => `// ${path}\n${"export const value = 1; // a line of the file\n".repeat(30)}`,
  });
  return new Agent({
    name: "coder",
    instructions: "You answer questions about the code base.",
    model: new OpenAIChatCompletionsModel(client, "gpt-4o-mini"),
    tools: [readFile],
  });
}
