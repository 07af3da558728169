// Format auto-detection: every mark only some formats have narrows the candidates (an AI SDK
// "tool-call" part, a Responses item `type`, OpenAI's `tool_calls`, Anthropic's `tool_use`...).
// Marks of two formats in one file are refused, naming an item of each (--format decides). A
// format named by the caller (--format) is checked against the marks the same way: a file whose
// marks say another format is refused rather than misread.
// Plain text messages read the same in several formats; then "openai" comes first, then
// "anthropic", "ai-sdk", "responses" (FORMAT_NAMES' order): the summary OpenAI's writer adds (an
// assistant message with string content) is valid in all four shapes.
import { InputError } from "../model/errors.ts";
import { isJsonObject, type Json, type JsonObject } from "../model/json.ts";

/** The conversation formats safecut reads and writes, in detection precedence. */
export const FORMAT_NAMES = ["openai", "anthropic", "ai-sdk", "responses"] as const;

/** The conversation formats safecut reads and writes. */
export type FormatName = (typeof FORMAT_NAMES)[number];

/** A mark only some formats have: which, and what it is (for the refusal of a mixed file). */
interface Mark {
  readonly formats: readonly FormatName[];
  readonly what: string;
}

const ANTHROPIC_BLOCKS = new Set([
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "document",
  "search_result",
  "container_upload",
  "server_tool_use",
  "mcp_tool_use",
  "compaction",
]);
const AI_SDK_PARTS = new Set([
  "tool-call",
  "tool-result",
  "tool-approval-request",
  "tool-approval-response",
  "reasoning",
]);
const RESPONSES_PARTS = new Set(["input_text", "output_text", "input_image", "input_file"]);

// The formats a content part fits, if it is a mark.
function partMark(part: JsonObject, type: string): Mark | undefined {
  const what = `a ${JSON.stringify(type)} part`;
  if (ANTHROPIC_BLOCKS.has(type) || type.endsWith("_tool_result")) return { formats: ["anthropic"], what };
  if (AI_SDK_PARTS.has(type)) return { formats: ["ai-sdk"], what };
  if (RESPONSES_PARTS.has(type)) return { formats: ["responses"], what };
  if (type === "image_url" || type === "input_audio") return { formats: ["openai"], what };
  if (type === "refusal") return { formats: ["openai", "responses"], what };
  if (type === "image" && part.source !== undefined) return { formats: ["anthropic"], what: "an image with a source" };
  if (type === "image" && part.image !== undefined) return { formats: ["ai-sdk"], what: "an image part" };
  if (type === "file" && part.file !== undefined) return { formats: ["openai"], what: "a file part with a file" };
  if (type === "file" && part.data !== undefined) return { formats: ["ai-sdk"], what: "a file part with data" };
  return undefined;
}

// The marks of one item (a message, or a Responses item).
function marks(m: JsonObject): Mark[] {
  const out: Mark[] = [];
  if (typeof m.type === "string")
    out.push({ formats: ["responses"], what: `an item of type ${JSON.stringify(m.type)}` });
  if (m.role === "developer") out.push({ formats: ["openai", "responses"], what: "a developer message" });
  if (m.role === "function" || m.tool_calls !== undefined || m.tool_call_id !== undefined)
    out.push({
      formats: ["openai"],
      what: m.role === "function" ? "a function message" : "tool_calls or tool_call_id",
    });
  // OpenAI's tool message may hold text parts too, but always names its call
  if (m.role === "tool" && Array.isArray(m.content) && m.tool_call_id === undefined)
    out.push({ formats: ["ai-sdk"], what: "a tool message with parts" });
  if (Array.isArray(m.content)) {
    for (const part of m.content) {
      if (!isJsonObject(part) || typeof part.type !== "string") continue;
      const mark = partMark(part, part.type);
      if (mark !== undefined) out.push(mark);
    }
  }
  return out;
}

/**
 * Guesses the format of a list of items (plus whether a top-level `system` exists, which only
 * Anthropic has); `allowed` are the formats the container admits (a request body's `messages`
 * is no Responses input). Throws an InputError naming two items when marks of two formats meet.
 * With `forced` (the format the caller named), that format is the only one allowed, and a mark of
 * another is refused naming the item and the mark.
 */
export function detectFormat(
  items: readonly Json[],
  hasTopLevelSystem: boolean,
  allowed: readonly FormatName[] = FORMAT_NAMES,
  path = "messages",
  forced?: FormatName,
): FormatName {
  if (forced !== undefined) {
    if (hasTopLevelSystem && forced !== "anthropic")
      throw new InputError(
        path,
        `--format ${forced} does not match the file: its top-level "system" reads as anthropic (only Anthropic has one)`,
      );
    items.forEach((m, i) => {
      if (!isJsonObject(m)) return;
      for (const mark of marks(m))
        if (!mark.formats.includes(forced))
          throw new InputError(
            `${path}[${i}]`,
            `--format ${forced} does not match the file: ${path}[${i}] reads as ${mark.formats.join(" or ")} (${mark.what})`,
          );
    });
    return forced;
  }
  let candidates: readonly FormatName[] = hasTopLevelSystem ? allowed.filter((f) => f === "anthropic") : allowed;
  const why: { at: string; mark: Mark }[] = [];
  items.forEach((m, i) => {
    if (!isJsonObject(m)) return;
    for (const mark of marks(m)) {
      const left = candidates.filter((f) => mark.formats.includes(f));
      if (left.length === 0) {
        const before = why.find((w) => !w.mark.formats.some((f) => mark.formats.includes(f)));
        const earlier =
          before === undefined
            ? hasTopLevelSystem
              ? `the top-level "system" reads as anthropic`
              : `the file's container admits ${allowed.join(", ")}`
            : `${before.at} reads as ${before.mark.formats.join(" or ")} (${before.mark.what})`;
        throw new InputError(
          `${path}[${i}]`,
          `the file mixes formats: ${earlier}, but ${path}[${i}] reads as ${mark.formats.join(" or ")} (${mark.what}); name the format with --format`,
        );
      }
      if (left.length < candidates.length) why.push({ at: `${path}[${i}]`, mark });
      candidates = left;
    }
  });
  return candidates[0];
}
