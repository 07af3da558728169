// Reference for src/kernel/logcommit.ts: the log's verdict as a filter and a decision table.
import type { CommitDecision, PlanStamp } from "../kernel/commit.ts";

/** Plain reference of onlyAppendsSince. */
export function onlyAppendsSince(rewrites: readonly boolean[], since: number): boolean {
  return !rewrites.slice(since).includes(true);
}

/** Plain reference of decideLogCommit. */
export function decideLogCommit(plan: PlanStamp, tail: readonly boolean[], nowLength: number): CommitDecision {
  if (plan.stretchEnd > plan.length) return "reject";
  if (tail.length === 0) return nowLength === plan.length ? "commit" : "reject";
  if (tail.includes(true)) return "reject";
  return nowLength >= plan.length ? "rebase" : "reject";
}
