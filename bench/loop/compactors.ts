// What the agent-loop replay runs before each model call: safecut's library (compactMessages,
// with the OpenAI provider pointed at the loopback summarizer; variants of its low-water target
// and floor are exploratory), and the baseline, the
// common design written here: when the context reaches the trigger, summarize everything before
// a keep-recent cut in one call and put that one summary in its place.

import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import type { MemoryCandidate } from "../../src/engine/memory/candidates.ts";
import { BackgroundCompaction } from "../../src/engine/run/background.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { UnshrinkableMemory } from "../../src/engine/store/unshrinkable.ts";
import { renderTranscript } from "../../src/engine/summarize/transcript.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import { DEFAULT_PROMPT, renderPrompt } from "../../src/model/prompt-template.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";
import type { BatchSummaryRequest, Summarizer } from "../../src/model/summarizer.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";

/** The agent's model named in every request. */
export const AGENT_MODEL = "gpt-4o-mini";
/** The baseline keeps this share of the trigger after its cut. */
export const BASELINE_KEEP_SHARE = 1 / 3;

/** One compaction before a model call: the context to send and the summaries that went into it. */
export interface Compaction {
  readonly messages: Message[];
  /** summaries that replaced something (a summarizer call whose answer was used) */
  readonly accepted: number;
  /** stretches tried again though an earlier compaction found they could not shrink */
  readonly repeated: number;
  /** summaries answered (one per stretch of a batch call) whose answer was not used: rejected by validation */
  readonly rejected: number;
  /** summarizer calls that failed (a network error: no answer), each retried or given up by the engine */
  readonly failed: number;
  /** the memory flush candidates the run returned (a safecut variant with memoryCandidates) */
  readonly candidates?: readonly MemoryCandidate[];
}

/** A compactor the replay calls before each model call. */
export interface Compactor {
  readonly name: string;
  compact(context: Message[]): Promise<Compaction>;
  /** the request carries the adapters' cache breakpoint before the first changed message (safecut; the baseline's agent marks only its own two) */
  readonly marksChange?: boolean;
  /** waits for work still in flight after the last call (a background run) */
  settle?(): Promise<void>;
}

/** The tokens of a context as the library counts them (character heuristic). */
export function contextTokens(context: readonly Message[]): number {
  let sum = 0;
  for (const m of context) sum += messageTokens(charCounter(), m);
  return sum;
}

/** Settings of safecut's economy a replay may vary (each at its default when absent). */
export interface SafecutVariant {
  readonly targetPercent?: number;
  readonly minStretchTokens?: number;
  readonly agePercent?: number;
  readonly ageSharePercent?: number;
  readonly ageFloorTokens?: number;
  readonly batchTokens?: number;
  readonly batchCalls?: number;
  readonly summaryPercent?: number;
  readonly summaryFloorTokens?: number;
  readonly clearKeep?: number;
  readonly clearAtLeast?: number;
  readonly keepRecentTokens?: number;
  /** every setting at its default, the strategy too (clear-then-summarize); else the strategy is summarize */
  readonly defaults?: boolean;
  /** no memory passed between calls (the most common use: each call given only the messages) */
  readonly stateless?: boolean;
  /** the evidence ledger on (setting ledger, its caps at their defaults) */
  readonly ledger?: boolean;
  /** memory_candidates (the run's candidates are returned with its compaction; not part of the name) */
  readonly memoryCandidates?: number;
}

/** Each varied setting: its name in a compactor's name and in the configuration. */
export const VARIED = [
  ["targetPercent", "target", "target_percent", "%"],
  ["minStretchTokens", "floor", "min_stretch_tokens", ""],
  ["agePercent", "age", "age_percent", "%"],
  ["ageSharePercent", "age share", "age_share_percent", "%"],
  ["ageFloorTokens", "age floor", "age_floor_tokens", ""],
  ["batchTokens", "batch tokens", "batch_tokens", ""],
  ["batchCalls", "batch calls", "batch_calls", ""],
  ["summaryPercent", "summary", "summary_percent", "%"],
  ["summaryFloorTokens", "summary floor", "summary_floor_tokens", ""],
  ["clearKeep", "clear keep", "clear_keep", ""],
  ["clearAtLeast", "clear at least", "clear_at_least", ""],
  ["keepRecentTokens", "keep recent", "keep_recent_tokens", ""],
] as const;

/** The skipped stretches of a report whose every answer was rejected only for not being shorter. */
const NOT_SHORTER = /^(the summary is not shorter than what it replaces \([^)]*\)(; then: )?)+$/;

/**
 * A summarizer that counts the summaries it answered (one per call, one per stretch of a batch
 * call) and the calls that failed (a network error, then retried by the engine): a failed call's
 * stretches got no answer, so none of them was rejected.
 */
function counting(inner: Summarizer): Summarizer & { answered: number; failed: number } {
  const batch = inner.summarizeBatch;
  const out: Summarizer & { answered: number; failed: number } = {
    name: inner.name,
    answered: 0,
    failed: 0,
    async summarize(r) {
      const got = await counted(inner.summarize(r));
      out.answered++;
      return got;
    },
    ...(batch === undefined
      ? {}
      : {
          async summarizeBatch(r: BatchSummaryRequest) {
            const got = await counted(batch.call(inner, r));
            out.answered += r.parts.length;
            return got;
          },
        }),
  };
  /** The call's answer; a failure is counted and passed on. */
  async function counted<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (e) {
      out.failed++;
      throw e;
    }
  }
  return out;
}

/**
 * safecut's library at `trigger` tokens, with one memory of unshrinkable stretches for the whole
 * replay (the conversation is compacted again and again), or none (`stateless`: only what the
 * messages themselves carry). It counts the attempts at a stretch
 * some earlier compaction already found could not shrink (same messages): the repeats.
 */
export function safecutCompactor(baseUrl: string, trigger: number, v: SafecutVariant = {}): Compactor {
  const summarizer = counting(openAISummarizer({ baseUrl, apiKey: "bench" }));
  const unshrinkable = v.stateless === true ? undefined : new UnshrinkableMemory();
  const seen = new Set<string>();
  const named = [
    ...(v.defaults === true ? ["defaults"] : []),
    ...(v.stateless === true ? ["stateless"] : []),
    ...(v.ledger === true ? ["ledger"] : []),
    ...VARIED.filter(([key]) => v[key] !== undefined).map(([key, label, , unit]) => `${label} ${v[key]}${unit}`),
  ];
  const varied = Object.fromEntries(
    VARIED.filter(([key]) => v[key] !== undefined).map(([key, , setting]) => [setting, v[key]]),
  );
  return {
    name: named.length === 0 ? "safecut" : `safecut, ${named.join(", ")}`,
    marksChange: true,
    async compact(context) {
      const answeredBefore = summarizer.answered;
      const failedBefore = summarizer.failed;
      const { messages, report, memoryCandidates } = await compactMessages(
        context,
        // summarizing against the baseline's summarizing: the strategy that only summarizes (or the default one)
        {
          ...(v.defaults === true ? {} : { strategy: "summarize" as const }),
          token_threshold: trigger,
          tokenizer: "chars",
          provider: "openai",
          base_url: baseUrl,
          ...(v.ledger === true ? { ledger: true } : {}),
          ...(v.memoryCandidates === undefined ? {} : { memory_candidates: v.memoryCandidates }),
          ...varied,
        },
        { summarizer, agentModel: AGENT_MODEL, ...(unshrinkable === undefined ? {} : { unshrinkable }) },
      );
      let repeated = 0;
      for (const s of report.skipped) {
        if (!NOT_SHORTER.test(s.reason)) continue;
        // a summary's marker is what a run wrote of it, not a change of its text
        const key = JSON.stringify(
          context
            .slice(s.input.first, s.input.last + 1)
            .map((m) => (m.role === "summary" ? { role: m.role, content: m.content } : m)),
        );
        if (seen.has(key)) repeated++;
        else seen.add(key);
      }
      const rejected = summarizer.answered - answeredBefore - report.stretches.length;
      const failed = summarizer.failed - failedBefore;
      return {
        messages,
        accepted: report.stretches.length,
        repeated,
        rejected,
        failed,
        ...(memoryCandidates === undefined ? {} : { candidates: memoryCandidates }),
      };
    },
  };
}

/** Where the baseline cuts: the latest turn start (not a tool result) leaving at least `keep` tokens after it. */
function baselineCut(context: readonly Message[], keep: number): number {
  let kept = 0;
  let cut = context.length;
  while (cut > 0 && kept < keep) {
    cut--;
    kept += messageTokens(charCounter(), context[cut]);
  }
  while (cut > 0 && context[cut].role === "tool") cut--;
  return cut;
}

/** A compaction that sent the context as it was: no summarizer call. */
function untouched(context: Message[]): Compaction {
  return { messages: context, accepted: 0, repeated: 0, rejected: 0, failed: 0 };
}

/** The baseline at `trigger` tokens: one summary of everything before a keep-recent cut, in one call. */
export function baselineCompactor(baseUrl: string, trigger: number): Compactor {
  const summarizer = openAISummarizer({ baseUrl, apiKey: "bench" });
  const keep = Math.round(trigger * BASELINE_KEEP_SHARE);
  const maxTokens = SETTINGS.max_tokens.default;
  const summaryTag = SETTINGS.summary_tag.default;
  return {
    name: "baseline",
    async compact(context) {
      if (contextTokens(context) < trigger) return untouched(context);
      const head = context.findIndex((m) => m.role !== "system");
      const cut = baselineCut(context, keep);
      if (head < 0 || cut <= head) return untouched(context);
      const prefix = context.slice(head, cut);
      const previous = prefix[0].role === "summary" ? prefix[0].content : undefined;
      const stretch = previous === undefined ? prefix : prefix.slice(1);
      const conversation = renderTranscript(stretch);
      const prompt = renderPrompt(DEFAULT_PROMPT, {
        conversation,
        previousSummary: previous,
        requiredFacts: [],
        maxTokens,
        summaryTag,
      });
      const summary = await summarizer.summarize({
        prompt,
        stretch,
        previousSummary: previous,
        requiredFacts: [],
        maxTokens,
        replacedTokens: contextTokens(prefix),
        summaryTag,
        model: AGENT_MODEL,
      });
      return {
        messages: [...context.slice(0, head), summaryMessage(summary), ...context.slice(cut)],
        accepted: 1,
        repeated: 0,
        rejected: 0,
        failed: 0,
      };
    },
  };
}

/** The soft threshold of the background configuration, as a share of the trigger (as bench:background). */
export const SOFT_SHARE = 2 / 3;
/** Modelled seconds of one main-model call, while a background run goes on. */
export const MODEL_CALL_S = 3;

/**
 * safecut in background mode at `trigger` tokens, every other setting at its default: an agent
 * owning a ConversationStore calls BackgroundCompaction.beforeStep() before each model call, a run
 * starts at soft_token_threshold (SOFT_SHARE of the trigger) and goes on while the model call
 * takes MODEL_CALL_S modelled seconds (slept `scale` times faster); what the agent sends is the
 * store's messages at the check.
 */
export function backgroundCompactor(baseUrl: string, trigger: number, scale: number): Compactor {
  const c = parseConfig({
    token_threshold: trigger,
    soft_token_threshold: Math.round(trigger * SOFT_SHARE),
    tokenizer: "chars",
    provider: "openai",
    base_url: baseUrl,
  });
  const store = new ConversationStore(charCounter(), []);
  let accepted = 0;
  const bg = new BackgroundCompaction(store, c, {
    summarizer: openAISummarizer({ baseUrl, apiKey: "bench" }),
    agentModel: AGENT_MODEL,
    onReport: (r) => {
      accepted += r.stretches.length;
    },
  });
  let sent: readonly Message[] = [];
  let first = true;
  return {
    name: "safecut, defaults, background",
    marksChange: true,
    async compact(context) {
      // the model call before this check (none before the first): the background run goes on meanwhile
      if (!first) await new Promise((r) => setTimeout(r, (MODEL_CALL_S * 1000) / scale));
      first = false;
      for (const m of context.slice(sent.length)) store.append(m);
      const before = accepted;
      await bg.beforeStep();
      sent = [...store.messages];
      return { messages: [...sent], accepted: accepted - before, repeated: 0, rejected: 0, failed: 0 };
    },
    settle: () => bg.settle(),
  };
}
