// Planning one compaction step against a snapshot: is compaction due (L1), which stretch
// (L4/L5 within L2/L3), how many tokens it holds. Every decision is the kernel's.
import type { Thresholds } from "../kernel/trigger.ts";
import type { Config } from "./config.ts";
import { KernelBoundaryError } from "./errors.ts";
import {
  gateCompactionDue, gateFindCutPoint, gateHasThreshold, gateIsEligible, gateOverContextWindow, gateRangeTokens,
  gateRetentionCutoff, gateSelectStretch,
} from "./kernel-gate.ts";
import type { StoreSnapshot } from "./store.ts";
import { maskBefore } from "./view-mask.ts";
import { kernelViews } from "./views.ts";

/** The stretch chosen for one compaction step. */
export interface PlannedStretch {
  /** first replaced message */
  readonly start: number;
  /** one past the last replaced message */
  readonly end: number;
  readonly replacedTokens: number;
}

/** The plan for one step: whether compaction is due and what it would replace. */
export interface Plan {
  readonly due: boolean;
  /** which trigger fired, for the report */
  readonly trigger: "tokens/messages/turns" | "context window" | "none";
  readonly stretch: PlannedStretch | undefined;
  readonly totalTokens: number;
  readonly messages: number;
  readonly userTurns: number;
}

/** The kernel's view of the thresholds: 0 stands for "not configured". */
export function thresholdsOf(c: Config): Thresholds {
  return { tokenThreshold: c.token_threshold ?? 0, messageThreshold: c.message_threshold ?? 0, turnThreshold: c.turn_threshold ?? 0 };
}

/** Is compaction due for these counts, and by which trigger (L1, both forms)? */
export function dueBy(c: Config, tokens: number, messages: number, userTurns: number): Plan["trigger"] {
  const th = thresholdsOf(c);
  if (gateHasThreshold(th) && gateCompactionDue(tokens, messages, userTurns, th)) return "tokens/messages/turns";
  if (c.context_window !== null && gateOverContextWindow(tokens, c.context_window, c.reserve_tokens)) return "context window";
  return "none";
}

/**
 * Plans the next compaction step of a snapshot under a (validated) configuration; with
 * `from` > 0 only stretches starting at or after `from` are considered (see view-mask.ts).
 */
export function planStep(snap: StoreSnapshot, c: Config, from = 0): Plan {
  const views = kernelViews(snap.messages);
  const trigger = dueBy(c, snap.totalTokens, snap.messages.length, views.userTurns);
  const base = { due: trigger !== "none", trigger, totalTokens: snap.totalTokens, messages: snap.messages.length, userTurns: views.userTurns };
  const s = gateSelectStretch(maskBefore(views, from), c.retention_window);
  if (!s.found) return { ...base, stretch: undefined };
  let end = s.end;
  if (c.keep_recent_tokens !== null) {
    // Keep-recent form (L7): the kept part must hold keep_recent_tokens; what lies after the
    // stretch already counts, and the kernel's cut point inside the stretch provides the rest.
    const n = snap.messages.length;
    const stillNeeded = c.keep_recent_tokens - gateRangeTokens(snap.tokens, s.end, n);
    if (stillNeeded > 0) {
      // The kernel's bound (L7) holds when the range holds the budget; when it does not, only
      // keeping the whole stretch honors keep_recent_tokens.
      if (gateRangeTokens(snap.tokens, s.start, s.end) < stillNeeded) return { ...base, stretch: undefined };
      const cut = gateFindCutPoint(views, snap.tokens, s.start, s.end, stillNeeded);
      if (!cut.found || cut.firstKept <= s.start) return { ...base, stretch: undefined };
      end = cut.firstKept;
      // a part made only of earlier summaries is not worth re-summarizing (the kernel's HasWork)
      if (snap.messages.slice(s.start, end).every((m) => m.role === "summary")) return { ...base, stretch: undefined };
      // The shortened stretch must still be one the kernel would call eligible (L5).
      if (!gateIsEligible(views, gateRetentionCutoff(n, c.retention_window), s.start, end)) {
        throw new KernelBoundaryError("findCutPoint", `a cut at ${end} that leaves [${s.start}, ${end}) eligible`);
      }
    }
  }
  return { ...base, stretch: { start: s.start, end, replacedTokens: gateRangeTokens(snap.tokens, s.start, end) } };
}
