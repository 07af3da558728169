// Both wire formats lack a "summary" role, so a summary travels as an assistant message whose
// whole text is wrapped in the summary tag; reading it back restores the summary role so the
// next compaction can roll it into a new summary.

/** Wraps summary text in `<tag>...</tag>` for the wire. */
export function wrapSummary(text: string, tag: string): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

/**
 * The summary text if `text` is wrapped as one `<tag>...</tag>` block, else undefined. The
 * inner text may itself mention the tag (a fact copied from a tool error, a model quoting
 * it): the wrapper is recognised by its first and last line only, so a round trip through
 * wrapSummary never loses the summary role.
 */
export function unwrapSummary(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const t = text.trim();
  if (!t.startsWith(open) || !t.endsWith(close)) return undefined;
  const inner = t.slice(open.length, t.length - close.length);
  return inner.replace(/^\n/, "").replace(/\n$/, "");
}
