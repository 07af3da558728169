// The plain-text rendering of a stretch that goes into the summarization prompt.
import type { Message } from "../../model/message.ts";

/** Renders messages as a readable transcript, one block per message, tool calls by name and id. */
export function renderTranscript(messages: readonly Message[]): string {
  const names = new Map<string, string>();
  const blocks: string[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "assistant":
        if (m.content !== "") blocks.push(`[assistant]\n${m.content}`);
        for (const c of m.toolCalls) {
          names.set(c.id, c.name);
          blocks.push(`[assistant calls ${c.name} (${c.id})]\n${c.arguments}`);
        }
        break;
      case "tool":
        blocks.push(
          `[result of ${names.get(m.toolCallId) ?? "tool"} (${m.toolCallId})${m.isError ? ", error" : ""}]\n${m.content}`,
        );
        break;
      default:
        blocks.push(`[${m.role}]\n${m.content}`);
    }
  }
  return blocks.join("\n\n");
}
