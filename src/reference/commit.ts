// Reference for src/kernel/commit.ts, as a decision table.
import type { CommitDecision, CurrentStamp, PlanStamp } from "../kernel/commit.ts";

/** Plain reference of decideCommit. */
export function decideCommit(plan: PlanStamp, now: CurrentStamp): CommitDecision {
  const planFits = plan.stretchEnd <= plan.length;
  const unchanged = now.version === plan.version && now.length === plan.length;
  const appendedOnly = now.version !== plan.version && now.onlyAppends && now.length >= plan.length;
  if (planFits && unchanged) return "commit";
  if (planFits && appendedOnly) return "rebase";
  return "reject";
}
