// The report of a run: its classified outcome (outcome.ts), counts before and after, where the
// tokens of a conversation still due are, the reported-usage summary, and the laws checked on the
// result (law-checks.ts). Input: how the run started (RunStart) and how it ended (RunEnd); output:
// the CompactionReport. It decides nothing about the run and changes nothing.

import type { ReportedPrefix } from "../../kernel/trigger.ts";
import type { Config } from "../../model/config.ts";
import type { Message } from "../../model/message.ts";
import { messageTokens } from "../../model/tokens.ts";
import { gateRetentionCutoff } from "../boundary/kernel-gate.ts";
import { plainArray } from "../store/gap-array.ts";
import type { ConversationStore } from "../store/store.ts";
import { bytesReport, overByteFloorAtEnd } from "./byte-budget.ts";
import { checkLaws } from "./law-checks.ts";
import { classifyRun } from "./outcome.ts";
import type { InputPositions } from "./positions.ts";
import type { CompactionReport, LawCheck, RemainingTokens, UsageReport } from "./report.ts";
import { callTotals } from "./run-hooks.ts";
import { judgedTokens, type RunEnd, type RunState, stepTrigger } from "./run-state.ts";

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

/**
 * The laws on the run's result: the store's messages before the run (plus any appended while it
 * ran) against its messages after. A run that was not due changed nothing: its own messages.
 */
function runLaws(
  run: RunState,
  before: readonly Message[] | undefined,
  tokens: { before: number | null; after: number | null },
): LawCheck[] {
  const { store, c, o } = run;
  const appended = store.appendedDuringCompaction();
  // a run that was not due, with nothing appended, compares its messages with themselves: read
  // in place (plainArray: no copy; the checks are synchronous and keep no reference to them)
  const after = before === undefined && appended.length === 0 ? plainArray(store.messages) : store.messageList();
  const input = before === undefined ? after : appended.length === 0 ? before : [...before, ...appended];
  const appendedTokens = appended.reduce((t, m) => t + messageTokens(store.counter, m), 0);
  const items =
    o.items === undefined || appended.length === 0
      ? o.items
      : {
          items: o.items.items + appended.length,
          spans: [
            ...o.items.spans,
            ...appended.map((_, k) => ({ first: o.items!.items + k, last: o.items!.items + k })),
          ],
        };
  return checkLaws(
    input,
    after,
    run.stretches,
    c,
    {
      before: tokens.before === null ? null : tokens.before + appendedTokens,
      after: tokens.after,
      dueBefore: run.dueBefore,
    },
    // a store holds well-formed messages only (its load and appends check them)
    { wellFormed: true, cleared: run.clearing.report?.records ?? [], ...(items === undefined ? {} : { items }) },
  );
}

/** What a run knows once it has started, besides its state: the counts before it and the messages the laws compare with. */
export interface RunStart {
  readonly run: RunState;
  readonly judgedBefore: number;
  readonly tokensBefore: number | null;
  /** the store's byte total before the run (the byte budget's count), when max_request_bytes is set (budgetBytes) */
  readonly bytesBefore: number | undefined;
  readonly messagesBefore: number;
  /** the messages before the run, when it may change them (it is due) */
  readonly before?: readonly Message[];
}

/** Record the run: its classified outcome, its counts and its law checks. */
export function runReport(s: RunStart, ended: RunEnd): CompactionReport {
  const end = overByteFloorAtEnd(s.run, ended);
  const { run } = s;
  const { store, c, o, positions } = run;
  const judgedAfter = judgedTokens(store, run.usage);
  const itemsAfter = positions.items(store.messages.length);
  const dueAfter = stepTrigger(run, judgedAfter) !== "none";
  const { outcome, reason } = classifyRun({
    planned: end.planned !== undefined || end.dryRunPlanned === true,
    ...(end.stopped === undefined ? {} : { stopped: end.stopped }),
    ...(end.superseded === undefined ? {} : { superseded: end.superseded }),
    replaced: run.stretches.length,
    left: run.left,
    dueAfter,
    reason: end.reason,
  });
  const stillDue = outcome === "compacted-still-due" || outcome === "still-due";
  // left uncounted only by a run that counted nothing before either (nothing changed)
  const tokensAfter = s.tokensBefore === null ? null : store.totalTokens;
  return {
    outcome,
    reason,
    ...(end.failure === undefined ? {} : { failure: end.failure }),
    ...bytesReport(run, s.bytesBefore),
    tokensBefore: s.tokensBefore,
    tokensAfter,
    messagesBefore: s.messagesBefore,
    messagesAfter: itemsAfter,
    dueBefore: run.dueBefore,
    dueAfter,
    stretches: run.stretches,
    skipped: run.skipped,
    ...(end.planned ? { plannedStretch: end.planned } : {}),
    ...(end.wholePlan ? { plan: end.wholePlan } : {}),
    ...(stillDue ? { remaining: remainingTokens(store, c, positions) } : {}),
    ...(run.lawfulFloor === undefined ? {} : { lawfulFloor: run.lawfulFloor }),
    ...(o.usage === undefined ? {} : { usage: usageReport(o.usage, run.usage, s.judgedBefore, judgedAfter) }),
    watermark: store.watermark,
    modelLimits: run.limits,
    summarizer: o.summarizer.name,
    summarizerCalls: run.summarizerCalls,
    calls: [],
    callTotals: callTotals([]),
    tokenizer: store.counter.name,
    laws: runLaws(run, s.before, { before: s.tokensBefore, after: tokensAfter }),
  };
}
