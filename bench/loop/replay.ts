// The agent-loop replay: a recorded session played as a live agent. Before each model call (each
// assistant message of the session) the compactor runs on the context; the context is then sent
// (its tokens are the main model's input), and the recorded reply joins it, as do the tool results
// that follow. Summarizer calls are read from the loopback server's records, per compaction.
import type { Message } from "../../src/model/message.ts";
import { type Compactor, contextTokens } from "./compactors.ts";
import type { Session } from "./sessions.ts";
import type { SummarizerServer } from "./summarizer-server.ts";

/** What one replay of one session with one compactor cost and kept. */
export interface ReplayStats {
  readonly modelCalls: number;
  /** compactions that changed the context */
  readonly events: number;
  /** compactions that called the summarizer at all */
  readonly runs: number;
  /** summaries that replaced something, and the summarizer calls made (HTTP requests: a batch call is one) */
  readonly summaries: number;
  readonly summarizerCalls: number;
  /** attempts at a stretch an earlier compaction already found could not shrink */
  readonly repeatedUnshrinkable: number;
  readonly summarizerInput: number;
  readonly summarizerOutput: number;
  /** the tokens of every context sent, summed */
  readonly mainInput: number;
  /** modelled seconds the agent waited on compaction (the calls of one compaction in sequence) */
  readonly waitSeconds: number;
  /** model calls whose context held every user message of the session so far */
  readonly callsWithEveryUser: number;
  /** the least share of the user messages so far that one context held */
  readonly leastUserShare: number;
  /** summary messages in the last context sent, and their share of its tokens */
  readonly finalSummaries: number;
  readonly finalSummaryShare: number;
}

/** Stats with nothing counted yet (every user message present: a least share of 1). */
export function emptyStats(): { -readonly [K in keyof ReplayStats]: number } {
  return {
    modelCalls: 0,
    events: 0,
    runs: 0,
    summaries: 0,
    summarizerCalls: 0,
    repeatedUnshrinkable: 0,
    summarizerInput: 0,
    summarizerOutput: 0,
    mainInput: 0,
    waitSeconds: 0,
    callsWithEveryUser: 0,
    leastUserShare: 1,
    finalSummaries: 0,
    finalSummaryShare: 0,
  };
}

/** Replays `session` with `compactor`, reading its summarizer calls from `server`. */
export async function replay(session: Session, compactor: Compactor, server: SummarizerServer): Promise<ReplayStats> {
  let context: Message[] = [];
  let users = 0;
  const s = emptyStats();

  for (const m of session.messages) {
    if (m.role === "assistant") {
      const firstCall = server.calls.length;
      const done = await compactor.compact(context);
      const calls = server.calls.slice(firstCall);
      if (done.accepted > 0) s.events++;
      if (calls.length > 0) s.runs++;
      context = done.messages;
      s.summaries += done.accepted;
      s.repeatedUnshrinkable += done.repeated;
      s.summarizerCalls += calls.length;
      for (const c of calls) {
        s.summarizerInput += c.inputTokens;
        s.summarizerOutput += c.outputTokens;
        s.waitSeconds += c.seconds;
      }
      s.modelCalls++;
      const tokens = contextTokens(context);
      s.mainInput += tokens;
      const present = context.filter((x) => x.role === "user").length;
      if (present === users) s.callsWithEveryUser++;
      if (users > 0) s.leastUserShare = Math.min(s.leastUserShare, present / users);
      const summaries = context.filter((x) => x.role === "summary");
      s.finalSummaries = summaries.length;
      s.finalSummaryShare = tokens === 0 ? 0 : contextTokens(summaries) / tokens;
    }
    if (m.role === "user") users++;
    context = [...context, m];
  }
  return s;
}
