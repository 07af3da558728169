// The items of a conversation file, for a session: whatever `compact` reads (JSONL, a JSON array,
// a request body with `messages` or `input`, an Anthropic body's top-level `system` as its
// {"system": ...} item), read and checked by the same reader, its format detected as `compact`
// detects it, and each item's original text (numbers and strings as written, only the
// whitespace of a value spread over lines removed).
import { readConversationFile } from "../adapters/conversation-file.ts";
import type { FormatName } from "../adapters/detect.ts";
import { compactJsonText } from "../adapters/json-text.ts";
import { InputError, SafecutError } from "../model/errors.ts";
import { isJsonObject, type Json } from "../model/json.ts";

/** A conversation file's items: its format and each item's text. */
export interface ConversationItems {
  readonly format: FormatName | undefined;
  readonly texts: readonly string[];
}

/** The original text of a value read at [start, end): as written on one line, compacted when it spreads over lines. */
function originalText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  return raw.includes("\n") || raw.includes("\r") ? compactJsonText(text, start, end) : raw;
}

/**
 * Reads a conversation file's items (see the file comment); `format` forces the format (else
 * detected), `slice`: the items continue a session (a tool result may answer a call before
 * them). A blank file has no items (and no format). Errors name the file.
 */
export function conversationItems(
  text: string,
  name: string,
  o: { readonly format?: FormatName | undefined; readonly slice: boolean },
): ConversationItems {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return { format: o.format, texts: [] };
  let conv: ReturnType<typeof readConversationFile>;
  try {
    conv = readConversationFile(text, { ...(o.format === undefined ? {} : { format: o.format }), slice: o.slice });
  } catch (e) {
    throw e instanceof InputError ? new InputError(name, e.message) : e;
  }
  const layout = conv.layout;
  if (layout === undefined) throw new SafecutError("internal", `${name}: read without its layout`);
  const textOf = (v: Json): string => {
    const span = isJsonObject(v) || Array.isArray(v) ? layout.spans.get(v) : undefined;
    return span === undefined ? JSON.stringify(v) : originalText(layout.text, span.start, span.end);
  };
  const texts = layout.items.map(textOf);
  // a request body's top-level system (Anthropic) is the session's first item, as in Anthropic JSONL
  if (!layout.jsonl && layout.system !== undefined) texts.unshift(`{"system":${textOf(layout.system)}}`);
  return { format: conv.format, texts };
}
