// The compaction loop: while compaction is due, plan a step against a read-only view of the store, summarize the
// stretch, validate, and commit through the version check; stop when under the trigger or
// when no stretch is eligible. A stretch whose summaries are rejected (too short to shrink,
// facts dropped) is left as it is and the run moves on past it, until the kernel's stop rule
// says max_rejected_summaries were rejected in a row; a summarizer that fails to
// answer, or a concurrent edit, ends the run. Either way a failed step changes nothing and
// the report says why.

import type { ReportedPrefix } from "../../kernel/trigger.ts";
import { type Config, SAME_AS_AGENT, snapshotConfig } from "../../model/config.ts";
import { summaryMessage } from "../../model/message.ts";
import type { Summarizer } from "../../model/summarizer.ts";
import { gateRetentionCutoff, gateUsageAfterSplice, gateUsageTokens } from "../boundary/kernel-gate.ts";
import type { ConversationStore } from "../store/store.ts";
import { summarizeStretch } from "../summarize/summarize-step.ts";
import { type ClearingStep, clearFirst, withClearing } from "./clearing.ts";
import { type ItemMap, itemMapOf } from "./item-map.ts";
import { dueBy, planStep } from "./plan.ts";
import { countOf } from "./plural.ts";
import { InputPositions, type InputRange } from "./positions.ts";
import type { CompactionReport, RemainingTokens, ReplacedStretch, SkippedStretch, UsageReport } from "./report.ts";
import { assertReportedPrefix, assertReportFitsSteps, assertReportJudgeable } from "./usage.ts";

/** Options of a compaction run. */
export interface CompactOptions {
  readonly summarizer: Summarizer;
  /** the agent's model, used when the configured model is "same as agent" */
  readonly agentModel?: string;
  readonly signal?: AbortSignal;
  /** progress lines for long runs */
  readonly onProgress?: (line: string) => void;
  /** plan the first step and stop, changing nothing */
  readonly dryRun?: boolean;
  /**
   * stop after this many summarizer steps (default: no limit; each accepted step lowers the token
   * total, so the loop ends anyway: L8). A run stopped by it while still due ends `compacted-still-due`.
   */
  readonly maxSteps?: number;
  /**
   * a token count the provider reported for the store's first `end` messages: the trigger judges
   * it plus the counts of the messages after it instead of the counted total (L1 with usage).
   * After each step it is adjusted by the kernel's usageAfterSplice (see README, "Reported usage").
   */
  readonly usage?: ReportedPrefix;
  /** the field `usage.reported` came from, named when it is refused (default `usage.reported`) */
  readonly usageField?: string;
  /**
   * the caller's items (item-map.ts): message_threshold, retention_window and the report count
   * them; default: from the messages' sources (one item per message, an Anthropic message one)
   */
  readonly items?: ItemMap;
}

/** The model summaries are requested from. */
function resolveModel(c: Config, agentModel: string | undefined): string {
  return c.model === SAME_AS_AGENT ? (agentModel ?? SAME_AS_AGENT) : c.model;
}

/** Where the tokens of a conversation that is still due are (the last `retention_window` messages first). */
function remainingTokens(store: ConversationStore, c: Config, positions: InputPositions): RemainingTokens {
  // plain copies: one pass over every message, cheaper than reading the store's live view
  const { messages: ms, tokens: counts } = store.snapshot();
  // the retention window in the caller's items, cut where the kernel cuts it (L3)
  const windowStart = gateRetentionCutoff(ms.length, positions.window(ms.length, c.retention_window));
  let userSystem = 0;
  let summaries = 0;
  let retentionWindow = 0;
  let other = 0;
  for (let i = 0; i < ms.length; i++) {
    const role = ms[i].role;
    if (i >= windowStart) retentionWindow += counts[i];
    else if (role === "user" || role === "system") userSystem += counts[i];
    else if (role === "summary") summaries += counts[i];
    else other += counts[i];
  }
  return { userSystem, summaries, retentionWindow, other };
}

/** What the report says of a run given reported usage: the counts the trigger judged, and whether the report still counts. */
function usageReport(
  given: ReportedPrefix,
  left: ReportedPrefix | undefined,
  before: number,
  after: number,
): UsageReport {
  return {
    reportedTokens: given.reported,
    judgedTokensBefore: before,
    judgedTokensAfter: after,
    dropped: left === undefined,
  };
}

/** Compacts a store in place until it is under the trigger; the config is snapshotted at the start. */
export async function compactStore(
  store: ConversationStore,
  config: Config,
  o: CompactOptions,
): Promise<CompactionReport> {
  const c = snapshotConfig(config);
  const model = resolveModel(c, o.agentModel);
  const progress = o.onProgress ?? (() => {});
  const usageField = o.usageField ?? "usage.reported";
  if (o.usage !== undefined) {
    assertReportedPrefix(o.usage, store.messages.length);
    assertReportJudgeable(o.usage, store.view().tokens, usageField);
  }
  // the report the trigger judges (undefined: the counted total); carried across every step
  let usage = o.usage;
  const judged = () => (usage === undefined ? store.totalTokens : gateUsageTokens(usage, store.view().tokens));
  const judgedBefore = judged();
  // counts and report positions in the caller's items, whatever earlier splices did
  const positions = new InputPositions(o.items ?? itemMapOf(store.messageList()));
  const dueBefore = dueBy(c, judgedBefore, positions.items(store.messages.length), store.userTurns) !== "none";
  // The counted total, unless the run is not due and the store left messages uncounted (a usage
  // report covers them): then no decision needs their counts, and none is computed or reported.
  // Nothing has changed since the run started (no await yet), so this is the total before it.
  const tokensBefore = dueBefore || store.uncounted === 0 ? store.totalTokens : null;
  // a run that may splice checks, before its first summarizer call, that every step can carry the report
  if (usage !== undefined && dueBefore) assertReportFitsSteps(usage, store.totalTokens, usageField);
  const messagesBefore = positions.files;
  const span = (r: InputRange) => `${r.first}..${r.last}`;
  const stretches: ReplacedStretch[] = [];
  const skipped: SkippedStretch[] = [];
  let rejectedInARow = 0; // summaries in a row that failed validation (the kernel's stop rule reads it)
  let summarizerCalls = 0; // every call of the summarizer (an HTTP request each), retries included
  let stopped: string | undefined; // set when a failure ends the run (summarizer outage, concurrent edit)
  let reason = "";
  let planned: CompactionReport["plannedStretch"];
  // Stretches before `skipFrom` were tried and rejected; no plan looks before it.
  let skipFrom = 0;
  // Where the next plan starts: skipFrom, or the start of the stretch just committed, since after a
  // splice nothing eligible starts before it (kernel lemma ForwardProgress, L4), so the scan need
  // not walk the prefix again at every step.
  let from = 0;
  store.beginCompaction();
  // the clearing tier (L13) first, when the strategy asks for it; "clear" alone never summarizes
  let clearing: ClearingStep = { report: undefined, usage, only: false };
  try {
    clearing = clearFirst(store, c, positions, usage, o.dryRun);
    usage = clearing.usage;
    const maxSteps = o.maxSteps ?? Number.POSITIVE_INFINITY;
    for (let step = 1; ; step++) {
      // a read-only view, not a copy: it is used before the await and stamped for the commit
      const snap = store.view();
      // the window and message_threshold count the caller's items; the kernel sees counts of these messages
      const length = snap.messages.length;
      // not due at the start: no plan (a plan reads counts the trigger did not need, e.g. the keep-recent suffix's)
      const plan =
        (step === 1 && !dueBefore) || clearing.only
          ? undefined
          : planStep(snap, c, from, positions.window(length, c.retention_window), positions.items(length), usage);
      if (plan === undefined || !plan.due) {
        reason = stretches.length === 0 ? "compaction is not due: under every configured trigger" : "under the trigger";
        break;
      }
      if (plan.stretch === undefined) {
        reason =
          "compaction is due but no stretch is eligible (only user/system messages, ongoing tool calls, the retention window, keep_recent_tokens or skipped stretches remain)";
        break;
      }
      const { start, end, replacedTokens } = plan.stretch;
      const input = positions.range(start, end);
      if (o.dryRun) {
        planned = { ...plan.stretch, input, trigger: plan.trigger };
        reason = `would summarize messages ${span(input)} (${input.last - input.first + 1} messages, ${replacedTokens} tokens; trigger: ${plan.trigger})`;
        break;
      }
      if (step > maxSteps) {
        reason = `stopped after ${maxSteps} steps (the maxSteps option)`;
        break;
      }
      progress(
        `step ${step}: summarizing messages ${span(input)} (${countOf(input.last - input.first + 1, "message")}, ${countOf(replacedTokens, "token")}; total ${snap.totalTokens}; trigger: ${plan.trigger})`,
      );
      const res = await summarizeStretch(snap.messages.slice(start, end), replacedTokens, {
        config: c,
        summarizer: o.summarizer,
        counter: store.counter,
        model,
        signal: o.signal,
        rejectedInARow,
      });
      summarizerCalls += res.attempts;
      rejectedInARow = res.rejectedInARow;
      if (!res.ok && res.failure === "rejected") {
        // This stretch stays as it is; later stretches may still be summarized (L4: forward only).
        skipped.push({ input, start, end, replacedTokens, reason: res.reason, attempts: res.attempts });
        progress(`step ${step}: left messages ${span(input)} unchanged: ${res.reason}`);
        if (res.stopsRun) {
          stopped = `stopped after ${countOf(rejectedInARow, "summary", "summaries")} in a row failed validation (max_rejected_summaries), conversation left unchanged since the last accepted one; last: ${res.reason}`;
          break;
        }
        skipFrom = end;
        from = end;
        continue;
      }
      if (!res.ok) {
        stopped = `summarizing messages ${span(input)} failed after ${res.attempts} attempt(s), conversation left unchanged by this step: ${res.reason}`;
        progress(`step ${step}: degraded: ${res.reason}`);
        break;
      }
      // computed on the counts before the splice, which changes them in place; res.tokens is the
      // summary message's count with the store's counter, as the store will count it
      const nextUsage =
        usage === undefined ? undefined : gateUsageAfterSplice(usage, snap.tokens, start, end, res.tokens);
      const commit = store.commitSplice(snap, start, end, summaryMessage(res.text));
      if (commit.decision === "reject") {
        stopped = "the conversation was edited (not only appended to) while summarizing: the step was not applied";
        break;
      }
      // {0, 0}: no reported tokens are left in the judged count, which is then the counted total
      usage = nextUsage !== undefined && (nextUsage.reported > 0 || nextUsage.end > 0) ? nextUsage : undefined;
      // "rebase": messages were appended while summarizing and may have answered an ongoing call
      // before `start`, so a stretch may now start earlier: plan again from skipFrom
      from = commit.decision === "commit" ? start : skipFrom;
      const replaced = positions.splice(start, end);
      stretches.push({
        start,
        end,
        replacedMessages: end - start,
        replacedTokens,
        summaryTokens: res.tokens,
        attempts: res.attempts,
        decision: commit.decision,
        summary: res.text,
        input: replaced,
        trigger: plan.trigger,
      });
      progress(
        `step ${step}: replaced ${replacedTokens} tokens by a ${res.tokens}-token summary; total now ${store.totalTokens}`,
      );
    }
  } finally {
    store.endCompaction();
  }
  const judgedAfter = judged();
  const itemsAfter = positions.items(store.messages.length);
  const dueAfter = dueBy(c, judgedAfter, itemsAfter, store.userTurns) !== "none";
  let outcome: CompactionReport["outcome"];
  if (o.dryRun && planned !== undefined) outcome = "dry-run";
  else if (stopped !== undefined) {
    outcome = "degraded";
    reason = stopped;
  } else if (stretches.length === 0 && skipped.length > 0) {
    outcome = "degraded";
    reason = `no stretch could be summarized (${skipped.length} tried, all left unchanged); first: messages ${span(skipped[0].input)}: ${skipped[0].reason}`;
  } else if (dueAfter) outcome = stretches.length > 0 ? "compacted-still-due" : "still-due";
  else outcome = stretches.length > 0 ? "compacted" : "nothing-to-do";
  if (stretches.length > 0 && skipped.length > 0)
    reason = `${reason}; ${countOf(skipped.length, "stretch", "stretches")} left unchanged (see skipped)`;
  const stillDue = outcome === "compacted-still-due" || outcome === "still-due";
  const report: CompactionReport = {
    outcome,
    reason,
    tokensBefore,
    // left uncounted only by a run that counted nothing before either (nothing changed)
    tokensAfter: tokensBefore === null ? null : store.totalTokens,
    messagesBefore,
    messagesAfter: itemsAfter,
    dueBefore,
    dueAfter,
    stretches,
    skipped,
    ...(planned ? { plannedStretch: planned } : {}),
    ...(stillDue ? { remaining: remainingTokens(store, c, positions) } : {}),
    ...(o.usage === undefined ? {} : { usage: usageReport(o.usage, usage, judgedBefore, judgedAfter) }),
    watermark: store.watermark,
    summarizer: o.summarizer.name,
    summarizerCalls,
    tokenizer: store.counter.name,
    laws: [],
  };
  return withClearing(report, clearing);
}
