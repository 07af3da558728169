// An agent's turn with its history in a session, for every SDK: what happened since the last
// call (the user's message, the model's reply, tool results: items in the session's format, which
// is the SDK's: openai for Chat Completions, anthropic for Messages, responses for the Responses
// API, ai-sdk for the AI SDK) is appended durably, the session is compacted when a trigger fires,
// and the context to send next is returned. A process killed at any instant resumes from the
// session with every acknowledged item, lawful. With soft_token_threshold set, compaction starts
// in the background at the soft threshold (background-session.ts) and a step blocks only when a
// trigger fires.

import { readConversationFile } from "../adapters/conversation-file.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { MemoryCandidate } from "../engine/memory/candidates.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import {
  callWithRetry,
  countedTokens,
  type OverflowRetry,
  overflowSettings,
  requestByteBudget,
} from "../library/overflow-retry.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import type { ContextOverflow } from "../model/context-overflow.ts";
import type { Json } from "../model/json.ts";
import { BackgroundSession } from "./background-session.ts";
import type { Session, SessionCompactOptions } from "./session.ts";

/** The context to send the model next, the compaction run's report, and the memory flush candidates it stored. */
export interface SessionStep {
  readonly items: Json[];
  readonly report: CompactionReport;
  /**
   * The memory flush candidates (memory_candidates > 0) the records of the run this call waited
   * for hold, for the agent's long-term memory; those of a run left in the background go to the
   * onMemoryCandidates option when it ends.
   */
  readonly memoryCandidates: readonly MemoryCandidate[];
}

/** `options` whose onMemoryCandidates also collects the candidates into `into`. */
function collecting(options: SessionCompactOptions, into: MemoryCandidate[]): SessionCompactOptions {
  return {
    ...options,
    onMemoryCandidates: (c) => {
      into.push(...c);
      options.onMemoryCandidates?.(c);
    },
  };
}

/** The background session of each session sessionStep was called on in background mode, with its configuration. */
const backgrounds = new WeakMap<Session, { readonly key: string; readonly bg: BackgroundSession }>();

/**
 * Appends `newItems` to the session (durable when this resolves), compacts it under `config`
 * (a summarizer failure leaves the session as it was: the report says so), and returns the
 * session's context in its format. With soft_token_threshold set, a step at the soft threshold
 * starts a compaction in the background (one per session across processes) and returns; a step
 * waits only when a trigger fires; the report is the one of the run the step ran (nothing-to-do
 * when none was due). Call sessionSettle before closing the session.
 */
export async function sessionStep(
  session: Session,
  newItems: readonly Json[],
  config: ConfigInput | Config = {},
  options: SessionCompactOptions = {},
): Promise<SessionStep> {
  const c = parseConfig(config);
  const memoryCandidates: MemoryCandidate[] = [];
  if (c.soft_token_threshold !== null) {
    const key = JSON.stringify(c);
    let entry = backgrounds.get(session);
    if (entry === undefined || entry.key !== key) {
      await entry?.bg.settle();
      entry = { key, bg: new BackgroundSession(session, c, options) };
      backgrounds.set(session, entry);
    }
    const r = await entry.bg.step(newItems);
    // under the hard trigger no run was due: the report says so (a run that is not due changes nothing)
    return {
      items: r.items,
      report: r.report ?? (await session.compact(c, collecting(options, memoryCandidates))),
      memoryCandidates,
    };
  }
  if (newItems.length > 0) await session.append(newItems);
  const report = await session.compact(c, collecting(options, memoryCandidates));
  return { items: await session.context(), report, memoryCandidates };
}

/** Waits for the background compaction sessionStep started on `session`, if any (its failure is thrown here). */
export async function sessionSettle(session: Session): Promise<void> {
  await backgrounds.get(session)?.bg.settle();
}

/**
 * Compacts `session` after its context overflowed the agent's model call: under the settings the
 * provider's answer implies (overflow-retry.ts; the session's run counts its own tokens, so the
 * reported window is taken in its counter's units), down to the target; returns the report and
 * the session's context after it.
 */
export async function compactAfterOverflow(
  session: Session,
  overflow: ContextOverflow,
  config: ConfigInput | Config = {},
  options: SessionCompactOptions = {},
): Promise<SessionStep> {
  const c = parseConfig(config);
  const read = readConversationFile(await session.contextText(), { format: session.format, summaryTag: c.summary_tag });
  const s = overflowSettings(c, overflow, countedTokens(read.messages, c, options.counter), false);
  const memoryCandidates: MemoryCandidate[] = [];
  const report = await session.compact(s.config, collecting(options, memoryCandidates));
  return { items: await session.context(), report, memoryCandidates };
}

/** A step whose model call was made: the step, the call's result and the overflow retry when one was made. */
export interface SessionCall<T> extends SessionStep {
  readonly result: T;
  readonly retry?: OverflowRetry;
}

/**
 * sessionStep, then the agent's model call on the context it returns, retried once when the
 * provider refuses it for its size (model/context-overflow.ts): the session is compacted after
 * the overflow (compactAfterOverflow) and the call made again with its new context; a second
 * overflow is an OverflowRetryError naming what was tried. `items` is the context the call was
 * finally made with.
 */
export async function sessionCall<T>(
  session: Session,
  newItems: readonly Json[],
  call: (items: Json[]) => Promise<T>,
  config: ConfigInput | Config = {},
  options: SessionCompactOptions = {},
): Promise<SessionCall<T>> {
  const c = parseConfig(config);
  const step = await sessionStep(session, newItems, c, options);
  const retried: MemoryCandidate[] = [];
  // the session's format names the API its items are sent to (responses: OpenAI's; ai-sdk: any)
  const provider = session.format === "anthropic" ? "anthropic" : session.format === "ai-sdk" ? "unknown" : "openai";
  const r = await callWithRetry(
    step.items,
    call,
    async (_items, o) => {
      const after = await compactAfterOverflow(session, o, c, options);
      retried.push(...after.memoryCandidates);
      return { conversation: after.items, report: after.report };
    },
    { provider, maxBytes: requestByteBudget(c, provider) },
  );
  // the candidates of both runs when the call was retried after an overflow
  const memoryCandidates = [...step.memoryCandidates, ...retried];
  return r.retry === undefined
    ? { items: r.conversation, report: step.report, result: r.result, memoryCandidates }
    : { items: r.conversation, report: r.retry.report, result: r.result, retry: r.retry, memoryCandidates };
}
