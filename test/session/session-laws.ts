// The laws checked on a session from its public API alone, commit by commit: the full history,
// the compaction records and the clearing and restore records are replayed here (independently
// of src/session/replay.ts), and after every compaction: the stretch held no user or system
// message (L2), kept tool calls and results together (L5) and left a well-formed context, the
// step lowered the tokens (L8), the watermark did not move back (L10); after every clearing:
// only tool results' contents changed, to a placeholder, and (clear_inputs) the named calls'
// arguments, to {}, and the tokens dropped (L13); a restore gives back the original result and
// call arguments; at the end the session's own context is this replay's, call arguments included.
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import { assertWellFormed } from "../../src/engine/boundary/wellformed.ts";
import { itemMapOf } from "../../src/engine/run/item-map.ts";
import type { Message } from "../../src/model/message.ts";
import type { ClearingRecord, CompactionRecord, RestoreRecord } from "../../src/session/record.ts";
import type { Session } from "../../src/session/session.ts";

function toolIds(ms: readonly Message[]): { calls: Set<string>; results: string[] } {
  const calls = new Set<string>();
  const results: string[] = [];
  for (const m of ms) {
    if (m.role === "assistant") for (const c of m.toolCalls) calls.add(c.id);
    if (m.role === "tool") results.push(m.toolCallId);
  }
  return { calls, results };
}

/** An assistant message's calls and their arguments, as one comparable text ("" for any other message). */
function callArguments(m: Message): string {
  return m.role === "assistant" ? JSON.stringify(m.toolCalls.map((c) => [c.id, c.arguments])) : "";
}

/** Every law violation found on the session (empty: all hold). */
export async function sessionLawProblems(s: Session): Promise<string[]> {
  const full = await s.history({ full: true });
  type Rec = CompactionRecord | ClearingRecord | RestoreRecord;
  const records: Rec[] = [...(await s.compactions()), ...(await s.clearings())].sort(
    (a, b) => a.committedVersion - b.committedVersion,
  );
  const file = full === "" ? undefined : readConversationFile(full, { format: s.format });
  const all = file?.messages ?? [];
  const originals = new Map<string, Message>();
  for (const m of all) if (m.role === "tool") originals.set(m.toolCallId, m);
  const originalArguments = new Map<string, string>();
  for (const m of all)
    if (m.role === "assistant") for (const c of m.toolCalls) originalArguments.set(c.id, c.arguments);
  /** message `at` with call `id`'s arguments set to `to`, or a problem */
  const withArguments = (at: number, id: string, to: string | undefined, k: number): void => {
    const m = context[at];
    if (m?.role !== "assistant" || to === undefined || !m.toolCalls.some((c) => c.id === id)) {
      problems.push(`record ${k}: ${at} is not the assistant message of ${id}`);
      return;
    }
    context[at] = { ...m, toolCalls: m.toolCalls.map((c) => (c.id === id ? { ...c, arguments: to } : c)) };
  };
  const spans = file === undefined ? [] : (file.items ?? itemMapOf(file.messages)).spans;
  const itemOf = (j: number) => spans[j].last;
  const problems: string[] = [];
  const context: Message[] = [];
  let next = 0;
  let mark = 0;
  for (const [k, r] of records.entries()) {
    while (next < all.length && itemOf(next) < r.items) context.push(all[next++]);
    if ("results" in r) {
      for (const c of r.results) {
        const m = context[c.index];
        if (m?.role !== "tool" || m.toolCallId !== c.toolCallId)
          problems.push(`record ${k}: L13: ${c.index} is not ${c.toolCallId}'s result`);
        else context[c.index] = { ...m, content: c.placeholder };
        if (c.tokensAfter >= c.tokensBefore)
          problems.push(`record ${k}: L13: ${c.toolCallId} ${c.tokensBefore} -> ${c.tokensAfter} tokens`);
      }
      // clear_inputs: only the named calls' arguments change, to {}, each message's tokens drop
      for (const c of r.inputs ?? []) {
        for (const id of c.toolCallIds) withArguments(c.index, id, "{}", k);
        if (c.tokensAfter >= c.tokensBefore)
          problems.push(`record ${k}: L13: the arguments at ${c.index} ${c.tokensBefore} -> ${c.tokensAfter} tokens`);
      }
      if (r.tokensAfter >= r.tokensBefore)
        problems.push(`record ${k}: L13: ${r.tokensBefore} -> ${r.tokensAfter} tokens`);
      continue;
    }
    if ("toolCallId" in r) {
      const original = originals.get(r.toolCallId);
      if (context[r.index]?.role !== "tool" || original === undefined)
        problems.push(`record ${k}: restore of a missing result`);
      else context[r.index] = original;
      if (r.call !== undefined) withArguments(r.call, r.toolCallId, originalArguments.get(r.toolCallId), k);
      continue;
    }
    if (r.end > context.length) {
      problems.push(`record ${k}: stretch ${r.start}..${r.end} outside the ${context.length}-message context`);
      return problems;
    }
    const stretch = context.slice(r.start, r.end);
    if (stretch.some((m) => m.role === "user" || m.role === "system"))
      problems.push(`record ${k}: L2: a user or system message summarized away`);
    const inside = toolIds(stretch);
    for (const id of inside.results)
      if (!inside.calls.has(id)) problems.push(`record ${k}: L5: result ${id} summarized without its call`);
    for (const id of toolIds(context.slice(r.end)).results)
      if (inside.calls.has(id)) problems.push(`record ${k}: L5: call ${id} summarized, its result kept`);
    if (r.tokensAfter >= r.tokensBefore) problems.push(`record ${k}: L8: ${r.tokensBefore} -> ${r.tokensAfter} tokens`);
    if (r.watermark < mark) problems.push(`record ${k}: L10: watermark ${mark} -> ${r.watermark}`);
    mark = r.watermark;
    context.splice(r.start, r.end - r.start, { role: "summary", content: r.summary });
    try {
      assertWellFormed(context);
    } catch (e) {
      problems.push(`record ${k}: the context is not well-formed: ${(e as Error).message}`);
    }
  }
  while (next < all.length) context.push(all[next++]);
  const text = await s.contextText();
  const got = text === "" ? [] : readConversationFile(text, { format: s.format }).messages;
  if (got.length !== context.length) problems.push(`context has ${got.length} messages, the replay ${context.length}`);
  else
    for (let j = 0; j < got.length; j++)
      if (
        context[j].role !== "summary" &&
        (got[j].role !== context[j].role ||
          got[j].content !== context[j].content ||
          callArguments(got[j]) !== callArguments(context[j]))
      )
        problems.push(`context message ${j} differs from the replay`);
  return problems;
}
