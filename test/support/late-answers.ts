// Random well-formed conversations where tool results may come late (after other messages)
// and some calls stay unanswered: the shapes that exercise selection from a position and the
// store's incrementally kept views.
import fc from "fast-check";
import type { Message } from "../../src/model/message.ts";

/** One generated step: a user message, a plain reply, a summary, or a reply with calls answered `delay` steps later. */
export type Step = "user" | "text" | "summary" | { calls: number; delay: number };

/** Arbitrary steps for buildLateAnswers. */
export const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<"user">("user"),
  fc.constant<"text">("text"),
  fc.constant<"summary">("summary"),
  fc.record({ calls: fc.integer({ min: 1, max: 3 }), delay: fc.integer({ min: 0, max: 3 }) }),
);

/** The messages of a list of steps; plain replies grow in length so token counts differ. */
export function buildLateAnswers(steps: readonly Step[]): Message[] {
  const out: Message[] = [];
  const pending: { id: string; due: number }[] = [];
  let id = 0;
  steps.forEach((s, k) => {
    if (s === "user") out.push({ role: "user", content: "u" });
    else if (s === "text") out.push({ role: "assistant", content: "a".repeat(k + 1), toolCalls: [] });
    else if (s === "summary") out.push({ role: "summary", content: "s" });
    else {
      const ids = Array.from({ length: s.calls }, () => `c${id++}`);
      out.push({ role: "assistant", content: "", toolCalls: ids.map((i) => ({ id: i, name: "f", arguments: "{}" })) });
      for (const i of ids) pending.push({ id: i, due: k + s.delay });
    }
    for (const p of pending.filter((q) => q.due <= k)) out.push({ role: "tool", toolCallId: p.id, content: "r" });
    pending.splice(0, pending.length, ...pending.filter((q) => q.due > k));
  });
  return out;
}
