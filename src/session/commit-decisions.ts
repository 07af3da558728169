// The decisions of a session's writes at the commit, against the session as read under the
// writers' exclusion: a compaction step (the kernel's log commit rule L9, the splice, the watermark
// moving only forward L10), a clearing, and the record of stretches found not to shrink. Input: the
// session's state and format, the run's store and what was planned; output: a StepDecision (the
// outcome and the record to write). It reads and writes nothing itself: a backend's commitStep
// calls these under its lock or transaction and writes the record (stored-session.ts).

import type { FormatName } from "../adapters/detect.ts";
import { gateAdvanceWatermark, gateDecideLogCommit } from "../engine/boundary/kernel-gate.ts";
import { stepTriggerOf } from "../engine/run/report.ts";
import type { PlannedAgainst } from "../engine/store/store.ts";
import type { CommitDecision } from "../kernel/commit.ts";
import { SafecutError } from "../model/errors.ts";
import type { SummaryMessage } from "../model/message.ts";
import type { CallLedger } from "./call-ledger.ts";
import type { PersistingStore, Replacements } from "./persisting-store.ts";
import type { ClearingRecord, CompactionRecord, StretchBounds } from "./record.ts";
import { messagesOf } from "./replay.ts";
import type { SessionState } from "./session-state.ts";
import { clearedParts, newestUser, unshrinkableRecord } from "./staged-run.ts";
import type { StepAccount, StepDecision } from "./step-entries.ts";

/** The session a decision is taken against: its state as read now, and its items' format. */
export interface SessionAt {
  readonly state: SessionState;
  readonly format: FormatName;
}

/**
 * The stretches the run found not to shrink, as one record, against the session as read now:
 * written only if the kernel's log commit rule says their positions in the store still name them
 * in the session (nothing but appends since the store last reflected it), else dropped (a later
 * run may pay for them again, nothing else is lost).
 */
export function decideUnshrinkable(
  at: SessionAt,
  store: PersistingStore,
  found: readonly StretchBounds[],
  ledger: CallLedger,
): StepDecision {
  const s = at.state;
  const last = found.reduce((m, x) => Math.max(m, x.end), 0);
  const { decision } = decideOnLog(at, store, store.view(), last);
  if (decision === "reject") return { outcome: { decision, version: store.version } };
  const version = s.version + 1;
  const record = unshrinkableRecord(s, store, found, ledger, version);
  return { outcome: { decision, version }, entry: { kind: "unshrinkable", record } };
}

/**
 * A step's decision against the session as read now (the caller excludes other writers and
 * has synced): the kernel's log commit rule (L9) over the entries written since the plan; if
 * it allows the step, the store takes the items appended since, applies the splice, and the
 * watermark moves only forward (L10). Returns the record to write.
 */
export function decideStep(
  at: SessionAt,
  store: PersistingStore,
  planned: PlannedAgainst,
  start: number,
  end: number,
  summary: SummaryMessage,
  account: StepAccount,
): StepDecision {
  const s = at.state;
  const { decision, plannedVersion } = decideOnLog(at, store, planned, end);
  if (decision === "reject") return { outcome: { decision, version: store.version } };
  const tokensBefore = store.totalTokens;
  // the engine starts a run only when due, on at most this many items (one per message, or fewer
  // for Anthropic), and appends since can only add to every count a trigger reads; a step under
  // every trigger is one of a run that was due going on down to its target
  const calls = account.ledger.forStep(store.messages.slice(start, end), s.version + 1);
  const candidates = account.candidates?.(store.messages, start, end) ?? [];
  const fired = account.trigger();
  const trigger = stepTriggerOf(fired);
  const out = store.applySplice(planned, start, end, summary);
  if (out.decision !== decision)
    throw new SafecutError("internal", `the session decided ${decision}, its store ${out.decision}`);
  // L10, checked where the data lives: the persisted watermark only moves forward
  const watermark = gateAdvanceWatermark(s.watermark, start + 1, newestUser(store.messages));
  if (watermark < s.watermark)
    throw new SafecutError("internal", `the watermark would move back from ${s.watermark} to ${watermark}`);
  const record: CompactionRecord = {
    items: s.items.length,
    start,
    end,
    summary: summary.content,
    trigger,
    tokensBefore,
    tokensAfter: store.totalTokens,
    summarizer: account.summarizer,
    ...(account.model === undefined ? {} : { model: account.model }),
    ...calls,
    ...(candidates.length === 0 ? {} : { memoryCandidates: candidates }),
    plannedVersion,
    committedVersion: s.version + 1,
    decision,
    watermark,
    time: new Date().toISOString(),
  };
  // the store now reflects the session with this record written
  store.reflects(record.committedVersion);
  account.handed.push(...candidates);
  return { outcome: out, entry: { kind: "compaction", record } };
}

/**
 * The kernel's log commit rule (L9) for a change planned on the store that touches nothing at
 * or after `stretchEnd`, against the entries written since the plan; unless it rejects, the
 * store takes the items appended since (by anyone) and reflects the session as read now.
 */
export function decideOnLog(
  at: SessionAt,
  store: PersistingStore,
  planned: PlannedAgainst,
  stretchEnd: number,
): { decision: CommitDecision; plannedVersion: number } {
  const s = at.state;
  const plannedVersion = store.sessionVersionAt(planned.version);
  const plannedLength = "length" in planned ? planned.length : planned.messages.length;
  const appended = messagesOf(s.items.slice(store.items), at.format);
  const decision = gateDecideLogCommit(
    { version: plannedVersion, length: plannedLength, stretchEnd },
    s.rewrites.slice(plannedVersion),
    store.messages.length + appended.length,
  );
  if (decision === "reject") return { decision, plannedVersion };
  for (const m of appended) store.append(m);
  store.items = s.items.length;
  store.reflects(s.version);
  return { decision, plannedVersion };
}

/** A clearing's decision against the session as read now (as decideStep): the results' contents replaced, one record. */
export function decideClearing(
  at: SessionAt,
  store: PersistingStore,
  planned: PlannedAgainst,
  replaced: Replacements,
): StepDecision {
  const s = at.state;
  const last = replaced.reduce((m, r) => Math.max(m, r.index), -1);
  const { decision, plannedVersion } = decideOnLog(at, store, planned, last + 1);
  if (decision === "reject" || replaced.length === 0) return { outcome: { decision, version: store.version } };
  const tokensBefore = store.totalTokens;
  const before = store.tokenCounts();
  const prior = replaced.map((r) => store.messages[r.index]);
  const out = store.applyClearing(planned, replaced);
  if (out.decision !== decision)
    throw new SafecutError("internal", `the session decided ${decision}, its store ${out.decision}`);
  const { results, inputs } = clearedParts(
    replaced,
    prior,
    replaced.map((r) => before[r.index]),
  );
  const record: ClearingRecord = {
    items: s.items.length,
    results,
    ...(inputs.length === 0 ? {} : { inputs }),
    tokensBefore,
    tokensAfter: store.totalTokens,
    plannedVersion,
    committedVersion: s.version + 1,
    decision,
    time: new Date().toISOString(),
  };
  store.reflects(record.committedVersion);
  return { outcome: out, entry: { kind: "clearing", record } };
}
