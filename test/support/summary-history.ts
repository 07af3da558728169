// A history made of old summaries between user messages, for the tests of aging and of the
// memory of summaries that cannot shrink.
import { type Message, summaryMessage } from "../../src/model/message.ts";

/** A summary text of about `tokens` tokens (chars / 4) that names `fact`. */
export const summaryText = (fact: string, tokens: number) =>
  `${fact} ${"x".repeat(Math.max(0, tokens * 4 - fact.length - 12))}`;

/** 20 turns: a user message, then an earlier summary of ~400 tokens; then a recent tail. */
export function summaryHistory(): Message[] {
  const out: Message[] = [{ role: "system", content: "You are a coding agent." }];
  for (let t = 0; t < 20; t++) {
    out.push({ role: "user", content: `step ${t}: go on` });
    out.push(summaryMessage(summaryText(`turn${t}`, 400)));
  }
  out.push({ role: "user", content: "last question" });
  out.push({ role: "assistant", content: "last answer", toolCalls: [] });
  return out;
}
