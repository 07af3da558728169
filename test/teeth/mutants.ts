// Deliberately broken kernel functions. The teeth test applies each mutation to a copy of
// the kernel, runs the translator and Dafny on the copy, and requires a verification
// error (Dafny exit code 4) -- a rejection by the prover, not by the parser or resolver.

/** One deliberate bug: replace `find` (which must occur exactly once) by `replace`. */
export interface Mutant {
  /** kernel module file name under src/kernel */
  module: string;
  /** the law the mutant breaks, e.g. "L7" */
  law: string;
  find: string;
  replace: string;
  /** what the mutation breaks, in plain words */
  why: string;
}

/** Every mutant the prover must reject; each law that is a decision has at least one. */
export const mutants: Mutant[] = [
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `if (i >= start && roles[i] !== "tool" && openUntil < i) {`,
    replace: `if (i >= start) {`,
    why: "every index becomes a cut point, tool results included",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `if (i >= start && roles[i] !== "tool" && openUntil < i) {`,
    replace: `if (i >= start && roles[i] !== "tool") {`,
    why: "a cut may fall between a tool call and its result, orphaning the kept result",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `if (roles[i] === "user") return i;`,
    replace: `if (roles[i] === "assistant") return i;`,
    why: "the reported turn start is not a user message",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `//@ use SumRangeAntitone(tokens, chosen, i, end)
    cut = chosen;`,
    replace: `//@ use SumRangeAntitone(tokens, chosen, i, end)
    cut = points[points.length - 1];`,
    why: "the cut moves past the budget index, so the kept suffix may hold fewer than keepRecentTokens",
  },
  {
    module: "compressible.ts",
    law: "L2",
    find: ` || r === "summary";`,
    replace: ` || r === "user";`,
    why: "user messages become compressible, so a compaction could summarize them away",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `tokens >= th.tokenThreshold) return true;`,
    replace: `tokens > th.tokenThreshold) return true;`,
    why: "compaction is not due when the token count exactly reaches the threshold",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `return tokens + reserveTokens > contextWindow;`,
    replace: `return tokens + reserveTokens >= contextWindow;`,
    why: "the context-window form fires one token early",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `if (contextWindow > 0 && isOverContextWindow(tokens, contextWindow, reserveTokens)) return "window";`,
    replace: `if (contextWindow > 0 && isOverContextWindow(tokens, contextWindow, reserveTokens)) return "threshold";`,
    why: "the context-window form is reported as a threshold, so the trigger named is not the one that fired",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `if (hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th)) return "threshold";`,
    replace: `if (hasThreshold(th) && isCompactionDue(tokens, messages, userTurns, th) && contextWindow === 0) return "threshold";`,
    why: "with a context window configured, a reached threshold no longer makes compaction due by itself",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `const after = suffixTokens(tokens, u.end);`,
    replace: `const after = suffixTokens(tokens, 0);`,
    why: "with reported usage, the messages the report covers are counted again on top of it",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `if (end <= u.end) return { reported: u.reported - removed + summaryTokens, end: u.end - (end - start) + 1 };`,
    replace: `if (end <= u.end) return { reported: u.reported - removed, end: u.end - (end - start) + 1 };`,
    why: "after a step inside the reported prefix the summary's tokens are left out, so the judged total falls by more than the step removed",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `if (removed > u.reported) return { reported: 0, end: 0 };`,
    replace: `if (removed >= u.reported) return { reported: 0, end: 0 };`,
    why: "a report that exactly covers the replaced tokens is dropped instead of adjusted",
  },
  {
    module: "config.ts",
    law: "L12",
    find: `return c.maxTokens <= maxTokensLimit();`,
    replace: `return c.maxTokens <= maxTokensLimit() + 1;`,
    why: "max_tokens one above the documented range is accepted",
  },
  {
    module: "config.ts",
    law: "L12",
    find: `  if (!summaryTagOk(c)) return "summaryTag";
  if (!modelOk(c)) return "model";`,
    replace: `  if (!modelOk(c)) return "model";
  if (!summaryTagOk(c)) return "summaryTag";`,
    why: "the reported field is not the first invalid one",
  },
  {
    module: "retention.ts",
    law: "L3",
    find: `return n - window;`,
    replace: `return n - window + 1;`,
    why: "the cutoff moves into the retention window, so the oldest retained message could be summarized",
  },
  {
    module: "stretch.ts",
    law: "L5",
    find: `if (need < k && work) best = k;`,
    replace: `if (need <= k && work) best = k;`,
    why: "the stretch may end right before a call's last answer, orphaning the kept result",
  },
  {
    module: "stretch.ts",
    law: "L5",
    find: `return isCompressible(roles[j]) && !ongoing[j] && `,
    replace: `return isCompressible(roles[j]) && `,
    why: "an ongoing tool call (no result yet) may be summarized",
  },
  {
    module: "stretch.ts",
    law: "L4",
    find: `    s = s + 1;
  }
  return { found: false, start: 0, end: 0 };`,
    replace: `    s = s + 2;
  }
  return { found: false, start: 0, end: 0 };`,
    why: "the search skips start positions, so the stretch chosen may not be the earliest",
  },
  {
    module: "stretch.ts",
    law: "L4",
    find: `let s = from;`,
    replace: `let s = 0;`,
    why: "selection from a position may return a stretch that starts before it (a stretch the engine already gave up on)",
  },
  {
    module: "stretch.ts",
    law: "L4",
    find: `|| lastAnswer[s + 1] >= k)) {`,
    replace: `|| lastAnswer[s + 1] > s + 1)) {`,
    why: "after a failed start, every later start holding a tool call is skipped, even one whose answers come before the scan stopped, so the earliest stretch may be missed",
  },
  {
    module: "keeprecent.ts",
    law: "L7",
    find: `if (need < k && work && rest >= keepRecentTokens) best = k;`,
    replace: `if (need < k && work) best = k;`,
    why: "the stretch is not shortened for the budget, so the kept suffix may hold fewer than keep_recent_tokens",
  },
  {
    module: "keeprecent.ts",
    law: "L4",
    find: `next = sel.start + 1;`,
    replace: `next = sel.end;`,
    why: "after a start that cannot keep the budget, later starts inside its stretch are skipped, so the choice may not be the earliest",
  },
  {
    module: "splice.ts",
    law: "L6",
    find: `let j = end;`,
    replace: `let j = end + 1;`,
    why: "the message right after the stretch is dropped",
  },
  {
    module: "splice.ts",
    law: "L6",
    find: `splice(roles, start, end, "summary")`,
    replace: `splice(roles, start, end, "assistant")`,
    why: "the replacement is not marked as a summary",
  },
  {
    module: "progress.ts",
    law: "L8",
    find: `if (summaryTokens >= replacedTokens) return false;`,
    replace: `if (summaryTokens > replacedTokens) return false;`,
    why: "a summary as long as what it replaces is accepted (no progress)",
  },
  {
    module: "progress.ts",
    law: "L8",
    find: `if (!acceptSummary(pr.summaryTokens, replaced, maxTokens)) break;`,
    replace: `if (pr.summaryTokens > maxTokens) break;`,
    why: "summaries are not required to be shorter, so repeated compaction need not terminate",
  },
  {
    module: "commit.ts",
    law: "L9",
    find: `if (now.onlyAppends && now.length >= plan.length) return "rebase";`,
    replace: `if (now.length >= plan.length) return "rebase";`,
    why: "a plan is applied although the conversation was edited since (lost update)",
  },
  {
    module: "watermark.ts",
    law: "L10",
    find: `if (proposed <= newestUserIndex) return proposed;`,
    replace: `if (proposed <= newestUserIndex + 1) return proposed;`,
    why: "the watermark may pass the newest user message",
  },
  {
    module: "truncate.ts",
    law: "L11",
    find: `const next = k === 0 ? lineBytes[0] : bytes + 1 + lineBytes[k];`,
    replace: `const next = k === 0 ? lineBytes[0] : bytes + lineBytes[k];`,
    why: "newline separators are not counted, so the kept head can exceed the byte budget",
  },
  {
    module: "truncate.ts",
    law: "L11",
    find: `while (k < n && k < maxLines) {`,
    replace: `while (k < n && k <= maxLines) {`,
    why: "the kept tail can exceed the line budget by one",
  },
  {
    module: "commit.ts",
    law: "L9",
    find: `length: now.length, onlyAppends: false };`,
    replace: `length: now.length, onlyAppends: true };`,
    why: "a committed compaction is recorded as an append, so a second plan from the same version could still be applied (overlap)",
  },
  {
    module: "compaction.ts",
    law: "L2",
    find: `const out = spliceRoles(roles, st.start, st.end, window);`,
    replace: `const out = spliceRoles(roles, st.start, st.end + 1, window);`,
    why: "the splice swallows the message after the stretch, which may be a user message or retained",
  },
  // Specification strength: each mutant below satisfied the weaker ensures that came before it
  // (it verified) and picks a different result than the one the engine relies on.
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `if (points[k] <= i) chosen = points[k];`,
    replace: `if (points[k] <= i && chosen === -1) chosen = points[k];`,
    why: "the cut is the earliest valid point that keeps the budget, not the latest, so more is summarized than needed",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `if (i >= start && roles[i] !== "tool" && openUntil < i) {`,
    replace: `if (i >= start && roles[i] !== "tool" && openUntil < i && points.length === 0) {`,
    why: "only the first valid cut point is listed, so later valid cuts are never considered",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `if (points.length === 0) {`,
    replace: `if (points.length >= 0) {`,
    why: "no cut is ever found, although a valid cut point exists",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `let cut = points[0];`,
    replace: `let cut = points[points.length - 1];`,
    why: "when the range holds less than the budget, the cut is the latest valid point instead of the earliest, keeping less than it could",
  },
  {
    module: "cutpoint.ts",
    law: "L7",
    find: `return { found: true, firstKept: cut, turnStart, isSplitTurn: turnStart !== -1 };`,
    replace: `return { found: true, firstKept: cut, turnStart, isSplitTurn: false };`,
    why: "a cut inside a user turn is not reported as splitting it",
  },
  {
    module: "watermark.ts",
    law: "L10",
    find: `  return current;
}`,
    replace: `  return proposed;
}`,
    why: "a watermark already past the newest user message moves further instead of staying put",
  },
  {
    module: "commit.ts",
    law: "L9",
    find: `if (first === "reject") return { first: first, second: decideCommit(b, now) };`,
    replace: `if (first === "reject") return { first: first, second: "reject" };`,
    why: "after the first plan is rejected the second is rejected too, although nothing was applied",
  },
  {
    module: "compaction.ts",
    law: "L4",
    find: `if (!st.found) return { changed: false, roles: roles, start: 0, end: 0 };`,
    replace: `if (!st.found || st.start >= 0) return { changed: false, roles: roles, start: 0, end: 0 };`,
    why: "nothing is ever compacted, although an eligible stretch exists",
  },
  {
    module: "lowwater.ts",
    law: "L1",
    find: `if (!dueAtStart) return false;`,
    replace: `if (!dueAtStart) return total > target;`,
    why: "a run that was not due goes on while above the target: compaction starts before it is due",
  },
  {
    module: "lowwater.ts",
    law: "L1",
    find: `while (steps < savings.length && runContinues(due, cur, target)) {`,
    replace: `while (steps < savings.length && runContinues(true, cur, target)) {`,
    why: "a run that is not due takes steps",
  },
  {
    module: "lowwater.ts",
    law: "L8",
    find: `cur = cur - savings[steps];`,
    replace: `cur = cur - savings[steps] + 1;`,
    why: "a step may free nothing, so the total no longer falls by at least one per step",
  },
  {
    module: "lowwater.ts",
    law: "L8",
    find: `while (steps < savings.length && runContinues(due, cur, target)) {`,
    replace: `while (steps < savings.length && runContinues(due, cur, target + 1)) {`,
    why: "a run stops one token above the target although steps are left",
  },
  {
    module: "lowwater.ts",
    law: "L8",
    find: `while (steps < savings.length && runContinues(due, cur, target)) {`,
    replace: `while (steps < savings.length && runContinues(due, cur, target - 1)) {`,
    why: "a run at the target takes another step: more than total - target steps",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `if (size <= floorTokens) return false;`,
    replace: `if (size < floorTokens) return false;`,
    why: "a stretch exactly at the floor is worth a call",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `if (shunStarts[i] === start && shunEnds[i] === end) return false;`,
    replace: `if (shunStarts[i] === start && shunEnds[i] === end && i > 0) return false;`,
    why: "the first recorded unshrinkable stretch is forgotten and paid for again",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `return summaryTokens >= replacedTokens;`,
    replace: `return summaryTokens > replacedTokens;`,
    why: "a summary exactly as long as its stretch does not record the stretch as not shrinkable",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `if (shunEnd <= spliceStart) return { start: shunStart, end: shunEnd };`,
    replace: `if (shunEnd < spliceStart) return { start: shunStart, end: shunEnd };`,
    why: "a record ending where the splice starts is dropped although its stretch is unchanged",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `return { start: shunStart - (spliceEnd - spliceStart - 1), end:`,
    replace: `return { start: shunStart - (spliceEnd - spliceStart), end:`,
    why: "a record after the splice moves one position too far",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `return { start: -1, end: -1 };`,
    replace: `return { start: shunStart, end: shunEnd };`,
    why: "a record the splice touched is kept, so a changed stretch stays shunned",
  },
  {
    module: "batch.ts",
    law: "L5",
    find: `out.push(st.end);`,
    replace: `out.push(st.end + 1);`,
    why: "a planned stretch ends one message late, past its eligible end",
  },
  {
    module: "batch.ts",
    law: "L8",
    find: `const worth = worthACall(tokens, st.start, st.end, floorTokens, shunStarts, shunEnds);`,
    replace: `const worth = worthACall(tokens, st.start, st.end, floorTokens - 1, shunStarts, shunEnds);`,
    why: "a stretch exactly at the floor is planned",
  },
  {
    module: "batch.ts",
    law: "L8",
    find: `const worth = worthACall(tokens, st.start, st.end, floorTokens, shunStarts, shunEnds);`,
    replace: `const worth = worthACall(tokens, st.start, st.end, floorTokens, shunEnds, shunStarts);`,
    why: "records are read the wrong way round, so a stretch recorded as not shrinkable is planned",
  },
  {
    module: "batch.ts",
    law: "L4",
    find: `      from = st.end;`,
    replace: `      from = st.start;`,
    why: "the scan goes on from the planned stretch's start, so the next planned stretch overlaps it",
  },
  {
    module: "batch.ts",
    law: "L8",
    find: `freed = freed + (size - allowance);`,
    replace: `freed = freed + (size - allowance) - 1;`,
    why: "a planned stretch is counted as freeing one token less, so stretches are planned although the ones before them already free the need",
  },
];
