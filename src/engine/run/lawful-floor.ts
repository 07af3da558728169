// The lawful floor: the tokens the laws keep whatever a run does. User and system messages (L2),
// the retention window (L3) widened to the keep-recent tail (L7), and summaries that cannot
// shrink: known not to (the memory, the summaries' markers), at or under age_floor_tokens, or
// never aged (aging off). A trigger at or under it is reached again at every call; the kernel's
// floorAllowsRun decides whether a due run starts there, and the reason says why it did not,
// with the figures and the setting to change.
import type { Config } from "../../model/config.ts";
import type { Message } from "../../model/message.ts";
import { gateFloorAllowsRun, gateRetentionCutoff, gateWorthACall } from "../boundary/kernel-gate.ts";
import { plainArray } from "../store/gap-array.ts";
import type { StoreView } from "../store/store.ts";
import type { CallFloor } from "./plan.ts";
import type { LawfulFloorReport } from "./report.ts";

/** The lawful floor of a conversation, by what holds it (the report's shape less the trigger). */
export type LawfulFloor = Omit<LawfulFloorReport, "trigger">;

/**
 * The lawful floor of `snap`: `window` is the window the run plans under (the retention window in
 * these messages, widened by keep_recent_tokens), `shun` the stretches known not to shrink, and
 * `ages` whether the run ages summaries at all (age_percent > 0 and batches).
 */
export function lawfulFloorOf(snap: StoreView, c: Config, window: number, shun: CallFloor, ages: boolean): LawfulFloor {
  const roles = snap.views.roles;
  const tokens = plainArray(snap.tokens);
  const cutoff = gateRetentionCutoff(roles.length, window);
  let userSystem = 0;
  let kept = 0;
  let summaries = 0;
  for (let i = 0; i < roles.length; i++) {
    const r = roles[i];
    if (i >= cutoff) kept += tokens[i];
    else if (r === "user" || r === "system" || r === "compaction") userSystem += tokens[i];
    else if (
      r === "summary" &&
      (!ages || !gateWorthACall(tokens, i, i + 1, c.age_floor_tokens, shun.shun.starts, shun.shun.ends))
    )
      summaries += tokens[i];
  }
  return { userSystem, kept, summaries, total: userSystem + kept + summaries };
}

/** The token trigger the floor is judged against: token_threshold, else context_window - reserve_tokens (undefined: none). */
export function tokenTrigger(c: Config): number | undefined {
  if (c.token_threshold !== null) return c.token_threshold;
  return c.context_window === null ? undefined : c.context_window - c.reserve_tokens;
}

/**
 * The calls since the last run that changed something: the assistant messages after the newest
 * summary, less those its marker says were there when that run ended (`after`); undefined when
 * there is no summary (no run has summarized this conversation yet).
 */
export function callsSinceSummary(messages: readonly Message[], roles: readonly string[]): number | undefined {
  let calls = 0;
  for (let i = roles.length - 1; i >= 0; i--) {
    if (roles[i] === "summary") {
      const m = messages[i];
      const before = m.role === "summary" ? (m.marker?.after ?? 0) : 0;
      return Math.max(0, calls - before);
    }
    if (roles[i] === "assistant") calls++;
  }
  return undefined;
}

/**
 * Why a due run does not start (`since`: callsSinceSummary), by the kernel's floorAllowsRun: the trigger at or under the lawful
 * floor, and too little above it to free or too few calls since the last run; undefined to go on.
 */
export function floorRefusal(
  c: Config,
  floor: LawfulFloor,
  total: number,
  since: number | undefined,
): string | undefined {
  const trigger = tokenTrigger(c);
  if (trigger === undefined) return undefined;
  // no summary yet: no earlier run to space this one from
  const calls = since ?? c.floor_run_every;
  if (gateFloorAllowsRun(trigger, floor.total, total, c.floor_free_tokens, calls, c.floor_run_every)) return undefined;
  const setting = c.token_threshold !== null ? "token_threshold" : "context_window";
  const why =
    total - floor.total < c.floor_free_tokens
      ? `${total - floor.total} tokens lie above it, under floor_free_tokens (${c.floor_free_tokens})`
      : `${calls} calls since the last run, under floor_run_every (${c.floor_run_every})`;
  return `the trigger is below what compaction can reach: the trigger (${trigger} tokens) is at or under the lawful floor of ${floor.total} tokens (user and system messages ${floor.userSystem}, retention window and kept tail ${floor.kept}, summaries that cannot shrink ${floor.summaries}); not run: ${why}; raise ${setting} above ${floor.total} tokens`;
}
