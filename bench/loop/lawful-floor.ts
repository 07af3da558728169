// The least the laws allow, replayed: an ideal compactor that, whenever the context reaches the
// trigger, shrinks it in one summarizer call as far as any lawful compactor could. Every user and
// system message stays (L2), the last retention_window messages stay (L3), and each gap between
// them (a run of other messages) becomes one summary (L6) holding nothing but the facts a summary
// of it must keep verbatim (paths, identifiers, error lines: what safecut's validation asks for).
// No summarizer writes shorter summaries, so no lawful compactor that summarizes when due frees
// more in one call. It is replayed without a summarizer (its calls are counted, not made), to set
// safecut's events and main-model input beside the floor the laws put under them. What it does not
// do: keep tool calls paired across the retention window's edge (L5), which only lets it free more.
// With a setting that keeps more (keep_recent_tokens, or age_percent 0: summaries never summarized
// again), the ideal keeps what that setting keeps too: the least the laws and the setting allow.
import { clearedMessage } from "../../src/engine/run/clearing.ts";
import { requiredFacts } from "../../src/engine/summarize/facts.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";
import { billed, type CacheBills, CacheMeter } from "./cache-bill.ts";
import { contextTokens } from "./compactors.ts";
import { markBefore } from "./replay.ts";
import type { Session } from "./sessions.ts";

/**
 * What the ideal compactor's replay of one session cost: its calls (one per event), the main
 * model's input, what its calls would read (the gaps replaced) and write (the least summaries),
 * and the main model's input billed with prompt caching per provider style (cache-bill.ts; a
 * breakpoint on the last message before the first one it changed, as the adapters place it).
 */
export interface FloorStats extends CacheBills {
  readonly modelCalls: number;
  readonly calls: number;
  readonly mainInput: number;
  readonly summarizerInput: number;
  readonly summarizerOutput: number;
}

/** A gap's least summary: its required facts, one per line (a single character when it has none). */
function leastSummary(gap: readonly Message[]): Message {
  const facts = requiredFacts(gap, []);
  return summaryMessage(facts.length === 0 ? "." : facts.join("\n"));
}

/** What a setting makes the ideal keep beyond the laws: the newest tokens (keep_recent_tokens) and earlier summaries (age_percent 0). */
export interface FloorKeeps {
  readonly keepRecentTokens?: number;
  readonly keepSummaries?: boolean;
}

/** Where the kept tail starts: the retention window, widened to hold at least `keepRecentTokens` of the newest tokens. */
function keptFrom(context: readonly Message[], window: number, keepRecentTokens: number): number {
  let cutoff = Math.max(0, context.length - window);
  let kept = contextTokens(context.slice(cutoff));
  while (cutoff > 0 && kept < keepRecentTokens) {
    cutoff--;
    kept += contextTokens([context[cutoff]]);
  }
  return cutoff;
}

/**
 * The context shrunk to the least the laws allow: user and system messages, the retention window,
 * one least summary per gap before it; with `keeps`, also the newest keepRecentTokens and every
 * earlier summary as they were.
 */
export function shrinkToFloor(context: readonly Message[], window: number, keeps: FloorKeeps = {}): Message[] {
  const cutoff = keptFrom(context, window, keeps.keepRecentTokens ?? 0);
  const out: Message[] = [];
  let gap: Message[] = [];
  for (let i = 0; i < cutoff; i++) {
    const m = context[i];
    if (m.role === "user" || m.role === "system" || (keeps.keepSummaries === true && m.role === "summary")) {
      if (gap.length > 0) out.push(leastSummary(gap));
      gap = [];
      out.push(m);
    } else gap.push(m);
  }
  if (gap.length > 0) out.push(leastSummary(gap));
  return [...out, ...context.slice(cutoff)];
}

/** The context with every tool result before the retention window cleared to the default placeholder, as the clearing tier writes it (L13: no model call). */
export function clearAll(context: readonly Message[], window: number): Message[] {
  const cutoff = Math.max(0, context.length - window);
  const template = SETTINGS.clear_placeholder.default;
  return context.map((m, i) =>
    i >= cutoff || m.role !== "tool" || m.clearedFrom !== undefined ? m : clearedMessage(m, template),
  );
}

/**
 * How the ideal compactor spends its calls when due: summarize-only shrinks to the floor at once;
 * with clearing it first clears every tool result before the retention window (no call) and
 * shrinks to the floor (one call) only when that leaves at least `summarizeFrom` of the trigger.
 */
export type FloorPolicy = (
  | { readonly clearing: false }
  | { readonly clearing: true; readonly summarizeFrom: number }
) & { readonly keeps?: FloorKeeps };

/** Replays `session` as replay.ts does (a compaction before each assistant message), with the ideal compactor at `trigger` tokens. */
export function floorReplay(session: Session, trigger: number, policy: FloorPolicy): FloorStats {
  const window = SETTINGS.retention_window.default;
  let context: Message[] = [];
  let tokens = 0;
  const s = { modelCalls: 0, calls: 0, mainInput: 0, summarizerInput: 0, summarizerOutput: 0 };
  const anthropic = new CacheMeter("anthropic");
  const openai = new CacheMeter("openai");
  for (const m of session.messages) {
    if (m.role === "assistant") {
      const before = context;
      // due before clearing (L1); clearing may then leave it under the trigger
      const due = tokens >= trigger;
      if (due && policy.clearing) {
        context = clearAll(context, window);
        tokens = contextTokens(context);
      }
      if (due && (!policy.clearing || tokens >= policy.summarizeFrom * trigger)) {
        const was = new Set(context);
        const cleared = tokens;
        context = shrinkToFloor(context, window, policy.keeps);
        tokens = contextTokens(context);
        const written = contextTokens(context.filter((x) => !was.has(x)));
        s.summarizerOutput += written;
        s.summarizerInput += cleared - (tokens - written);
        s.calls++;
      }
      s.modelCalls++;
      s.mainInput += tokens;
      anthropic.send(context, markBefore(before, context));
      openai.send(context);
    }
    context = [...context, m];
    tokens += contextTokens([m]);
  }
  return { ...s, ...billed(anthropic, openai) };
}
