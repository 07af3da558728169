// Continuing past a stretch that could not be summarized (say a two-token reply: no summary
// is shorter) must not stop the whole run, and must still let the kernel choose. So the
// kernel is shown the conversation with everything before `from` presented as user messages:
// nothing there is movable, and the kernel's earliest eligible stretch in this view is the
// earliest eligible stretch of the real conversation that starts at or after `from`.
//
// Why the views stay exact for s >= from: a message before `from` becomes a user message
// with no pairing (callOf, lastAnswer -1, not ongoing); a tool result at or after `from`
// whose call lies before `from` becomes a user message too. In the real view that result is
// not movable from any s >= from (its call is before s), and a user message is not movable
// either, so Eligible(s, e) is unchanged for every s >= from; the kernel's Pairing
// precondition still holds (no tool result is left pointing at a masked message).
import type { KernelViews } from "./views.ts";

/** The views with every message before `from` (and every answer to a call before it) masked as a user message. */
export function maskBefore(v: KernelViews, from: number): KernelViews {
  if (from <= 0) return v;
  const roles = v.roles.slice();
  const callOf = v.callOf.slice();
  const lastAnswer = v.lastAnswer.slice();
  const ongoing = v.ongoing.slice();
  for (let j = 0; j < roles.length; j++) {
    const early = j < from;
    const answersEarlyCall = roles[j] === "tool" && callOf[j] >= 0 && callOf[j] < from;
    if (early || answersEarlyCall) {
      roles[j] = "user";
      callOf[j] = -1;
      lastAnswer[j] = -1;
      ongoing[j] = false;
    }
  }
  return { roles, callOf, lastAnswer, ongoing, userTurns: v.userTurns };
}
