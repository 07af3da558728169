// One message of a writer's output, said in terms of the input where it can be, so that a file
// writer can copy what it did not change byte for byte (see file-layout.ts).
import type { Json, JsonObject } from "../model/json.ts";

/** One field of a file message given a new value: `holder` is the message itself or an object within it (a content block, a tool call's `function`). */
export interface FieldEdit {
  readonly holder: JsonObject;
  readonly key: string;
  readonly value: Json;
}

/**
 * One message of the output, said in terms of the input where it can be: a file message written
 * as read (`source`), a file message some of whose content blocks were replaced (`partial`: the
 * same message with only `blocks` left in its content, in their original order), a file message
 * with only some fields given new values (`edited`: a cleared tool result, L13), or a new one.
 */
export type WireItem =
  | { readonly kind: "source"; readonly raw: JsonObject }
  | { readonly kind: "partial"; readonly raw: JsonObject; readonly blocks: readonly Json[] }
  | { readonly kind: "edited"; readonly raw: JsonObject; readonly edits: readonly FieldEdit[] }
  | { readonly kind: "fresh"; readonly value: JsonObject };

/** The message with its edits applied: every object among its values that is an edit's holder gets the new value (every other value the same object). */
function applyEdits(raw: JsonObject, edits: readonly FieldEdit[]): JsonObject {
  const holders = new Set<Json>(edits.map((e) => e.holder));
  const edit = (v: Json): Json => {
    if (typeof v !== "object" || v === null) return v;
    if (Array.isArray(v)) {
      const xs = v.map(edit);
      return xs.some((x, k) => x !== v[k]) ? xs : v;
    }
    let out: JsonObject = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, edit(x)]));
    for (const e of edits) if (e.holder === v) out = { ...out, [e.key]: e.value };
    return holders.has(v) || Object.keys(v).some((k) => out[k] !== v[k]) ? out : v;
  };
  return edit(raw) as JsonObject;
}

/** The wire message of a planned item (for callers that want values, not text). */
export function wireMessage(item: WireItem): JsonObject {
  if (item.kind === "source") return item.raw;
  if (item.kind === "fresh") return item.value;
  if (item.kind === "edited") return applyEdits(item.raw, item.edits);
  return { ...item.raw, content: [...item.blocks] };
}
