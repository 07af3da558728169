// One message of a writer's output, said in terms of the input where it can be, so that a file
// writer can copy what it did not change byte for byte (see file-layout.ts).
import type { Json, JsonObject } from "../model/json.ts";

/**
 * One message of the output, said in terms of the input where it can be: a file message written
 * as read (`source`), a file message some of whose content blocks were replaced (`partial`: the
 * same message with only `blocks` left in its content, in their original order), or a new one.
 */
export type WireItem =
  | { readonly kind: "source"; readonly raw: JsonObject }
  | { readonly kind: "partial"; readonly raw: JsonObject; readonly blocks: readonly Json[] }
  | { readonly kind: "fresh"; readonly value: JsonObject };

/** The wire message of a planned item (for callers that want values, not text). */
export function wireMessage(item: WireItem): JsonObject {
  if (item.kind === "source") return item.raw;
  if (item.kind === "fresh") return item.value;
  return { ...item.raw, content: [...item.blocks] };
}
