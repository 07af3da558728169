// The AI SDK's prepareStep hook with the agent's history in a session (of format "ai-sdk"):
// `start` appends the user's new messages and gives the messages to start generateText,
// streamText or a ToolLoopAgent with; before each step, `prepareStep` appends what the SDK added
// since (the previous step's response messages), compacts the session when due and hands the
// SDK the session's context. A killed agent resumes by opening the same session. With
// soft_token_threshold set, compaction starts in the background at the soft threshold
// (background-session.ts); `finish` waits for a run still in flight.

import type { LanguageModelMiddleware, ModelMessage } from "ai";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { asPrompt, type CallPrompt, type PrepareStepMessages, retryingMiddleware } from "../library/ai-sdk.ts";
import type { OverflowRetry } from "../library/overflow-retry.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { InputError } from "../model/errors.ts";
import type { Json } from "../model/json.ts";
import { compactAfterOverflow, sessionStep } from "./agent-step.ts";
import { BackgroundSession } from "./background-session.ts";
import type { Session, SessionCompactOptions } from "./session.ts";

/** The hook and its start. */
export interface SessionHook {
  /** Appends the new messages (the user's turn), compacts when due; the messages to start the run with. */
  start(newMessages: readonly ModelMessage[]): Promise<ModelMessage[]>;
  /** For the AI SDK's `prepareStep`: persists the step's new messages and returns the session's context. */
  prepareStep(step: PrepareStepMessages): Promise<{ messages: ModelMessage[] }>;
  /**
   * After the run: persists the last step's response messages (`result.response.messages`;
   * prepareStep persisted the earlier steps') and waits for a background run still in flight.
   */
  finish(responseMessages: readonly ModelMessage[]): Promise<void>;
  /**
   * A language model middleware (`wrapLanguageModel({ model, middleware: hook.overflowRetry })`):
   * a step's model call the provider refuses for its size (model/context-overflow.ts) compacts
   * the session after the overflow (compactAfterOverflow) and is made once more with the
   * session's new context (after the call's own system messages); a second overflow is an
   * OverflowRetryError naming what was tried. Later steps start from the compacted session.
   */
  readonly overflowRetry: LanguageModelMiddleware;
}

/** The JSON value of AI SDK messages (what the session keeps). */
function asJson(ms: readonly ModelMessage[]): Json[] {
  return JSON.parse(JSON.stringify(ms)) as Json[];
}

/**
 * A prepareStep hook keeping the agent's history in `session` (format "ai-sdk"); `onReport`
 * receives each step's report (in background mode: each run's, background or blocking).
 */
export function sessionBeforeStep(
  session: Session,
  config: ConfigInput | Config = {},
  options: SessionCompactOptions & {
    readonly onReport?: (r: CompactionReport) => void;
    /** told of each overflow retry (the overflow and the compaction's report), before the call is made again */
    readonly onRetry?: (r: OverflowRetry) => void;
  } = {},
): SessionHook {
  if (session.format !== "ai-sdk")
    throw new InputError("session", `expected a session of format ai-sdk, not ${session.format}`);
  const c = parseConfig(config); // a bad configuration fails when the agent is built
  /** how many of the SDK's messages the session holds: those it was last given */
  let known: number | undefined;
  const background = c.soft_token_threshold === null ? undefined : new BackgroundSession(session, c, options);
  const step = async (added: readonly ModelMessage[]) => {
    let items: Json[];
    if (background !== undefined) items = (await background.step(asJson(added))).items;
    else {
      const r = await sessionStep(session, asJson(added), c, options);
      options.onReport?.(r.report);
      items = r.items;
    }
    known = items.length;
    return items as unknown as ModelMessage[];
  };
  /** the call's prompt with the session's context after the call's own leading system messages */
  const compactPrompt = async (prompt: CallPrompt, o: Parameters<typeof compactAfterOverflow>[1]) => {
    const after = await compactAfterOverflow(session, o, c, options);
    const own = Math.max(0, prompt.length - (known ?? 0));
    const prefix = prompt.slice(0, own).filter((m) => m.role === "system");
    return {
      conversation: [...prefix, ...asPrompt(after.items as unknown as ModelMessage[])],
      report: after.report,
    };
  };
  return {
    overflowRetry: retryingMiddleware(
      c,
      compactPrompt,
      (p) => p,
      (_original, r) => options.onRetry?.(r.retry),
    ),
    start: (newMessages) => step(newMessages),
    async prepareStep(s) {
      if (known === undefined) throw new InputError("prepareStep", "call start() first: it gives the run its messages");
      return { messages: await step(s.messages.slice(known)) };
    },
    async finish(responseMessages) {
      if (responseMessages.length > 0) await session.append(asJson(responseMessages));
      await background?.settle();
    },
  };
}
