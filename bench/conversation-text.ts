// Generated conversations as the text of a file: a one-line JSON array (as every real session
// file we were given) or JSONL, in OpenAI chat shape, for the writer's benchmark and growth test.
import { writeConversationFile } from "../src/adapters/conversation-file.ts";
import { generateConversation } from "./conversation.ts";

/** The input text of an n-message conversation in a layout: one-line JSON array, or JSONL. */
export function conversationText(n: number, container: "json-array" | "jsonl"): string {
  const messages = generateConversation(n, { seed: 7 });
  const fresh = writeConversationFile(messages, { format: "openai", container });
  // the fresh JSON array is indented: one line, as every real session file we were given
  return container === "jsonl" ? fresh : JSON.stringify(JSON.parse(fresh));
}
