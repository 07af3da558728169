// Random well-formed conversations for property tests: user turns, assistant text, assistant tool
// calls answered right away or (at the very end) left ongoing, and earlier summaries.
import fc from "fast-check";
import type { Message } from "../../src/model/message.ts";

/** One step of a generated conversation. */
export type Event = { kind: "user" | "text" | "summary"; size: number } | { kind: "calls"; n: number; size: number };

/** A random Event: a message of `size` characters, or `n` tool calls each answered by a result of `size`. */
export const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("user" as const, "text" as const, "summary" as const),
    size: fc.integer({ min: 1, max: 200 }),
  }),
  fc.record({
    kind: fc.constant("calls" as const),
    n: fc.integer({ min: 1, max: 3 }),
    size: fc.integer({ min: 1, max: 400 }),
  }),
);

/** The conversation of `events` after a system prompt; with `ongoing`, ending in a call still waiting for its result. */
export function buildConversation(events: readonly Event[], ongoing = false): Message[] {
  const out: Message[] = [{ role: "system", content: "sys" }];
  let id = 0;
  for (const e of events) {
    if ("n" in e) {
      const ids = Array.from({ length: e.n }, () => `c${id++}`);
      out.push({
        role: "assistant",
        content: "",
        toolCalls: ids.map((i) => ({ id: i, name: "run", arguments: "{}" })),
      });
      for (const i of ids) out.push({ role: "tool", toolCallId: i, content: `out ${"t".repeat(e.size)}` });
    } else if (e.kind === "user") out.push({ role: "user", content: `ask ${"u".repeat(e.size)}` });
    else if (e.kind === "text") out.push({ role: "assistant", content: `say ${"a".repeat(e.size)}`, toolCalls: [] });
    else out.push({ role: "summary", content: `earlier ${"s".repeat(e.size)}` });
  }
  if (ongoing)
    out.push({ role: "assistant", content: "", toolCalls: [{ id: "pending", name: "run", arguments: "{}" }] });
  return out;
}
