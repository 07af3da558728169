// Format auto-detection: look for shapes only one format has. Plain user/assistant text
// messages read the same either way, so "openai" is the tie-breaker.
import { isJsonObject, type Json } from "../engine/json.ts";

/** The conversation formats safecut reads and writes. */
export type FormatName = "openai" | "anthropic";

function blockTypes(content: Json | undefined): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => (isJsonObject(b) && typeof b.type === "string" ? [b.type] : []));
}

/** Guesses the format of a list of wire messages (plus whether a top-level `system` exists). */
export function detectFormat(messages: readonly Json[], hasTopLevelSystem: boolean): FormatName {
  if (hasTopLevelSystem) return "anthropic";
  for (const m of messages) {
    if (!isJsonObject(m)) continue;
    if (m.role === "system" || m.role === "developer" || m.role === "tool" || m.tool_calls !== undefined)
      return "openai";
    const types = blockTypes(m.content);
    if (types.some((t) => t === "tool_use" || t === "tool_result" || t === "image" || t === "thinking"))
      return "anthropic";
    if (types.some((t) => t === "image_url" || t === "input_audio")) return "openai";
  }
  return "openai";
}
