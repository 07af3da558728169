// Planning one compaction step against a snapshot: is compaction due (L1), which stretch
// (L4/L5 within L2/L3, and L7 in the keep-recent form), how many tokens it holds. Every
// decision is the kernel's: this file only picks which kernel function the config asks for.
import type { ReportedPrefix, Thresholds, TriggerKind } from "../../kernel/trigger.ts";
import type { Config } from "../../model/config.ts";
import { settingsView } from "../boundary/config-rules.ts";
import {
  gateByteVerdict,
  gateOverByteBudget,
  gateRangeTokens,
  gateRetentionCutoff,
  gateSelectKeepRecent,
  gateSelectStretchFrom,
  gateThresholdFired,
  gateTriggerFired,
  gateUsageTokens,
  gateWorthACall,
} from "../boundary/kernel-gate.ts";
import { plainArray, plainSlice } from "../store/gap-array.ts";
import type { ConversationStore, StoreSnapshot, StoreView } from "../store/store.ts";
import type { ShunBounds } from "../store/unshrinkable.ts";
import { kernelViews } from "../store/views.ts";

/** What makes a stretch worth a summarizer call (the kernel's worthACall): a floor, and the stretches known not to shrink. */
export interface CallFloor {
  readonly floorTokens: number;
  readonly shun: ShunBounds;
}

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
  /** which trigger fired, for the report ("reported usage": the token threshold, judging a provider's report) */
  readonly trigger: "tokens" | "messages" | "turns" | "reported usage" | "context window" | "request bytes" | "none";
  readonly stretch: PlannedStretch | undefined;
  readonly totalTokens: number;
  /** the token count the trigger judged: totalTokens, or with reported usage the report plus the counts after it */
  readonly triggerTokens: number;
  readonly messages: number;
  readonly userTurns: number;
}

/** The kernel's view of the thresholds: 0 stands for "not configured" (settingsView's spelling). */
export function thresholdsOf(c: Config): Thresholds {
  const { tokenThreshold, messageThreshold, turnThreshold } = settingsView(c);
  return { tokenThreshold, messageThreshold, turnThreshold };
}

/** The kernel's trigger kind for these counts under the settings (L1, both forms). */
export function triggerKindOf(c: Config, tokens: number, messages: number, userTurns: number): TriggerKind {
  const v = settingsView(c);
  return gateTriggerFired(tokens, messages, userTurns, thresholdsOf(c), v.contextWindow, v.reserveTokens);
}

/**
 * Is compaction due for these counts, and by which trigger (L1, every form; the kernel names the
 * threshold)? `reported`: `tokens` is a provider's reported usage (plus the counts after it).
 * `bytes`: the request's bytes (the store's byte total); with max_request_bytes set, a request
 * over it is due by "request bytes" when no other trigger fired (the kernel's overByteBudget).
 * Whether a run can bring it under is the run's question (byteVerdict, with the byte floor).
 */
export function dueBy(
  c: Config,
  tokens: number,
  messages: number,
  userTurns: number,
  reported = false,
  bytes?: number,
): Plan["trigger"] {
  const kind = triggerKindOf(c, tokens, messages, userTurns);
  if (kind === "window") return "context window";
  if (kind === "notDue")
    return bytes !== undefined && gateOverByteBudget(bytes, c.max_request_bytes ?? 0) ? "request bytes" : "none";
  const which = gateThresholdFired(tokens, messages, userTurns, thresholdsOf(c));
  return which === "tokens" && reported ? "reported usage" : which;
}

/**
 * The request's bytes as the trigger reads them: `of`'s byte total when max_request_bytes is set;
 * undefined without a byte budget, where the byte form of L1 has no budget to compare them with
 * (dueBy's `bytes`), so they are not asked for (a store counts them on first demand).
 */
export function budgetBytes(c: Config, of: { readonly totalBytes: number }): number | undefined {
  return c.max_request_bytes === null ? undefined : of.totalBytes;
}

/**
 * Is compaction due on the store as it stands (L1)? The store keeps its token total and user turns
 * as messages are appended (one count per append), so this reads no message: the per-step check of
 * an agent that owns a store. `items`: the caller's item count for message_threshold (default one
 * per message). compactStore decides the same, but a run also copies the history for its report.
 */
export function storeDueBy(store: ConversationStore, c: Config, items = store.messages.length): Plan["trigger"] {
  return dueBy(c, store.totalTokens, items, store.userTurns, false, budgetBytes(c, store));
}

/** The bytes no law lets compaction shrink, by what holds them (the byte form of the lawful floor). */
export interface ByteFloor {
  /** user and system messages outside the retention window, with their images and files (L2) */
  readonly userSystem: number;
  /** the retention window (L3, widened by keep_recent_tokens as the run widens it) */
  readonly kept: number;
  /** other messages no stretch may take (a call whose result is in the window, an ongoing call) */
  readonly other: number;
  /** summaries outside the window (a stretch of summaries is re-summarized into one: counted whole) */
  readonly summaries: number;
  readonly total: number;
}

/**
 * The byte floor of `snap` under the retention window `window` (in these messages): the bytes of
 * every message no eligible stretch covers, the stretches being the kernel's own choice as
 * planStep makes it (selectStretchFrom, or selectKeepRecent with keep_recent_tokens), walked
 * from the start; and every summary (what a stretch leaves, and what rolling summaries cannot take
 * below a summary's own size). A run that ends still over its byte budget asks it again: its
 * summaries are counted then.
 * One pass over the stretches: only asked when the request is over its byte budget.
 */
export function byteFloorOf(snap: StoreView, c: Config, window: number): ByteFloor {
  const views = snap.views;
  const roles = views.roles;
  const bytes = plainArray(snap.bytes);
  const keep = c.keep_recent_tokens;
  const counts = keep === null ? [] : plainArray(snap.tokens);
  const cutoff = gateRetentionCutoff(roles.length, window);
  const covered = new Array<boolean>(roles.length).fill(false);
  for (let at = 0; ; ) {
    const st =
      keep === null ? gateSelectStretchFrom(views, window, at) : gateSelectKeepRecent(views, counts, window, at, keep);
    if (!st.found) break;
    for (let i = st.start; i < st.end; i++) covered[i] = true;
    at = st.end;
  }
  let userSystem = 0;
  let kept = 0;
  let other = 0;
  let summaries = 0;
  for (let i = 0; i < roles.length; i++) {
    const r = roles[i];
    if (covered[i] && r !== "summary") continue;
    if (i >= cutoff) kept += bytes[i];
    else if (r === "user" || r === "system") userSystem += bytes[i];
    else if (r === "summary") summaries += bytes[i];
    else other += bytes[i];
  }
  return { userSystem, kept, other, summaries, total: userSystem + kept + other + summaries };
}

/**
 * The kernel's byte verdict on a request of `bytes` with floor `floor` under max_request_bytes
 * (unset: "fits"): "due" when a run can bring it under, "floorOver" when its floor alone is over.
 */
export function byteVerdictOf(c: Config, bytes: number, floor: ByteFloor): "fits" | "due" | "floorOver" {
  return gateByteVerdict(bytes, Math.min(floor.total, bytes), c.max_request_bytes ?? 0);
}

/**
 * The report's words for a request whose byte floor alone is over max_request_bytes: the
 * figures, what holds the floor, and the setting to change. Said once per run, and the run
 * makes no summarizer call: no run can bring such a request under its budget.
 */
export function byteFloorReason(c: Config, bytes: number, floor: ByteFloor): string {
  return `the request's bytes are over max_request_bytes and compaction cannot bring them under: ${bytes} bytes, of which ${floor.total} no law lets compaction shrink (user and system messages with their images and files ${floor.userSystem}, retention window ${floor.kept}, summaries ${floor.summaries}, messages no stretch may take ${floor.other}), over max_request_bytes ${c.max_request_bytes}; raise max_request_bytes above ${floor.total} if the provider accepts it, or lower retention_window, or send smaller images and files in user messages`;
}

/**
 * Plans the next compaction step of a snapshot under a (validated) configuration; with
 * `from` > 0 only stretches starting at or after `from` are considered (the run continues
 * past a stretch it left unchanged). The stretch is the kernel's choice, in the keep-recent
 * form (L7) too: selectKeepRecent already leaves keep_recent_tokens after it. `window` is the
 * retention window in these messages (the caller maps the file's own count to it), `items` the
 * message count message_threshold is compared with (the caller's items). Given a StoreView
 * (store.view()), it plans on the store's live views instead of rebuilding them. With `usage` (a
 * token count the provider reported for the first `usage.end` messages), the trigger judges that
 * count plus the counts of the messages after it (the kernel's usageTokens) instead of the total.
 * With `worth`, a stretch the kernel's worthACall says is not worth a summarizer call (at or below
 * the floor, or known not to shrink) is passed over.
 */
export function planStep(
  snap: StoreSnapshot | StoreView,
  c: Config,
  from = 0,
  window = c.retention_window,
  items = snap.messages.length,
  usage?: ReportedPrefix,
  worth?: CallFloor,
): Plan {
  // a store view carries views kept incrementally; a snapshot's are built here (O(n))
  const views = "views" in snap ? snap.views : kernelViews(snap.messages);
  const triggerTokens = usage === undefined ? snap.totalTokens : gateUsageTokens(usage, snap.tokens);
  const trigger = dueBy(c, triggerTokens, items, views.userTurns, usage !== undefined, budgetBytes(c, snap));
  const base = {
    due: trigger !== "none",
    trigger,
    totalTokens: snap.totalTokens,
    triggerTokens,
    messages: snap.messages.length,
    userTurns: views.userTurns,
  };
  const keep = c.keep_recent_tokens;
  // the guard and the kernel (its suffix sum) read every count: a plain array, not a view
  const counts = keep === null ? snap.tokens : plainArray(snap.tokens);
  const select = (at: number) =>
    keep === null ? gateSelectStretchFrom(views, window, at) : gateSelectKeepRecent(views, counts, window, at, keep);
  let s = select(from);
  // a stretch not worth a call is passed over whole: a part of it is below the floor too, or
  // (known not to shrink) would cost a call to learn the same
  while (
    s.found &&
    worth !== undefined &&
    !gateWorthACall(snap.tokens, s.start, s.end, worth.floorTokens, worth.shun.starts, worth.shun.ends)
  )
    s = select(s.end);
  if (!s.found) return { ...base, stretch: undefined };
  // the stretch's own counts, copied once (the guard and the kernel read each of them anyway): the
  // gate reads a plain array, not the store's view; a stretch outside the counts leaves fewer
  // than end - start of them, which the gate refuses
  const own = plainSlice(snap.tokens, s.start, s.end);
  return {
    ...base,
    stretch: { start: s.start, end: s.end, replacedTokens: gateRangeTokens(own, 0, s.end - s.start) },
  };
}

/**
 * The low-water target of a run that is due: target_tokens when set, else target_percent of
 * token_threshold (or of context_window - reserve_tokens when no token threshold is set);
 * undefined when neither is set (a run then stops when it is no longer due).
 */
export function targetTokens(c: Config): number | undefined {
  if (c.target_tokens !== null) return c.target_tokens;
  const of = c.token_threshold ?? (c.context_window === null ? null : c.context_window - c.reserve_tokens);
  return of === null ? undefined : Math.floor((of * c.target_percent) / 100);
}

/** What a batch plan counts each stretch's summary as keeping: `allowance` tokens plus `percent` of the stretch (the kernel's batchFreed). */
export interface PlanKeep {
  readonly allowance: number;
  readonly percent: number;
}

/**
 * The batch plan's estimate of a summary: min_stretch_tokens plus summary_percent of its stretch.
 * The budget its prompt states (summaryBudget) is summary_percent of the stretch, at least its
 * facts' tokens plus summary_floor_tokens, and the summary message adds its framing; the facts
 * are known only once a stretch is chosen (the plan takes one allowance for all). Counting the
 * floor alone (40) undercounted: the replayed summaries came back at 50–57 tokens, so a batch fell
 * a few hundred tokens short of its target and the run paid a second call for them. The plan
 * counts what a stretch must exceed to be worth a call instead (min_stretch_tokens, 64 by
 * default), so a planned stretch is never counted as freeing less than
 * nothing and a batch whose facts are few overshoots its target a little rather than falling short. With
 * summary_percent 0 the prompt states max_tokens, which says nothing of the summary's size, and
 * the plan counts min_stretch_tokens alone. An estimate to plan with, never a limit on the summarizer.
 */
export function planKeep(c: Config): PlanKeep {
  return { allowance: c.min_stretch_tokens, percent: c.summary_percent };
}
