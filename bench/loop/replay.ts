// The agent-loop replay: a recorded session played as a live agent. Before each model call (each
// assistant message of the session) the compactor runs on the context; the context is then sent
// (its tokens are the main model's input), and the recorded reply joins it, as do the tool results
// that follow. Summarizer calls are read from the loopback server's records, per compaction; the
// agent's wait on one compaction is modelled from them (compactionWait): calls the library had in
// flight together overlap, calls one after another add up.
import type { Message } from "../../src/model/message.ts";
import { billed, type CacheBills, CacheMeter, firstChange } from "./cache-bill.ts";
import { type Compactor, contextTokens } from "./compactors.ts";
import type { Session } from "./sessions.ts";
import type { CallRecord, SummarizerServer } from "./summarizer-server.ts";

/** What one replay of one session with one compactor cost and kept. */
export interface ReplayStats extends CacheBills {
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
  /** summaries answered whose answer was not used (rejected by validation) */
  readonly rejectedAnswers: number;
  /** summarizer calls that failed without an answer (the server never answered them: not in summarizerCalls) */
  readonly failedCalls: number;
  readonly summarizerInput: number;
  readonly summarizerOutput: number;
  /** the tokens of every context sent, summed */
  readonly mainInput: number;
  /** modelled seconds the agent waited on compaction (compactionWait) */
  readonly waitSeconds: number;
  /** the same calls' modelled seconds added up, as if every call waited for the one before */
  readonly sequentialSeconds: number;
  /** model calls whose context held every user message of the session so far */
  readonly callsWithEveryUser: number;
  /** the least share of the user messages so far that one context held */
  readonly leastUserShare: number;
  /** summary messages in the last context sent, and their share of its tokens */
  readonly finalSummaries: number;
  readonly finalSummaryShare: number;
  /** the last context's tokens, and those of its user and system messages (which L2 keeps) */
  readonly finalTokens: number;
  readonly finalUserSystem: number;
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
    rejectedAnswers: 0,
    failedCalls: 0,
    summarizerInput: 0,
    summarizerOutput: 0,
    mainInput: 0,
    waitSeconds: 0,
    sequentialSeconds: 0,
    callsWithEveryUser: 0,
    leastUserShare: 1,
    finalSummaries: 0,
    finalSummaryShare: 0,
    finalTokens: 0,
    finalUserSystem: 0,
    ...billed(),
  };
}

/**
 * The modelled seconds the agent waits on one compaction's calls: a call starts (in modelled time)
 * when the last call that had finished before it really started has finished, and the wait is
 * when the last one ends. Calls the library issued together (a batch's calls in flight at once)
 * overlap; calls it made one after another add up. Real and modelled times are proportional (the
 * server sleeps the modelled latency, scaled), so the order of real starts and ends is the order
 * the modelled calls would have.
 */
export function compactionWait(calls: readonly CallRecord[]): number {
  const end: number[] = [];
  let last = 0;
  for (let i = 0; i < calls.length; i++) last = Math.max(last, modelledEnd(calls, i, end));
  return last;
}

/** The modelled end of call j: its seconds after the latest modelled end of the calls that really ended before it started (memoized in `end`). */
function modelledEnd(calls: readonly CallRecord[], j: number, end: number[]): number {
  if (end[j] !== undefined) return end[j];
  let start = 0;
  calls.forEach((d, k) => {
    if (k !== j && d.endMs <= calls[j].startMs) start = Math.max(start, modelledEnd(calls, k, end));
  });
  end[j] = start + calls[j].seconds;
  return end[j];
}

/** What a replay tells as it goes: each message joining the history, each context sent with the reply it got. */
export interface ReplayObserver {
  see(m: Message): void;
  measure(context: readonly Message[], reply: Message): void;
}

/** Replays `session` with `compactor`, reading its summarizer calls from `server` (and telling `observer`). */
export async function replay(
  session: Session,
  compactor: Compactor,
  server: SummarizerServer,
  observer?: ReplayObserver,
): Promise<ReplayStats> {
  let context: Message[] = [];
  let users = 0;
  const s = emptyStats();
  const anthropic = new CacheMeter("anthropic");
  const openai = new CacheMeter("openai");

  for (const m of session.messages) {
    if (m.role === "assistant") {
      // the agent's model call lies between two compactions: the event loop runs (timers, idle
      // keep-alive sockets closing) as it would in an agent; a replay that never yielded would
      // reuse sockets the server has already timed out, and see them reset
      await new Promise((resolve) => setImmediate(resolve));
      const firstCall = server.calls.length;
      const before = context;
      const done = await compactor.compact(context);
      const calls = server.calls.slice(firstCall);
      if (done.accepted > 0) s.events++;
      if (calls.length > 0) s.runs++;
      context = done.messages;
      s.summaries += done.accepted;
      s.repeatedUnshrinkable += done.repeated;
      s.rejectedAnswers += done.rejected;
      s.failedCalls += done.failed;
      s.summarizerCalls += calls.length;
      for (const c of calls) {
        s.summarizerInput += c.inputTokens;
        s.summarizerOutput += c.outputTokens;
        s.sequentialSeconds += c.seconds;
      }
      s.waitSeconds += compactionWait(calls);
      s.modelCalls++;
      const tokens = contextTokens(context);
      s.mainInput += tokens;
      anthropic.send(context, compactor.marksChange === true ? markBefore(before, context) : []);
      openai.send(context);
      const present = context.filter((x) => x.role === "user").length;
      if (present === users) s.callsWithEveryUser++;
      if (users > 0) s.leastUserShare = Math.min(s.leastUserShare, present / users);
      const summaries = context.filter((x) => x.role === "summary");
      s.finalSummaries = summaries.length;
      s.finalSummaryShare = tokens === 0 ? 0 : contextTokens(summaries) / tokens;
      s.finalTokens = tokens;
      s.finalUserSystem = contextTokens(context.filter((x) => x.role === "user" || x.role === "system"));
      observer?.measure(context, m);
    }
    observer?.see(m);
    if (m.role === "user") users++;
    context = [...context, m];
  }
  await compactor.settle?.();
  return { ...s, ...billed(anthropic, openai) };
}

/** Where the adapters put their breakpoint (src/adapters/cache-breakpoint.ts): the last message before the first one compaction changed, if it changed any. */
export function markBefore(before: readonly Message[], after: readonly Message[]): number[] {
  const at = firstChange(before, after);
  return at > 0 && (at < before.length || at < after.length) ? [at - 1] : [];
}
