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

/** Plain reference of raceTwoPlans: the second plan is judged against the store after the first one. */
export function raceTwoPlans(
  a: PlanStamp,
  b: PlanStamp,
  now: CurrentStamp,
): { first: CommitDecision; second: CommitDecision } {
  const first = decideCommit(a, now);
  const storeAfter: CurrentStamp =
    first === "reject" ? now : { version: now.version + 1, length: now.length, onlyAppends: false };
  return { first, second: decideCommit(b, storeAfter) };
}
