// A session's compaction run adopted at one step (issue 31: a background run re-writes the agent's
// prompt cache once, not once per commit). The run compacts the store it loaded in memory and each
// of its steps is kept here; when it ends, the kernel's log commit rule (L9) decides the whole run
// once, against the entries written since the store was loaded (commit; rebase over pure appends;
// reject: nothing is written), and its steps become one commit: one run line on a log, one
// transaction on PostgreSQL. Nothing of the run is visible before, and a run killed midway leaves
// nothing.

import type { FormatName } from "../adapters/detect.ts";
import { gateAdvanceWatermark, gateDecideLogCommit } from "../engine/boundary/kernel-gate.ts";
import type { MemoryCandidate } from "../engine/memory/candidates.ts";
import type { Plan } from "../engine/run/plan.ts";
import { stepTriggerOf } from "../engine/run/report.ts";
import { SafecutError } from "../model/errors.ts";
import type { Message, SummaryMessage } from "../model/message.ts";
import type { CallLedger } from "./call-ledger.ts";
import type { CommitGuards, PersistingStore, Replacements } from "./persisting-store.ts";
import type {
  ClearedEntry,
  ClearedInputs,
  ClearingRecord,
  CompactionRecord,
  StretchBounds,
  UnshrinkableRecord,
} from "./record.ts";
import { clearedCallIds, messagesOf } from "./replay.ts";
import type { SessionState } from "./session-state.ts";
import type { StepAccount, StepDecision, StepEntry } from "./step-entries.ts";

/** One step a run applied to its store in memory, with what its record needs. */
type StagedStep =
  | {
      readonly kind: "splice";
      readonly start: number;
      readonly end: number;
      readonly summary: SummaryMessage;
      /** the messages the summary replaced */
      readonly stretch: readonly Message[];
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly trigger: CompactionRecord["trigger"];
      /** the index of the newest user message after the splice (L10's bound on the watermark) */
      readonly newestUser: number;
      /** the memory flush candidates of the stretch, at its positions then (memory_candidates > 0) */
      readonly candidates: readonly MemoryCandidate[];
    }
  | {
      readonly kind: "clearing";
      readonly replaced: Replacements;
      /** the messages as they were before the clearing, and their counts, per replacement */
      readonly prior: readonly Message[];
      readonly before: readonly number[];
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    };

/** The index of the newest user message, or -1. */
export function newestUser(ms: readonly Message[]): number {
  for (let i = ms.length - 1; i >= 0; i--) if (ms[i].role === "user") return i;
  return -1;
}

/**
 * What a clearing record lists: the tool results cleared, and (clear_inputs) the calls whose
 * arguments were replaced, by assistant message; `prior` and `before` are each replacement's
 * message and count before it.
 */
export function clearedParts(
  replaced: Replacements,
  prior: readonly Message[],
  before: readonly number[],
): { results: ClearedEntry[]; inputs: ClearedInputs[] } {
  const results: ClearedEntry[] = [];
  const inputs: ClearedInputs[] = [];
  replaced.forEach((r, k) => {
    const m = r.message;
    const counts = { tokensBefore: before[k], tokensAfter: r.tokens };
    if (m.role === "tool")
      results.push({ index: r.index, toolCallId: m.toolCallId, placeholder: m.content, ...counts });
    else if (m.role === "assistant")
      inputs.push({ index: r.index, toolCallIds: clearedCallIds(prior[k], m), ...counts });
    else throw new SafecutError("internal", `a cleared ${m.role} message`);
  });
  return { results, inputs };
}

/** The record of the stretches a run found not to shrink (positions in `store`), committed as `version`. */
export function unshrinkableRecord(
  s: SessionState,
  store: PersistingStore,
  found: readonly StretchBounds[],
  ledger: CallLedger,
  version: number,
): UnshrinkableRecord {
  const calls = ledger.forStretches(
    found.map((x) => store.messages.slice(x.start, x.end)),
    version,
  );
  return {
    items: s.items.length,
    stretches: found,
    ...calls,
    committedVersion: version,
    time: new Date().toISOString(),
  };
}

/** Where a run's store was loaded: the session's version, the context's length, the items read. */
export interface LoadedAt {
  readonly version: number;
  readonly length: number;
  readonly items: number;
}

/** The steps of one run on a session, applied in memory and written together at its end. */
export class StagedRun {
  private readonly steps: StagedStep[] = [];

  constructor(private readonly loaded: LoadedAt) {}

  /** Whether the run changed its store (a splice, a clearing). */
  get changed(): boolean {
    return this.steps.length > 0;
  }

  /**
   * The guards of the run's store: each commit is the store's own in-memory one (the kernel's
   * version check of the store) and is kept here; nothing is written. `trigger` reads the store
   * just before a splice; `candidates` (memory_candidates > 0) takes the memory flush candidates
   * of its stretch then, at the positions the record names (as decideStep does at its commit).
   */
  guards(trigger: (store: PersistingStore) => Plan["trigger"], candidates?: StepAccount["candidates"]): CommitGuards {
    return {
      splice: async (store, planned, start, end, summary) => {
        const tokensBefore = store.totalTokens;
        const stretch = store.messages.slice(start, end);
        const found = candidates?.(store.messages, start, end) ?? [];
        const fired = trigger(store);
        const out = store.applySplice(planned, start, end, summary);
        if (out.decision !== "reject")
          this.steps.push({
            kind: "splice",
            start,
            end,
            summary,
            stretch,
            tokensBefore,
            tokensAfter: store.totalTokens,
            // a step under every trigger is one of a run that was due going on down to its target
            trigger: stepTriggerOf(fired),
            newestUser: newestUser(store.messages),
            candidates: found,
          });
        return out;
      },
      clearing: async (store, planned, replaced) => {
        const tokensBefore = store.totalTokens;
        const counts = store.tokenCounts();
        const prior = replaced.map((r) => store.messages[r.index]);
        const out = store.applyClearing(planned, replaced);
        if (out.decision !== "reject" && replaced.length > 0)
          this.steps.push({
            kind: "clearing",
            replaced,
            prior,
            before: replaced.map((r) => counts[r.index]),
            tokensBefore,
            tokensAfter: store.totalTokens,
          });
        return out;
      },
    };
  }

  /**
   * The run's one commit against the session as read now (the caller excludes other writers and
   * has synced): the kernel's log commit rule over the entries written since the store was loaded,
   * for a change touching nothing at or after the last position any step (or `found`, the
   * stretches found not to shrink) touched. Unless it rejects, the store takes the items appended
   * since and the decision carries every step's record in order, then `found`'s, numbered from the
   * session's next version: one entry, or one run of them. The steps' memory flush candidates go
   * with their records and into `account.handed`, in commit order (nothing when it rejects).
   */
  decide(
    s: SessionState,
    store: PersistingStore,
    format: FormatName,
    account: Omit<StepAccount, "trigger">,
    found: readonly StretchBounds[],
  ): StepDecision {
    if (this.steps.length === 0 && found.length === 0)
      return { outcome: { decision: "commit", version: store.version } };
    const stretchEnd = Math.max(
      ...this.steps.map((st) =>
        st.kind === "splice" ? st.end : st.replaced.reduce((m, r) => Math.max(m, r.index + 1), 0),
      ),
      ...found.map((x) => x.end),
    );
    const appended = messagesOf(s.items.slice(this.loaded.items), format);
    const decision = gateDecideLogCommit(
      { version: this.loaded.version, length: this.loaded.length, stretchEnd },
      s.rewrites.slice(this.loaded.version),
      this.loaded.length + appended.length,
    );
    if (decision === "reject") return { outcome: { decision, version: store.version } };
    // the items appended since come after everything the run touched: its positions stand
    const tokensBeforeAppends = store.totalTokens;
    for (const m of appended) store.append(m);
    store.items = s.items.length;
    const added = store.totalTokens - tokensBeforeAppends;
    const time = new Date().toISOString();
    const common = { items: s.items.length, plannedVersion: this.loaded.version, decision, time };
    let version = s.version;
    let watermark = s.watermark;
    const entries: StepEntry[] = [];
    for (const st of this.steps) {
      version++;
      const tokens = { tokensBefore: st.tokensBefore + added, tokensAfter: st.tokensAfter + added };
      if (st.kind === "clearing") {
        const { results, inputs } = clearedParts(st.replaced, st.prior, st.before);
        const record: ClearingRecord = {
          ...common,
          results,
          ...(inputs.length === 0 ? {} : { inputs }),
          ...tokens,
          committedVersion: version,
        };
        entries.push({ kind: "clearing", record });
        continue;
      }
      // L10, checked where the data lives: the persisted watermark only moves forward
      const next = gateAdvanceWatermark(watermark, st.start + 1, st.newestUser);
      if (next < watermark)
        throw new SafecutError("internal", `the watermark would move back from ${watermark} to ${next}`);
      watermark = next;
      const record: CompactionRecord = {
        ...common,
        start: st.start,
        end: st.end,
        summary: st.summary.content,
        trigger: st.trigger,
        ...tokens,
        summarizer: account.summarizer,
        ...(account.model === undefined ? {} : { model: account.model }),
        ...account.ledger.forStep(st.stretch, version),
        ...(st.candidates.length === 0 ? {} : { memoryCandidates: st.candidates }),
        committedVersion: version,
        watermark,
      };
      entries.push({ kind: "compaction", record });
      account.handed.push(...st.candidates);
    }
    if (found.length > 0) {
      version++;
      entries.push({ kind: "unshrinkable", record: unshrinkableRecord(s, store, found, account.ledger, version) });
    }
    // the store now reflects the session with the run written
    store.reflects(version);
    const outcome = { decision, version: store.version };
    return { outcome, entry: entries.length === 1 ? entries[0] : { kind: "run", entries } };
  }
}
