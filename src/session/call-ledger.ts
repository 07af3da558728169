// Which summarizer calls of a session's compaction run produced which committed step. The run's
// call hook tells the ledger of every call (its record and the stretches it asked for); at each
// commit the ledger takes every call that asked for the committed stretch (the one whose answer
// was accepted, those whose answers were rejected, a batch call whose answer for it was missing).
// A call is counted on the first record it went into and referenced from later ones, so that no
// call is counted twice (record.ts, CompactionRecord.calls).

import type { SummarizerCallEvent } from "../engine/run/run-hooks.ts";
import { stretchParts } from "../engine/summarize/summarize-step.ts";
import type { Message } from "../model/message.ts";
import type { CallRef, CompactionRecord, RecordedCall } from "./record.ts";

/** A call as the ledger keeps it. */
interface LedgerCall {
  readonly call: RecordedCall;
  /** per part: what stretch it asked for (its earlier summary and its messages) */
  readonly keys: readonly string[];
  /** per part: already accounted to a committed step */
  readonly done: boolean[];
  /** where the call is counted, once it is */
  counted?: CallRef;
}

/** What stretch a request asks for (what it holds of the stretch, stretchParts): the same key for every request of the same stretch. */
function stretchKey(previousSummary: string | undefined, fresh: readonly Message[]): string {
  return JSON.stringify([previousSummary ?? null, fresh]);
}

/** The key of the requests for `stretch`. */
function keyOf(stretch: readonly Message[]): string {
  const { previousSummary, fresh } = stretchParts(stretch);
  return stretchKey(previousSummary, fresh);
}

/** The calls of one run, accounted to its committed steps. */
export class CallLedger {
  private readonly calls: LedgerCall[] = [];

  /** The run's call hook: records one call. */
  readonly onCall = (e: SummarizerCallEvent): void => {
    const u = e.record.usage;
    this.calls.push({
      call: {
        durationMs: e.record.durationMs,
        answered: e.record.answered,
        ...(u === undefined ? {} : { usage: { ...u } }),
        stretches: e.parts.length,
        ...(e.record.failure === undefined ? {} : { failure: e.record.failure }),
      },
      keys: e.parts.map((p) => stretchKey(p.previousSummary, p.stretch)),
      done: e.parts.map(() => false),
    });
  };

  /**
   * The calls of the step that replaced `stretch` (its messages) and was committed as `version`:
   * those counted on its record and those counted on an earlier one; marks them accounted.
   */
  forStep(stretch: readonly Message[], version: number): Pick<CompactionRecord, "calls" | "sharedCalls"> {
    return this.forStretches([stretch], version);
  }

  /** As forStep, for a record of several stretches (an unshrinkable record). */
  forStretches(
    stretches: readonly (readonly Message[])[],
    version: number,
  ): Pick<CompactionRecord, "calls" | "sharedCalls"> {
    const keys = new Set(stretches.map(keyOf));
    const calls: RecordedCall[] = [];
    const sharedCalls: CallRef[] = [];
    for (const c of this.calls) {
      let used = false;
      c.keys.forEach((k, i) => {
        if (keys.has(k) && !c.done[i]) {
          c.done[i] = true;
          used = true;
        }
      });
      if (!used) continue;
      if (c.counted !== undefined) sharedCalls.push(c.counted);
      else {
        c.counted = { record: version, call: calls.length };
        calls.push(c.call);
      }
    }
    return { calls, ...(sharedCalls.length === 0 ? {} : { sharedCalls }) };
  }
}
