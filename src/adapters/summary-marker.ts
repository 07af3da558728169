// Both wire formats lack a "summary" role, so a summary travels as an assistant message whose
// whole text is wrapped in the summary tag; reading it back restores the summary role so the
// next compaction can roll it into a new summary. The readers and writers pass the tag their
// caller gave (or none); the summary_tag setting's default is taken here, in one place.
import { DEFAULT_SUMMARY_TAG } from "../model/settings-table.ts";

/** Wraps summary text in `<tag>...</tag>` for the wire (no tag: the summary_tag setting's default). */
export function wrapSummary(text: string, given: string | undefined): string {
  const tag = given ?? DEFAULT_SUMMARY_TAG;
  return `<${tag}>\n${text}\n</${tag}>`;
}

/**
 * The summary text if `text` is wrapped as one `<tag>...</tag>` block, else undefined. The
 * inner text may itself mention the tag (a fact copied from a tool error, a model quoting
 * it): the wrapper is recognised by its first and last line only, so a round trip through
 * wrapSummary never loses the summary role. No tag: the summary_tag setting's default.
 */
export function unwrapSummary(text: string, given: string | undefined): string | undefined {
  const tag = given ?? DEFAULT_SUMMARY_TAG;
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const t = text.trim();
  if (!t.startsWith(open) || !t.endsWith(close)) return undefined;
  const inner = t.slice(open.length, t.length - close.length);
  return inner.replace(/^\n/, "").replace(/\n$/, "");
}
