// The AI SDK's compaction entries (`safecut/ai-sdk`): compact a `ModelMessage[]`, and the
// `prepareStep` hook that compacts before each step of an agent. The format itself (reading and
// writing the messages) is the adapter's, src/adapters/ai-sdk.ts.
import { isDeepStrictEqual } from "node:util";
import type { LanguageModelMiddleware, ModelMessage } from "ai";
import { readModelMessage, readModelMessages, writeModelMessages } from "../adapters/ai-sdk.ts";
import { markBeforeFirstChange, modelMessageBreakpoints } from "../adapters/cache-breakpoint.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import { decideOverAppends, laterTurn, softConfig } from "../engine/run/background.ts";
import { judgedConfig } from "../engine/run/compact.ts";
import { DueTracker, type ItemMeasurer } from "../engine/run/due-tracker.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { UnshrinkableMemory } from "../engine/store/unshrinkable.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { type ContextOverflow, type OverflowProvider, providerNamed } from "../model/context-overflow.ts";
import { messageBytes } from "../model/message-bytes.ts";
import { messageTokens, type TokenCounter, tokenCounter } from "../model/tokens.ts";
import { ToolPairing } from "../model/tool-pairing.ts";
import type { CompactMessagesOptions } from "./compact-messages.ts";
import { compactReading } from "./compact-reading.ts";
import {
  callWithRetry,
  countedTokens,
  type OverflowRetry,
  overflowSettings,
  requestByteBudget,
  withProviderBytes,
} from "./overflow-retry.ts";

/** Compacts AI SDK messages; `retention_window` and the report's positions count these messages. */
export async function compactModelMessages(
  messages: readonly ModelMessage[],
  config: ConfigInput | Config = {},
  options: CompactMessagesOptions = {},
): Promise<{ messages: ModelMessage[]; report: CompactionReport }> {
  return modelMessagesUnder(messages, parseConfig(config), options);
}

/** compactModelMessages under a parsed configuration (compactBeforeStep parses once, not at every step). */
async function modelMessagesUnder(
  messages: readonly ModelMessage[],
  c: Config,
  options: CompactMessagesOptions,
): Promise<{ messages: ModelMessage[]; report: CompactionReport }> {
  const tag = c.summary_tag;
  const reading = readModelMessages(messages, "messages", { summaryTag: tag });
  const r = await compactReading(
    { ...reading, write: (ms) => writeModelMessages(ms, reading, { summaryTag: tag }) },
    c,
    options,
  );
  return { messages: r.written, report: r.report };
}

/**
 * Measures AI SDK messages one at a time for the due tracker: each read as readModelMessages
 * reads it (the same InputErrors, the same engine messages), counted as the store counts them,
 * its tool calls and results checked against the ones before it with the model's pairing index.
 */
export function modelMessageMeasurer(counter: TokenCounter, summaryTag: string): ItemMeasurer<ModelMessage> {
  let pairing = new ToolPairing();
  return {
    reset() {
      pairing = new ToolPairing();
    },
    measure(item, index) {
      const read = readModelMessage(item, index, "messages", { summaryTag });
      for (const e of read.pairing) {
        if (!pairing.addEvent(e, index)) {
          pairing = new ToolPairing(); // the index is dropped: the tracker forgets every item
          return undefined;
        }
      }
      let tokens = 0;
      let userTurns = 0;
      let bytes = 0;
      for (const m of read.messages) {
        tokens += messageTokens(counter, m);
        bytes += messageBytes(m);
        if (m.role === "user") userTurns++;
      }
      return { tokens, userTurns, bytes };
    },
  };
}

/** What the `prepareStep` hook is given and returns (a structural subset of the AI SDK's own). */
export interface PrepareStepMessages {
  readonly messages: ModelMessage[];
  /**
   * the step's model as the AI SDK gives it (a model object, whose `provider` names its provider,
   * or a gateway id "provider/model"): with max_request_bytes unset, its provider's documented
   * request size is the byte budget
   */
  readonly model?: unknown;
}

/** The provider of an AI SDK step's model: a model object's `provider` ("anthropic.messages"), a gateway id's prefix ("anthropic/claude-…"). */
export function stepModelProvider(model: unknown): OverflowProvider {
  if (typeof model === "string")
    return model.includes("/") ? providerNamed(model.slice(0, model.indexOf("/"))) : "unknown";
  if (typeof model === "object" && model !== null && "provider" in model && typeof model.provider === "string")
    return providerNamed(model.provider);
  return "unknown";
}

/** Options of compactBeforeStep. */
export interface BeforeStepOptions extends CompactMessagesOptions {
  /**
   * mark the last message before the first one a step's compaction changed with an Anthropic
   * cache breakpoint (providerOptions.anthropic.cacheControl; other providers ignore it), when the
   * messages carry fewer than the provider's four (default true)
   */
  readonly cacheBreakpoint?: boolean;
  /** receives the report of every compaction run (a step that is not due runs none) */
  readonly onReport?: (r: CompactionReport) => void;
}

/** A compaction the hook runs in the background: the messages it began from and, once it ended, its result. */
interface BackgroundRun {
  readonly planned: readonly ModelMessage[];
  readonly ended: Promise<void>;
  /**
   * the result's messages, and a due tracker that has measured them (when the run ended, off the
   * agent's path): the step that takes the result measures only what was appended after it
   */
  result?: {
    readonly messages: ModelMessage[];
    readonly changed: boolean;
    readonly tracker?: DueTracker<ModelMessage>;
  };
  failure?: { readonly error: unknown };
}

const changedBy = (r: CompactionReport) => r.stretches.length > 0 || (r.clearing?.results ?? 0) > 0;

/**
 * A `prepareStep` for `generateText`, `streamText` and `ToolLoopAgent`: before each step,
 * compacts the step's messages when a trigger fires and returns them (the AI SDK carries them
 * to later steps); returns undefined, leaving the step as it is, when nothing was replaced or cleared.
 * Whether a trigger fires is decided by a due tracker (engine/run/due-tracker.ts): a step reads
 * and counts only the messages it has not seen (all of them again after the agent replaced one);
 * a run starts only when due. `onReport` receives every run's report. A summarizer failure
 * leaves the messages as they were.
 *
 * Background mode (soft_token_threshold set): at the soft threshold a run starts on the step's
 * messages and the step goes on at once; a later step takes its result, with the messages the
 * agent appended meanwhile after it, when the kernel's commit rule allows (L9: the run's
 * messages are still the first ones, by identity; otherwise the result is dropped). A step
 * waits for the run only when a trigger fires. A run that threw is thrown at the next step.
 *
 * With max_request_bytes unset, the byte budget is the documented request size of the step's
 * model's provider (`step.model`: a model object's `provider`, a gateway id's prefix; none for a
 * provider that documents none).
 *
 * The hook keeps one memory of the stretches known not to shrink across the agent's steps (the
 * `unshrinkable` option's, or its own): a stretch whose every summary was rejected as not shorter
 * is not sent to the summarizer again while it is unchanged.
 */
export function compactBeforeStep(
  config: ConfigInput | Config = {},
  options: BeforeStepOptions = {},
): (step: PrepareStepMessages) => Promise<{ messages: ModelMessage[] } | undefined> {
  const given = parseConfig(config); // a bad configuration fails when the agent is built, not at its first step
  // the step's model's provider, once known: its request size is the byte budget when max_request_bytes is unset
  let provider: OverflowProvider = "unknown";
  let c = given;
  // one memory for every run of this agent: its runs compact the same conversation, one at a time
  const runOptions: CompactMessagesOptions = {
    ...options,
    unshrinkable: options.unshrinkable ?? new UnshrinkableMemory(),
  };
  // a fixed usage report judges every step the same way: the full run decides then
  // the trigger judged with the model limits a run resolves (the agent's model's context_window)
  let judged = judgedConfig(c, options.agentModel, options.summarizer);
  const newTracker = () =>
    options.usage === undefined
      ? new DueTracker(judged, modelMessageMeasurer(options.counter ?? tokenCounter(c.tokenizer), c.summary_tag))
      : undefined;
  let tracker = newTracker();
  let soft = tracker === undefined ? undefined : softConfig(c);
  /** The step's model's provider: a new one (its byte budget differs) re-measures the messages under it. */
  const providerOf = (model: unknown) => {
    const p = stepModelProvider(model);
    if (p === provider || p === "unknown") return;
    provider = p;
    c = withProviderBytes(given, p);
    judged = judgedConfig(c, options.agentModel, options.summarizer);
    tracker = newTracker();
    soft = tracker === undefined ? undefined : softConfig(c);
  };
  /** a tracker that has measured `messages` (none when they cannot be judged: the step measures them then) */
  const measuredTracker = (messages: ModelMessage[] | undefined): { tracker?: DueTracker<ModelMessage> } => {
    const t = newTracker();
    if (messages === undefined || t === undefined) return {};
    try {
      return t.check(messages) === undefined ? {} : { tracker: t };
    } catch {
      return {};
    }
  };
  let background: BackgroundRun | undefined;
  const hardDue = (messages: ModelMessage[]) =>
    !Array.isArray(messages) || tracker === undefined || tracker.check(messages) !== "none";
  const start = (messages: ModelMessage[], under: Config): BackgroundRun => {
    const planned = [...messages];
    const run: BackgroundRun = {
      planned,
      // the run reads and counts the messages on a later turn: the step returns first
      ended: laterTurn()
        .then(() => modelMessagesUnder(planned, under, runOptions))
        .then(
          (r) => {
            options.onReport?.(r.report);
            const changed = changedBy(r.report);
            run.result = { messages: r.messages, changed, ...measuredTracker(changed ? r.messages : undefined) };
          },
          (error: unknown) => {
            run.failure = { error };
          },
        ),
    };
    return run;
  };
  const breakpoints = modelMessageBreakpoints<ModelMessage>();
  /** The step's new messages, with the cache breakpoint before the first one that changed. */
  const changedTo = (given: readonly ModelMessage[], messages: ModelMessage[]) => ({
    messages: options.cacheBreakpoint === false ? messages : markBeforeFirstChange(given, messages, breakpoints),
  });
  return async (step) => {
    providerOf(step.model);
    let messages = step.messages;
    let changed = false;
    if (background !== undefined) {
      const b = background;
      // a trigger fires: the step waits for the run in flight
      if (b.result === undefined && b.failure === undefined && hardDue(messages)) await b.ended;
      if (b.failure !== undefined) {
        background = undefined;
        throw b.failure.error;
      }
      if (b.result !== undefined) {
        background = undefined;
        if (b.result.changed && decideOverAppends(b.planned, messages) !== "reject") {
          messages = [...b.result.messages, ...messages.slice(b.planned.length)];
          changed = true;
          if (b.result.tracker !== undefined) tracker = b.result.tracker;
        }
      }
    }
    if (!hardDue(messages)) {
      if (soft !== undefined && background === undefined && tracker?.dueUnder(soft) !== "none")
        background = start(messages, soft);
      return changed ? changedTo(step.messages, messages) : undefined;
    }
    const r = await modelMessagesUnder(messages, c, runOptions);
    options.onReport?.(r.report);
    // the next step most likely starts with these messages: seen now, its check measures only what it adds
    if (changedBy(r.report)) tracker?.check(r.messages);
    return changed || changedBy(r.report) ? changedTo(step.messages, r.messages) : undefined;
  };
}

/** A model call's prompt, as a language model middleware is given it (the provider package's CallPrompt). */
export type CallPrompt = Parameters<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>[0]["params"]["prompt"];

/**
 * AI SDK messages as a model call's prompt (CallPrompt): what a compaction wrote back
 * in the messages' looser shape (a summary's or an untouched message's string content, an image
 * part) in the prompt's (a text part, a file part); every other message is the prompt's own.
 */
export function asPrompt(messages: readonly ModelMessage[]): CallPrompt {
  return messages.map((m) => {
    if (m.role === "system" || m.role === "tool") return m;
    if (typeof m.content === "string") return { ...m, content: [{ type: "text", text: m.content }] };
    return {
      ...m,
      content: m.content.map((p) =>
        p.type === "image"
          ? { type: "file", data: p.image, mediaType: p.mediaType ?? "image/*", providerOptions: p.providerOptions }
          : p,
      ),
    };
  }) as CallPrompt;
}

/** Options of overflowRetry: compactModelMessages' options, and a hook told of each retry. */
export interface OverflowRetryOptions extends CompactMessagesOptions {
  /** told of each overflow the middleware compacted for, with the compaction's report, before the retry */
  readonly onRetry?: (r: OverflowRetry) => void;
}

/**
 * A language model middleware (`wrapLanguageModel({ model, middleware: overflowRetry(config) })`)
 * that retries a model call the provider refused for its size: when a call throws a context
 * overflow (recognised by the one recogniser, model/context-overflow.ts: OpenAI, Anthropic,
 * Google, OpenAI-compatible servers, HTTP 413), the call's prompt is compacted under the settings
 * the answer implies (overflow-retry.ts: the window it reported as context_window, the prompt
 * tokens it counted as the reported usage, so the kernel's trigger decides the run is due) and
 * the call is made once more; a second overflow is an OverflowRetryError naming what was tried.
 * The middleware remembers the compacted prompt: a later call whose prompt starts with the one
 * that overflowed is sent with the compacted messages in its place (the agent's later steps).
 */
export function overflowRetry(
  config: ConfigInput | Config = {},
  options: OverflowRetryOptions = {},
): LanguageModelMiddleware {
  const c = parseConfig(config);
  const runOptions: CompactMessagesOptions = {
    ...options,
    unshrinkable: options.unshrinkable ?? new UnshrinkableMemory(),
  };
  let remembered: { readonly from: CallPrompt; readonly to: CallPrompt } | undefined;
  const substituted = (prompt: CallPrompt): CallPrompt => {
    const r = remembered;
    if (r === undefined || prompt.length < r.from.length) return prompt;
    return isDeepStrictEqual(prompt.slice(0, r.from.length), r.from)
      ? [...r.to, ...prompt.slice(r.from.length)]
      : prompt;
  };
  const compactPrompt = async (prompt: CallPrompt, o: ContextOverflow) => {
    const messages = prompt as unknown as ModelMessage[];
    const read = readModelMessages(messages, "prompt", { summaryTag: c.summary_tag });
    const s = overflowSettings(c, o, countedTokens(read.messages, c, options.counter), true);
    const r = await modelMessagesUnder(messages, s.config, {
      ...runOptions,
      ...(s.usage === undefined ? {} : { usage: s.usage }),
    });
    return { conversation: asPrompt(r.messages), report: r.report };
  };
  return retryingMiddleware(c, compactPrompt, substituted, (original, r) => {
    remembered = { from: original, to: r.conversation };
    options.onRetry?.(r.retry);
  });
}

/**
 * The language model middleware of an overflow retry: each call's prompt (after `substitute`)
 * is made with callWithRetry under the byte budget of the model's provider, compacted by
 * `compactPrompt` on an overflow; `retried` is told of each retry with the prompt the call was given.
 */
export function retryingMiddleware(
  c: Config,
  compactPrompt: (
    prompt: CallPrompt,
    o: ContextOverflow,
  ) => Promise<{ conversation: CallPrompt; report: CompactionReport }>,
  substitute: (prompt: CallPrompt) => CallPrompt,
  retried: (original: CallPrompt, r: { conversation: CallPrompt; retry: OverflowRetry }) => void,
): LanguageModelMiddleware {
  const made = async <T>(params: { prompt: CallPrompt }, provider: string, call: (p: CallPrompt) => Promise<T>) => {
    const p = providerNamed(provider);
    const r = await callWithRetry(substitute(params.prompt), call, compactPrompt, {
      provider: p,
      maxBytes: requestByteBudget(c, p),
    });
    if (r.retry !== undefined) retried(params.prompt, { conversation: r.conversation, retry: r.retry });
    return r.result;
  };
  return {
    wrapGenerate: ({ doGenerate, params, model }) =>
      made(params, model.provider, async (p) =>
        p === params.prompt ? doGenerate() : model.doGenerate({ ...params, prompt: p }),
      ),
    wrapStream: ({ doStream, params, model }) =>
      made(params, model.provider, async (p) =>
        p === params.prompt ? doStream() : model.doStream({ ...params, prompt: p }),
      ),
  };
}
