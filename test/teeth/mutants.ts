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
    find: `//@ use SumTokensAntitone(tokens, chosen, i, end)
    cut = chosen;`,
    replace: `//@ use SumTokensAntitone(tokens, chosen, i, end)
    cut = points[points.length - 1];`,
    why: "the cut moves past the budget index, so the kept suffix may hold fewer than keepRecentTokens",
  },
  {
    module: "keeprecent.ts",
    law: "L7",
    find: `if (acc >= keepRecentTokens) return c;`,
    replace: `if (acc >= keepRecentTokens) return c + (c < cut ? 1 : 0);`,
    why: "the keep-recent cutoff of a batch plan moves one message past the budget, so the kept suffix may hold fewer than keep_recent_tokens",
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
    find: `return tokens > contextWindow - reserveTokens;`,
    replace: `return tokens >= contextWindow - reserveTokens;`,
    why: "the context-window form fires one token early",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `  return bytes > maxBytes;`,
    replace: `  return bytes >= maxBytes;`,
    why: "the byte form fires at a request exactly at the budget, one the provider accepts",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `if (maxBytes === 0) return false;`,
    replace: `if (maxBytes === 0) return bytes > 0;`,
    why: "an unset byte budget fires on every request",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `  if (!overByteBudget(bytes, maxBytes)) return "fits";`,
    replace: `  if (bytes <= maxBytes) return "fits";`,
    why: "the byte verdict reads an unset budget (0) as a budget of 0 bytes: every request is over it",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `  if (floorBytes > maxBytes) return "floorOver";`,
    replace: `  if (floorBytes >= maxBytes) return "floorOver";`,
    why: "a byte floor exactly at the budget is called over it: a run that would bring the request under is refused",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `  return "due";
}`,
    replace: `  return "fits";
}`,
    why: "a request over the byte budget whose floor fits is called fitting: it is sent and refused (HTTP 413)",
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
    module: "config.ts",
    law: "L12",
    find: `  if (c.tokenThresholdSet && c.softTokenThreshold >= c.tokenThreshold) return false;
`,
    replace: ``,
    why: "a soft threshold at or above token_threshold is accepted: background mode would start no earlier than a blocking run",
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
    module: "stretch.ts",
    law: "L4",
    find: `  return next;`,
    replace: `  return { found: false, start: 0, end: 0 };`,
    why: "the selection after a splice reports nothing to compact although an eligible stretch remains",
  },
  {
    module: "stretch.ts",
    law: "L4",
    find: `window, prev.start);`,
    replace: `window, prev.start + 1);`,
    why: "the selection after a splice skips the new summary's position, so a stretch starting at the summary is not chosen although it is the earliest",
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
    module: "progress.ts",
    law: "L8",
    find: `if (pr.start < 0 || pr.start >= pr.end || pr.end > cur.length) break;`,
    replace: `if (pr.start < 0 || pr.start >= pr.end || pr.end >= cur.length) break;`,
    why: "a proposal ending at the last message is never accepted (the model rejects proposals it should take)",
  },
  {
    module: "progress.ts",
    law: "L8",
    find: `      accepted = accepted + 1;
    }`,
    replace: `      accepted = accepted + 1;
      break;
    }`,
    why: "the termination model applies each proposal once and moves on although it still applies (its last proposal is left takeable)",
  },
  {
    module: "progress.ts",
    law: "L8",
    find: `while (p < proposals.length) {`,
    replace: `while (p < 1 && p < proposals.length) {`,
    why: "the termination model tries only the first proposal, so a later proposal that applies to the input is never taken",
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
    module: "compaction.ts",
    law: "L4",
    find: `  const st = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, 0);
  if (!st.found) return { changed: false, roles: roles, start: 0, end: 0 };`,
    replace: `  const first = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, 0);
  if (!first.found) return { changed: false, roles: roles, start: 0, end: 0 };
  const later = selectStretchFrom(roles, callOf, lastAnswer, ongoing, window, first.end);
  const st = later.found ? later : first;`,
    why: "when a second eligible stretch follows the earliest one, the step compacts the second: an eligible stretch, but not the earliest",
  },
  {
    module: "progress.ts",
    law: "L8",
    find: `return rejectedInARow >= limit;`,
    replace: `return rejectedInARow > limit;`,
    why: "a run asks once more than max_rejected_summaries after the streak reached it (a bad summarizer costs more than the setting allows)",
  },
  {
    module: "trigger.ts",
    law: "L1",
    find: `if (th.turnThreshold > 0 && userTurns >= th.turnThreshold) return "turns";`,
    replace: `if (th.turnThreshold > 0 && userTurns >= th.turnThreshold) return "messages";`,
    why: "the report says the message threshold fired when the turn threshold did",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `out.push(afterTokens[i] < tokens[i] ? afterBytes[i] : bytes[i]);`,
    replace: `out.push(afterBytes[i]);`,
    why: "in bytes, a placeholder fewer bytes but as many tokens counts as lighter: a byte-goal clearing may clear a result whose tokens do not fall",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `afterTokens[i] < tokens[i] ?`,
    replace: `afterTokens[i] <= tokens[i] ?`,
    why: "in bytes, a placeholder exactly as many tokens as its result counts as lighter",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `if (due === "notDue") {`,
    replace: `if (due === "threshold") {`,
    why: "a clearing run happens although L1 says nothing is due",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `callOf[k] < step &&`,
    replace: `callOf[k] <= step &&`,
    why: "results of the current step (the last assistant message's calls) may be cleared, so the model re-runs the tool",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `k < limit &&`,
    replace: `k <= limit &&`,
    why: "the newest result before the kept tail or the retention window may be cleared",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `const limit = Math.min(retentionCutoff(n, window), cut);`,
    replace: `const limit = cut;`,
    why: "the retention window is ignored, so a result inside it may be cleared",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `if (count === keep) {`,
    replace: `if (count === keep + 1) {`,
    why: "one tool use fewer than keep is kept",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `if (freed < clearAtLeast) {`,
    replace: `if (freed < clearAtLeast - 1) {`,
    why: "a run may free fewer than clear_at_least tokens, invalidating the cache for too little",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `const take = freed < goal &&`,
    replace: `const take = freed <= goal &&`,
    why: "clearing goes on after the goal is reached",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `const x = mask[i] ? after[i] : tokens[i];`,
    replace: `const x = mask[i] && i > 0 ? after[i] : tokens[i];`,
    why: "the first cleared message keeps its old count, so the total does not fall by what was freed",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `out.push(mask[i] ? replaced[i] : xs[i]);`,
    replace: `out.push(mask[i] || i === 0 ? replaced[i] : xs[i]);`,
    why: "clearing changes a message it did not select (the first one)",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `if (!clearInputs) return none;`,
    replace: `if (clearInputs && !clearInputs) return none;`,
    why: "call arguments are cleared although clear_inputs is off",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `out[callOf[i]] = true;`,
    replace: `out[i] = true;`,
    why: "clear_inputs marks the result instead of its call",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `return c - 1;`,
    replace: `return c;`,
    why: "the current step is taken one message too late",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `    !excluded[k] &&
    !cleared[k] &&
    after[k] < tokens[k]
  );
}

//@ spec
//@ requires 0 <= b`,
    replace: `    !excluded[k] &&
    after[k] < tokens[k]
  );
}

//@ spec
//@ requires 0 <= b`,
    why: "a result already cleared may be cleared again",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `    !excluded[k] &&
    !cleared[k] &&
    after[k] < tokens[k]
  );
}

//@ spec
//@ requires 0 <= b`,
    replace: `    !excluded[k] &&
    !cleared[k] &&
    after[k] <= tokens[k]
  );
}

//@ spec
//@ requires 0 <= b`,
    why: "a placeholder as long as the result may replace it, so clearing need not lower the count",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `const take = freed < goal && clearableAt(roles, callOf, ongoing, cleared, excluded, tokens, after, limit, step, i);
    //@ assert take <==> (freed < goal && mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, i))`,
    replace: `const take = freed < goal && i > 0 && clearableAt(roles, callOf, ongoing, cleared, excluded, tokens, after, limit, step, i);
    //@ assert take <==> (freed < goal && i > 0 && mayClear(roles, callOf, ongoing, cleared, excluded, tokens, after, window, keep, i))`,
    why: "the oldest result is skipped although it may be cleared and the goal is not reached (not oldest first)",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `if (freed < clearAtLeast) {`,
    replace: `if (freed < clearAtLeast || n >= 0) {`,
    why: "clearing always clears nothing, although the oldest-first scan frees clear_at_least (the lower bound greedyFreed pins)",
  },
  {
    module: "logcommit.ts",
    law: "L9",
    find: `if (rewrites[k]) return false;`,
    replace: `if (rewrites[k] && k > since) return false;`,
    why: "a compaction written right at the plan's version counts as an append, so a stale plan rebases over it",
  },
  {
    module: "logcommit.ts",
    law: "L9",
    find: `const appendsOnly = onlyAppendsSince(tail, 0);`,
    replace: `const appendsOnly = onlyAppendsSince(tail, tail.length);`,
    why: "the log's tail is never read, so a plan rebases over a compaction committed meanwhile",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `if (freed >= need) return false;`,
    replace: `if (freed > need) return false;`,
    why: "summaries are aged although the work stretches already free what the run needs",
  },
  {
    module: "aging.ts",
    law: "L2",
    find: `return (summaryTokens + planned - freed) * 100 >= sharePercent * (totalTokens - freed);`,
    replace: `return summaryTokens * 100 >= sharePercent * (totalTokens - freed);`,
    why: "the share leaves out the planned stretches' own summaries, so aging is judged on a context with fewer summaries than the batch leaves",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `return Math.floor((size * percent) / 100);`,
    replace: `return size;`,
    why: "an aged summary's budget is its own size, so its summary cannot be strictly shorter",
  },
  {
    module: "aging.ts",
    law: "L2",
    find: `if (roles[j] === "summary" && !inside) {`,
    replace: `if (roles[j] !== "user" && !inside) {`,
    why: "a message that is not a summary (a system message, an assistant reply) is aged",
  },
  {
    module: "aging.ts",
    law: "L6",
    find: `if (roles[j] === "summary" && !inside) {`,
    replace: `if (roles[j] === "summary") {`,
    why: "a summary inside a planned work stretch is aged too: the batch's stretches overlap",
  },
  {
    module: "aging.ts",
    law: "L3",
    find: `while (j < cutoff && freed < need) {`,
    replace: `while (j < roles.length && freed < need) {`,
    why: "a summary in the retention window is aged",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `  let freed = 0;
  let j = 0;`,
    replace: `  let freed = -1;
  let j = 0;`,
    why: "the aged count starts one token short, so one summary more is aged once the aged ones already free the need",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `while (j < cutoff && freed < need) {`,
    replace: `while (j < cutoff && freed + 1 < need) {`,
    why: "aging stops one token short of the need while agable summaries are left",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `const worth = worthACall(tokens, j, j + 1, floorTokens, shunStarts, shunEnds);`,
    replace: `const worth = worthACall(tokens, j, j + 1, floorTokens - 1, shunStarts, shunEnds);`,
    why: "a summary exactly at the floor is aged",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `if (worth && facts[j] < budget) {`,
    replace: `if (worth) {`,
    why: "a summary whose facts fill its aged budget is aged: no answer can keep them, so every one is rejected",
  },
  {
    module: "aging.ts",
    law: "L8",
    find: `if (worth && facts[j] < budget) {`,
    replace: `if (worth && facts[j] <= budget) {`,
    why: "a summary whose facts take exactly its aged budget is aged, with no room left for anything else",
  },
  {
    module: "aging.ts",
    law: "L6",
    find: `if (plan[2 * k] <= j && j < plan[2 * k + 1]) return true;`,
    replace: `if (plan[2 * k] < j && j < plan[2 * k + 1]) return true;`,
    why: "the first message of a planned stretch counts as outside it",
  },
  {
    module: "aging.ts",
    law: "L6",
    find: `const inside = 2 * p + 1 < plan.length && plan[2 * p] <= j;`,
    replace: `const inside = 2 * p + 1 < plan.length && plan[2 * p] < j;`,
    why: "planAging's walk reads the first message of a planned stretch as outside it, so a summary there is aged too",
  },
  {
    module: "aging.ts",
    law: "L6",
    find: `while (2 * p + 1 < plan.length && plan[2 * p + 1] <= j) {`,
    replace: `while (2 * p + 1 < plan.length && plan[2 * p + 1] <= j + 1) {`,
    why: "planAging's walk passes a planned stretch whose last message is j, so a summary there is aged too",
  },
  {
    module: "budget.ts",
    law: "L8",
    find: `return Math.min(maxTokens, Math.max(least, share));`,
    replace: `return Math.max(least, share);`,
    why: "a stretch's stated budget is not capped by max_tokens, so it asks for summaries validation rejects",
  },
  {
    module: "budget.ts",
    law: "L8",
    find: `return Math.min(maxTokens, Math.max(least, share));`,
    replace: `return Math.min(maxTokens, share);`,
    why: "a short stretch's budget falls under the facts plus the floor, with no room for the facts its summary must hold",
  },
  {
    module: "budget.ts",
    law: "L8",
    find: `const least = factTokens + floorTokens;`,
    replace: `const least = floorTokens;`,
    why: "a short stretch's budget leaves its facts out: the floor alone, which facts longer than it do not fit in",
  },
  {
    module: "budget.ts",
    law: "L8",
    find: `const least = factTokens + floorTokens;`,
    replace: `const least = factTokens > floorTokens ? factTokens : floorTokens;`,
    why: "a short stretch's budget holds its facts or the floor, not both: no room beyond the facts",
  },
  {
    module: "budget.ts",
    law: "L8",
    find: `if (percent === 0) return maxTokens;`,
    replace: `if (percent === 0) return floorTokens < maxTokens ? floorTokens : maxTokens;`,
    why: "percent 0 (off) states the floor instead of max_tokens, so the budget cannot be switched off",
  },
  {
    module: "budget.ts",
    law: "L8",
    find: `const share = Math.floor((size * percent) / 100);`,
    replace: `const share = Math.floor((size * percent) / 100) + 1;`,
    why: "a stretch's budget is one token over its share",
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
    find: `if (dueAfterClearing) return dueAtStart;`,
    replace: `if (dueAfterClearing) return true;`,
    why: "a run that was not due when it started summarizes when due after clearing (L1 judges the run's start)",
  },
  {
    module: "lowwater.ts",
    law: "L1",
    find: `return runContinues(dueAtStart, total, target);`,
    replace: `return dueAtStart;`,
    why: "a run that clearing brought to or under its target summarizes on: a call no rule asks for",
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
    module: "lowwater.ts",
    law: "L8",
    find: `if (freed < freeAtLeast) return false;`,
    replace: `if (freed < freeAtLeast - 1) return false;`,
    why: "a batch that leaves the count over the trigger re-writes the cache for less than floor_free_tokens (at 1, for nothing at all)",
  },
  {
    module: "lowwater.ts",
    law: "L1",
    find: `return callsSince >= every;`,
    replace: `return callsSince + 1 >= every;`,
    why: "a batch that leaves the count over the trigger goes one call early: more than one such run per floor_run_every calls",
  },
  {
    module: "lowwater.ts",
    law: "L13",
    find: `  return judged >= hardTrigger;`,
    replace: `  return judged > hardTrigger;`,
    why: "a clearing that alone is due (the request exactly at its trigger) is deferred: the request goes out over the trigger",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `if (total - lawfulFloor < freeAtLeast) return false;`,
    replace: `if (total - lawfulFloor < freeAtLeast - 1) return false;`,
    why: "a run under the lawful floor starts with less than floor_free_tokens to free (at 1, nothing at all)",
  },
  {
    module: "floor.ts",
    law: "L1",
    find: `return callsSince >= every;`,
    replace: `return callsSince + 1 >= every;`,
    why: "under the lawful floor a run starts one call early: more than one run per floor_run_every calls",
  },
  {
    module: "floor.ts",
    law: "L8",
    find: `return size <= floorAt;`,
    replace: `return size < floorAt;`,
    why: "a summary exactly at the size its marker records as not shrinking is asked for again (a repeated hopeless call)",
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
    find: `freed = freed + (size - allowance - Math.floor((size * keepPercent) / 100));
      from = st.end;`,
    replace: `freed = freed + (size - allowance - Math.floor((size * keepPercent) / 100));
      from = st.start;`,
    why: "the scan goes on from the planned stretch's start, so the next planned stretch overlaps it",
  },
  {
    module: "batch.ts",
    law: "L8",
    find: `freed = freed + (size - allowance - Math.floor((size * keepPercent) / 100));
      from = st.end;`,
    replace: `freed = freed + (size - allowance);
      from = st.end;`,
    why: "the plan forgets the share of a stretch its summary keeps, so it stops before its stretches are expected to free the need",
  },
  {
    module: "batch.ts",
    law: "L8",
    find: `let from = 0;
  let freed = 0;`,
    replace: `let from = 0;
  let freed = -1;`,
    why: "the freed count starts one token short, so a stretch is planned although the ones before it already free the need",
  },
  {
    module: "batch.ts",
    law: "L4",
    find: `if (worth) {`,
    replace: `if (worth && from < 0) {`,
    why: "the plan is always empty, although stretches worth a call are left and the need is not met (the lower bound NoneWorthFrom pins)",
  },
  {
    module: "batch.ts",
    law: "L4",
    find: `while (freed < need && from < roles.length) {`,
    replace: `while (freed < need && from < roles.length && out.length < 2) {`,
    why: "the plan stops after its first stretch although the need is not met and stretches worth a call are left",
  },
  {
    module: "batch.ts",
    law: "L8",
    find: `let freed = 0;
  let k = 0;`,
    replace: `let freed = 1;
  let k = 0;`,
    why: "planFreed counts one token the plan does not free, so the engine's aging sees a plan nearer its need than it is",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `  if (n > 0) {
    out.push(start);
    out.push(n);
  }`,
    replace: `  if (n > 0) {
    out.push(n);
  }`,
    why: "the last call is pushed as its end alone, so the plan is no longer [start, end) pairs",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `  if (n > 0) {`,
    replace: `  if (n > 1) {`,
    why: "a batch of one part plans no call, so its stretch is never summarized",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `  let start = 0;
  let i = 0;`,
    replace: `  let start = n > 1 ? 1 : 0;
  let i = start;`,
    why: "the plan starts at the second part, so the first stretch of the batch is never sent",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `      out.push(start);
      out.push(i);
      start = i;`,
    replace: `      out.push(start);
      out.push(start);
      start = i;`,
    why: "a call is closed as [start, start): an empty call, and its parts are asked in none",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `      out.push(start);
      out.push(i);
      start = i;`,
    replace: `      out.push(start);
      out.push(i - 1 > start ? i - 1 : i);
      start = i;`,
    why: "a call closes one part early while the next starts after it, so a part between them is in no call",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `if (i > start && !fits) {`,
    replace: `if (i > start + 1 && !fits) {`,
    why: "a second part joins a call although the two do not fit, so a request of two parts exceeds the window or the output cap",
  },
  {
    module: "callplan.ts",
    law: "calls",
    find: `if (i > start && !fits) {`,
    replace: `if (i > start && (!fits || outNext >= outputCap)) {`,
    why: "a call closes when its answers reach the output cap exactly, although the next part fits: not greedy, more calls than needed",
  },
  {
    module: "ledger.ts",
    law: "L5",
    find: `while (p < roles.length && roles[p] === "tool") {`,
    replace: `while (p < roles.length && roles[p] === "tool" && p < want) {`,
    why: "the ledger's slot may be a tool result, so the ledger stands between a call and its result",
  },
  {
    module: "ledger.ts",
    law: "L5",
    find: `  return p;
}`,
    replace: `  return p < roles.length ? p + 1 : p;
}`,
    why: "the slot skips a message that is not a tool result, past the place the engine wanted",
  },
  {
    module: "ledger.ts",
    law: "L5",
    find: `  let p = want;`,
    replace: `  let p = want > 0 ? want - 1 : want;`,
    why: "the slot may fall before the place the engine wanted",
  },
  {
    module: "ledger.ts",
    law: "L14",
    find: `  if (count <= cap) return count;
  return cap;`,
    replace: `  if (count <= cap) return count;
  return cap + 1;`,
    why: "a ledger list over its cap keeps one entry more than the cap, so the ledger grows past its settings",
  },
  {
    module: "ledger.ts",
    law: "L14",
    find: `  if (count <= cap) return count;
  return cap;`,
    replace: `  if (count <= cap) return count - (count > 0 ? 1 : 0);
  return cap;`,
    why: "a list under its cap drops an entry it has room for (neither all of it nor the cap)",
  },
  {
    module: "ledger.ts",
    law: "L14",
    find: `  if (clearedBefore) return "skip";`,
    replace: `  if (clearedBefore && !unchanged) return "skip";`,
    why: "a cleared result's placeholder kept in the context counts as a success of its command and closes its open errors",
  },
  {
    module: "ledger.ts",
    law: "L14",
    find: `  if (unchanged) return "close";
  return "enter";`,
    replace: `  return "enter";`,
    why: "a step kept as read enters the ledger as if the run had replaced it",
  },
  {
    module: "ledger.ts",
    law: "L14",
    find: `  if (unchanged) return "close";
  return "enter";`,
    replace: `  return "close";`,
    why: "a step the run replaced never enters the ledger, so what it showed is lost",
  },
  {
    module: "compressible.ts",
    law: "L2",
    find: `return r === "assistant" || r === "tool" || r === "summary";`,
    replace: `return r === "assistant" || r === "tool" || r === "summary" || r === "compaction";`,
    why: "a provider's server-side compaction item becomes compressible, so a compaction could summarize it away",
  },
  {
    module: "stretch.ts",
    law: "L2",
    find: `return isCompressible(roles[j]) && !ongoing[j] && `,
    replace: `return (isCompressible(roles[j]) || roles[j] === "compaction") && !ongoing[j] && `,
    why: "a stretch may include a provider's server-side compaction item",
  },
  {
    module: "splice.ts",
    law: "L2",
    find: `const out = splice(roles, start, end, "summary");`,
    replace: `const out = splice(roles, start > 0 && roles[start - 1] === "compaction" ? start - 1 : start, end, "summary");`,
    why: "the splice overwrites the server-side compaction item right before the stretch",
  },
  {
    module: "clearing.ts",
    law: "L13",
    find: `    out.push(take);
    if (take)`,
    replace: `    out.push(take || roles[i] === "compaction");
    if (take)`,
    why: "the clearing tier marks a provider's server-side compaction item as cleared",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `  const n = roles.length;
  const out: boolean[] = [];`,
    replace: `  const n = roles.length > 0 ? roles.length - 1 : 0;
  const out: boolean[] = [];`,
    why: "the pinned view is one message short of the conversation",
  },
  {
    module: "pin.ts",
    law: "L5",
    find: `out.push(ongoing[i] || (pinned[i] && roles[i] === "assistant"));`,
    replace: `out.push(ongoing[i] || (pinned[i] && roles[i] !== "assistant"));`,
    why: "a pinned tool result or user message is held like a call: the pinned view is no longer a well-formed pairing view",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `out.push(ongoing[i] || (pinned[i] && roles[i] === "assistant"));`,
    replace: `out.push(pinned[i] && roles[i] === "assistant");`,
    why: "a call still waiting for its result is no longer held once pins apply",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `out.push(ongoing[i] || (pinned[i] && roles[i] === "assistant"));`,
    replace: `out.push(ongoing[i]);`,
    why: "a pinned assistant message is not held: a stretch may summarize it",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `if (pinned[k] && roles[k] === "tool") {`,
    replace: `if (pinned[k] && roles[k] === "tool" && k + 1 < n) {`,
    why: "the last message's pin, a tool result, does not hold its call: the result may be summarized or cleared",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `if (pinned[k] && roles[k] === "tool") {`,
    replace: `if (roles[k] === "tool") {`,
    why: "the calls of results nobody pinned are held too: nothing may be summarized or cleared that the pins do not ask for",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `const st = selectStretch(roles, callOf, lastAnswer, held, window);`,
    replace: `const st = selectStretch(roles, callOf, lastAnswer, ongoing, window);`,
    why: "the stretch is chosen without the pins, so it may summarize a pinned message",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `    callOf,
    held,
    cleared,`,
    replace: `    callOf,
    ongoing,
    cleared,`,
    why: "the clearing is chosen without the pins, so it may clear a pinned tool result",
  },
  {
    module: "pin.ts",
    law: "L15",
    find: `  return mask;
}`,
    replace: `  return mask.slice(1);
}`,
    why: "the clearing mask is one message short, so the engine would read past it",
  },
];
