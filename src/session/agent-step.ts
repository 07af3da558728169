// An agent's turn with its history in a session, for every SDK: what happened since the last
// call (the user's message, the model's reply, tool results: items in the session's format, which
// is the SDK's: openai for Chat Completions, anthropic for Messages, responses for the Responses
// API, ai-sdk for the AI SDK) is appended durably, the session is compacted when a trigger fires,
// and the context to send next is returned. A process killed at any instant resumes from the
// session with every acknowledged item, lawful.

import type { CompactionReport } from "../engine/run/report.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import type { Json } from "../model/json.ts";
import type { Session, SessionCompactOptions } from "./session.ts";

/** The context to send the model next, and the compaction run's report. */
export interface SessionStep {
  readonly items: Json[];
  readonly report: CompactionReport;
}

/**
 * Appends `newItems` to the session (durable when this resolves), compacts it under `config`
 * (a summarizer failure leaves the session as it was: the report says so), and returns the
 * session's context in its format.
 */
export async function sessionStep(
  session: Session,
  newItems: readonly Json[],
  config: ConfigInput | Config = {},
  options: SessionCompactOptions = {},
): Promise<SessionStep> {
  if (newItems.length > 0) await session.append(newItems);
  const report = await session.compact(config, options);
  return { items: await session.context(), report };
}
