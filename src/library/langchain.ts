// The LangChain.js v1 middleware (`safecut/langchain`): before each model call of an agent made
// by `createAgent`, the agent's messages are compacted under safecut's laws when a trigger fires
// (clearing first under the default strategy, background mode with soft_token_threshold), in the
// shape of LangChain's own summarization middleware (a `beforeModel` hook that replaces the
// state's messages). The step itself is the AI SDK's before-step compaction (library/ai-sdk.ts)
// run on the messages as the LangChain bridge reads them (adapters/langchain.ts): one due
// tracker, one memory of what does not shrink, one background discipline for both frameworks.
import { type BaseMessage, RemoveMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { LangChainBridge } from "../adapters/langchain.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { type BeforeStepOptions, compactBeforeStep } from "./ai-sdk.ts";

/** Options of safecutMiddleware: those of compactBeforeStep (the summarizer, the counter, `onReport`, …). */
export type LangChainMiddlewareOptions = BeforeStepOptions;

/**
 * A LangChain.js agent middleware: `createAgent({ model, tools, middleware: [safecutMiddleware(config)] })`.
 * Before each model call it compacts the agent's messages when a trigger fires and replaces
 * them in the agent's state (every user message kept, no tool call parted from its result); it
 * changes nothing when the step is not due or nothing was replaced or cleared. A summary is an AI
 * message holding the marked summary text; a cleared tool result keeps its message's id. A bad
 * configuration throws here, when the agent is built.
 */
export function safecutMiddleware(config: ConfigInput | Config = {}, options: LangChainMiddlewareOptions = {}) {
  // LangChain messages are mapped back by identity: a breakpoint's copy would be a message it never had
  const step = compactBeforeStep(config, { ...options, cacheBreakpoint: false });
  const bridge = new LangChainBridge();
  return createMiddleware({
    name: "SafecutMiddleware",
    beforeModel: async (state: { messages: BaseMessage[] }) => {
      const r = await step({ messages: bridge.toModel(state.messages) });
      if (r === undefined) return undefined;
      return {
        messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...bridge.fromModel(r.messages, state.messages)],
      };
    },
  });
}
