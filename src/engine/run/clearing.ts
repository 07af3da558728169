// The clearing tier (L13): before any summarizer call, old tool results get their content
// replaced by a short placeholder ("[tool result cleared: 12,345 chars]"); no model call. The
// kernel decides which results (selectClearing) and their new counts (clearedTokens); this file
// gathers what it reads (placeholders already there, excluded tools, each result's count once
// cleared), builds the cleared messages and commits them to the store. compact.ts calls
// `clearFirst` once before its summarize loop and `withClearing` on its report.
import type { ReportedPrefix, TriggerKind } from "../../kernel/trigger.ts";
import type { Config } from "../../model/config.ts";
import type { AssistantMessage, Message, ToolMessage } from "../../model/message.ts";
import { messageBytes } from "../../model/message-bytes.ts";
import { messageTokens } from "../../model/tokens.ts";
import { settingsView } from "../boundary/config-rules.ts";
import {
  gateByteWeightsAfter,
  gateCallsToClear,
  gateClearedTokens,
  gateClearsNow,
  gateOverByteBudget,
  gateSelectClearing,
  gateSummarizesAfterClearing,
  gateUsageAfterSplice,
  gateUsageTokens,
} from "../boundary/kernel-gate.ts";
import type { ClearedReplacement, ConversationStore } from "../store/store.ts";
import { targetTokens, triggerKindOf } from "./plan.ts";
import { countOf } from "./plural.ts";
import type { InputPositions } from "./positions.ts";
import type { ClearedResult, ClearingReport, CompactionReport } from "./report.ts";

/** The text that stands for the cleared length in a placeholder template. */
export const CHARS_FIELD = "{chars}";

/** The placeholder for a result of `chars` characters: `{chars}` becomes the length with thousands separators. */
export function placeholderText(template: string, chars: number): string {
  return template.split(CHARS_FIELD).join(chars.toLocaleString("en-US"));
}

/** A matcher of the placeholders a template writes (any length): a result that is one was cleared already. */
export function placeholderPattern(template: string): RegExp {
  const parts = template.split(CHARS_FIELD).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[0-9][0-9,]*")}$`);
}

/**
 * The result with its content replaced by `placeholder`; `clearedFrom` keeps the result as read.
 * Its images and files go with the content (every writer writes the placeholder alone), so it
 * counts none (no mediaTokens, no mediaBytes).
 */
export function clearedWith(m: ToolMessage, placeholder: string): ToolMessage {
  const { mediaTokens: _tokens, mediaBytes: _bytes, ...rest } = m;
  return { ...rest, content: placeholder, clearedFrom: m.clearedFrom ?? m };
}

/** What clear_inputs puts in place of a call's arguments: an empty JSON object, which every format's call can hold. */
export const CLEARED_ARGUMENTS = "{}";

/**
 * Whether the clearing of `counts` (the results' counts once cleared) happens now: the run
 * summarizes after it anyway (kernel summarizesAfterClearing on the count it leaves), or clearing
 * alone is due (kernel clearsNow against `hardTrigger`).
 */
function clearsNow(
  c: Config,
  judged: number,
  counts: readonly number[],
  tokens: ArrayLike<number>,
  items: number,
  userTurns: number,
  hardTrigger: number,
): boolean {
  if (hardTrigger <= 0) return true;
  let freed = 0;
  for (let i = 0; i < counts.length; i++) freed += tokens[i] - counts[i];
  const left = Math.max(0, judged - freed);
  const dueAfter = triggerKindOf(c, left, items, userTurns) !== "notDue";
  const target = targetTokens(c);
  const summarizes = target === undefined ? dueAfter : gateSummarizesAfterClearing(true, dueAfter, left, target);
  return gateClearsNow(summarizes, judged, hardTrigger);
}

/**
 * The assistant message with the arguments of its calls `ids` replaced by `{}` (clear_inputs),
 * its id, name, text and every other call unchanged; `clearedFrom` keeps the message as read.
 * A call whose format cannot hold `{}` (keepArguments), or whose arguments are no longer than
 * `{}`, keeps its arguments; undefined when no call changed.
 */
export function clearedArguments(m: AssistantMessage, ids: ReadonlySet<string>): AssistantMessage | undefined {
  let changed = false;
  const toolCalls = m.toolCalls.map((call) => {
    if (!ids.has(call.id) || call.keepArguments === true || call.arguments.length <= CLEARED_ARGUMENTS.length)
      return call;
    changed = true;
    return { ...call, arguments: CLEARED_ARGUMENTS };
  });
  return changed ? { ...m, toolCalls, clearedFrom: m.clearedFrom ?? m } : undefined;
}

/** The result cleared under a placeholder template. */
export function clearedMessage(m: ToolMessage, template: string): ToolMessage {
  return clearedWith(m, placeholderText(template, m.content.length));
}

/**
 * The tokens a clearing run aims to free: what takes the judged count down to the run's
 * low-water target (targetTokens: target_tokens, or target_percent of the trigger) once
 * token_threshold fired, as a summarizing run would, or back under the context window; never
 * less than clear_at_least. Under a message or turn trigger alone clearing cannot help: 0 (nothing cleared).
 */
function goalOf(c: Config, judged: number): number {
  const v = settingsView(c);
  const target = Math.min(targetTokens(c) ?? v.tokenThreshold - 1, v.tokenThreshold - 1);
  let need = 0;
  if (v.tokenThreshold > 0 && judged >= v.tokenThreshold) need = judged - target;
  if (v.contextWindow > 0 && judged + v.reserveTokens > v.contextWindow)
    need = Math.max(need, judged + v.reserveTokens - v.contextWindow);
  return need === 0 ? 0 : Math.max(need, c.clear_at_least);
}

/** The outcome of clearFirst: the report, and the usage report the trigger judges from now on. */
export interface ClearingStep {
  readonly report: ClearingReport | undefined;
  /** the usage report carried across the clearing (kernel usageAfterSplice per cleared result), undefined once dropped */
  readonly usage: ReportedPrefix | undefined;
  /** the strategy is "clear": the run does not summarize */
  readonly only: boolean;
  /** the clearing waits for the next summarizing run (the kernel's clearsNow): the run ends without changing anything */
  readonly deferred?: boolean;
  /**
   * a dry run's clearing that would clear: the replacements a run would commit and the usage
   * report it would carry, so that the dry run plans on a copy with exactly them applied instead
   * of asking the selection again (dry-run.ts)
   */
  readonly wouldClear?: {
    readonly replaced: readonly ClearedReplacement[];
    readonly usage: ReportedPrefix | undefined;
  };
}

/**
 * Runs the clearing tier once on the store when the strategy asks for it ("clear" or
 * "clear-then-summarize"); "summarize" leaves everything as it is. `usage` is the run's
 * reported prefix, if any, carried across the clearing. A dry run reports what it would clear
 * and changes nothing. `hardTrigger`: the token count at which the request itself is over its
 * trigger when the run is judged against an earlier one (a background run at soft_token_threshold;
 * 0: none): a clearing that leaves nothing to summarize then waits, unless the count is at or over
 * it (the kernel's clearsNow: deferred clearing rides with the next summarizing run).
 */
export async function clearFirst(
  store: ConversationStore,
  c: Config,
  positions: InputPositions,
  usage: ReportedPrefix | undefined,
  dryRun = false,
  hardTrigger = 0,
): Promise<ClearingStep> {
  if (c.strategy === "summarize") return { report: undefined, usage, only: false };
  const snap = store.view();
  const ms = snap.messages;
  const n = ms.length;
  const items = positions.items(n);
  const judged = usage === undefined ? snap.totalTokens : gateUsageTokens(usage, snap.tokens);
  const tokenDue = triggerKindOf(c, judged, items, snap.views.userTurns);
  const only = c.strategy === "clear";
  // due by the request's bytes alone (L1's byte form, the kernel's): the clearing selection is
  // asked in bytes (its weights, what a cleared result would weigh, the goal), which its
  // specification allows: it reads them only to sum what is freed and to see a result shrink
  const byBytes =
    tokenDue === "notDue" && c.max_request_bytes !== null && gateOverByteBudget(store.totalBytes, c.max_request_bytes);
  if (tokenDue === "notDue" && !byBytes) return notDueClearing(c, usage);
  const due: TriggerKind = byBytes ? "threshold" : tokenDue;
  const names = new Map<string, string>();
  for (const m of ms) if (m.role === "assistant") for (const call of m.toolCalls) names.set(call.id, call.name);
  const excludedTools = new Set(c.clear_exclude_tools);
  const pattern = placeholderPattern(c.clear_placeholder);
  const cleared = new Array<boolean>(n).fill(false);
  const excluded = new Array<boolean>(n).fill(false);
  const after = new Array<number>(n);
  const afterBytes = byBytes ? snap.bytes.slice() : [];
  const candidates: (ToolMessage | undefined)[] = new Array<ToolMessage | undefined>(n).fill(undefined);
  for (let i = 0; i < n; i++) {
    const m: Message = ms[i];
    after[i] = snap.tokens[i];
    if (m.role !== "tool") continue;
    cleared[i] = m.clearedFrom !== undefined || pattern.test(m.content);
    excluded[i] = m.keepContent === true || excludedTools.has(names.get(m.toolCallId) ?? "");
    if (cleared[i] || excluded[i]) continue;
    const next = clearedMessage(m, c.clear_placeholder);
    candidates[i] = next;
    after[i] = messageTokens(store.counter, next);
    if (byBytes) afterBytes[i] = messageBytes(next);
  }
  // in bytes: free what is over max_request_bytes (clear_at_least, a token figure, does not apply:
  // a request over the provider's size is refused whatever clearing costs the cache)
  const goal = byBytes ? store.totalBytes - (c.max_request_bytes ?? 0) : goalOf(c, judged);
  const window = positions.window(n, c.retention_window);
  const mask = gateSelectClearing(
    snap.views,
    byBytes ? snap.bytes : snap.tokens,
    // in bytes, a result counts as lighter once cleared only if its tokens fall too (L13 holds in both)
    { cleared, excluded, after: byBytes ? gateByteWeightsAfter(snap.tokens, after, snap.bytes, afterBytes) : after },
    window,
    c.clear_keep,
    goal,
    byBytes ? 0 : c.clear_at_least,
    due,
  );
  if (!mask.includes(true)) {
    const why = byBytes
      ? "no old tool result may be cleared to bring the request's bytes under max_request_bytes"
      : goal === 0
        ? "clearing cannot bring the count under a message or turn trigger"
        : `no old tool result may be cleared, or they free fewer than clear_at_least (${c.clear_at_least}) tokens`;
    return { report: none(why), usage, only };
  }
  const counts = gateClearedTokens(snap.tokens, after, mask);
  if (!byBytes && !clearsNow(c, judged, counts, snap.tokens, items, snap.views.userTurns, hardTrigger))
    return {
      report: none(
        `clearing deferred to ride with the next summarizing run: it alone would do, and the count (${judged}) is under the trigger the request is judged against (${hardTrigger})`,
      ),
      usage,
      only,
      deferred: true,
    };
  // clear_inputs: the calls of the cleared results (kernel callsToClear) get `{}` as arguments
  // (without clear_inputs the kernel marks no call: its ensures, so it is not asked)
  const inputs = c.clear_inputs
    ? clearedCalls(ms, snap.views.callOf, mask, gateCallsToClear(snap.views.callOf, mask, true))
    : new Map<number, AssistantMessage>();
  // (no call changed: clearedTokens with nothing marked gives the counts back, so it is not asked)
  let final = counts;
  if (inputs.size > 0) {
    const callAfter = counts.slice();
    for (const [j, m] of inputs) callAfter[j] = messageTokens(store.counter, m);
    final = gateClearedTokens(
      counts,
      callAfter,
      counts.map((_, j) => inputs.has(j)),
    );
  }
  const replaced: { index: number; message: Message; tokens: number }[] = [];
  const records: ClearedResult[] = [];
  let freed = 0;
  let carried = usage;
  for (let i = 0; i < n; i++) {
    const next = mask[i] ? candidates[i] : inputs.get(i);
    if (next === undefined) continue;
    replaced.push({ index: i, message: next, tokens: final[i] });
    freed += snap.tokens[i] - final[i];
    // clearing message i is a splice of [i, i + 1) by the cleared message: the report moves by
    // exactly the change when i lies in its prefix ({0, 0}: dropped, the counted total is judged)
    if (carried !== undefined) {
      const moved = gateUsageAfterSplice(carried, snap.tokens, i, i + 1, final[i]);
      carried = moved.reported > 0 || moved.end > 0 ? moved : undefined;
    }
    if (next.role !== "tool") continue;
    const was = ms[i] as ToolMessage;
    const j = inputs.size === 0 ? -1 : snap.views.callOf[i];
    const now = inputs.get(j);
    const call = now?.toolCalls.find((x) => x.id === was.toolCallId);
    const before = now?.clearedFrom?.toolCalls.find((x) => x.id === was.toolCallId);
    records.push({
      input: positions.range(i, i + 1),
      index: i,
      toolCallId: was.toolCallId,
      toolName: names.get(was.toolCallId) ?? "",
      chars: was.content.length,
      tokensBefore: snap.tokens[i],
      tokensAfter: final[i],
      placeholder: next.content,
      ...(call !== undefined && before !== undefined && call.arguments !== before.arguments
        ? { arguments: { index: j, chars: before.arguments.length } }
        : {}),
    });
  }
  const calls = records.filter((r) => r.arguments !== undefined).length;
  const args = calls === 0 ? "" : `, the arguments of ${countOf(calls, "call")}`;
  const what = `${countOf(records.length, "tool result")}${args} (${countOf(freed, "token")} freed)`;
  if (dryRun)
    return {
      report: { results: 0, tokensFreed: 0, inputs: 0, records: [], reason: `would clear ${what}` },
      usage,
      only,
      wouldClear: { replaced, usage: carried },
    };
  // nothing has awaited since the snapshot: the commit is against the current version (a
  // session's store decides it again where its data lives, and may reject it)
  const commit = await store.commitClearingAsync(snap, replaced);
  if (commit.decision === "reject")
    return {
      report: none("the conversation was edited (not only appended to) meanwhile: nothing cleared"),
      usage,
      only,
    };
  const report = { results: records.length, tokensFreed: freed, inputs: calls, records, reason: `cleared ${what}` };
  return { report, usage: carried, only };
}

/**
 * The assistant messages `calls` marks with the arguments of their cleared results' calls
 * replaced (clearedArguments), by index; one none of whose calls changed is left out.
 */
function clearedCalls(
  ms: readonly Message[],
  callOf: readonly number[],
  mask: readonly boolean[],
  calls: readonly boolean[],
): Map<number, AssistantMessage> {
  const ids = new Map<number, Set<string>>();
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || !calls[callOf[i]]) continue;
    const m = ms[i];
    if (m.role !== "tool") continue;
    const set = ids.get(callOf[i]) ?? new Set<string>();
    set.add(m.toolCallId);
    ids.set(callOf[i], set);
  }
  const out = new Map<number, AssistantMessage>();
  for (const [j, set] of ids) {
    const m = ms[j];
    const next = m.role === "assistant" ? clearedArguments(m, set) : undefined;
    if (next !== undefined) out.set(j, next);
  }
  return out;
}

/** The clearing tier's step in a run that is not due (nothing cleared); undefined under strategy "summarize". */
export function notDueClearing(c: Config, usage?: ReportedPrefix): ClearingStep {
  if (c.strategy === "summarize") return { report: undefined, usage, only: false };
  return { report: none("clearing is not due: under every configured trigger"), usage, only: c.strategy === "clear" };
}

function none(reason: string): ClearingReport {
  return { results: 0, tokensFreed: 0, inputs: 0, records: [], reason };
}

/** The run's report with what clearing did: a run that only cleared has still changed the conversation. */
export function withClearing(r: CompactionReport, step: ClearingStep): CompactionReport {
  const k = step.report;
  if (k === undefined) return r;
  if (k.results === 0) return { ...r, clearing: k, reason: step.only ? k.reason : r.reason };
  const outcome =
    r.outcome === "nothing-to-do" ? "compacted" : r.outcome === "still-due" ? "compacted-still-due" : r.outcome;
  const reason = step.only
    ? `${k.reason}${r.dueAfter ? "; still due" : ""}`
    : `${k.reason}; then ${r.outcome !== "degraded" && r.stretches.length === 0 && !r.dueAfter ? "under the trigger" : r.reason}`;
  return { ...r, outcome, reason, clearing: k };
}
