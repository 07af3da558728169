// Deterministic generated agent conversations in the shapes of the official SDK packages,
// typed with their own types: AI SDK `ModelMessage[]` and OpenAI Responses `ResponseInputItem[]`.
import type { ModelMessage } from "ai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { type GenOptions, turns } from "./generate.ts";

/** A generated conversation as AI SDK messages: one tool message per step holding all its results. */
export function modelMessagesConversation(o: GenOptions): ModelMessage[] {
  const msgs: ModelMessage[] = [{ role: "system", content: "You are a coding agent. Work carefully." }];
  const ts = turns(o);
  ts.forEach((t, ti) => {
    msgs.push({ role: "user", content: [{ type: "text", text: t.user }] });
    t.steps.forEach((s, si) => {
      msgs.push({
        role: "assistant",
        content: [
          { type: "reasoning", text: `thinking about step ${si} of turn ${ti}` },
          ...(s.text === "" ? [] : [{ type: "text" as const, text: s.text }]),
          ...s.calls.map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.name, input: c.args })),
        ],
      });
      if (o.ongoingAtEnd && ti === ts.length - 1 && si === t.steps.length - 1) return;
      msgs.push({
        role: "tool",
        content: s.results.map((res) => ({
          type: "tool-result" as const,
          toolCallId: res.id,
          toolName: s.calls.find((c) => c.id === res.id)!.name,
          output: res.isError
            ? { type: "error-text" as const, value: res.text }
            : { type: "text" as const, value: res.text },
        })),
      });
    });
    if (!(o.ongoingAtEnd && ti === ts.length - 1))
      msgs.push({ role: "assistant", content: [{ type: "text", text: t.final }] });
  });
  return msgs;
}

/** A generated conversation as Responses input items: reasoning, then a message or function calls, then outputs. */
export function responsesConversation(o: GenOptions): ResponseInputItem[] {
  const items: ResponseInputItem[] = [
    { type: "message", role: "developer", content: "You are a coding agent. Work carefully." },
  ];
  const ts = turns(o);
  let n = 0;
  ts.forEach((t, ti) => {
    items.push({ type: "message", role: "user", content: [{ type: "input_text", text: t.user }] });
    t.steps.forEach((s, si) => {
      items.push({
        type: "reasoning",
        id: `rs_${n++}`,
        summary: [{ type: "summary_text", text: `step ${si} of turn ${ti}` }],
        encrypted_content: "gAAAA-opaque",
      });
      if (s.text !== "") items.push({ type: "message", role: "assistant", content: s.text });
      for (const c of s.calls)
        items.push({ type: "function_call", call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) });
      if (o.ongoingAtEnd && ti === ts.length - 1 && si === t.steps.length - 1) return;
      for (const res of s.results) items.push({ type: "function_call_output", call_id: res.id, output: res.text });
    });
    if (!(o.ongoingAtEnd && ti === ts.length - 1)) {
      items.push({
        id: `msg_${n++}`,
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: t.final, annotations: [] }],
      });
    }
  });
  return items;
}
