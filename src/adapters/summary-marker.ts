// Both wire formats lack a "summary" role, so a summary travels as an assistant message whose
// whole text is wrapped in the summary tag; reading it back restores the summary role so the
// next compaction can roll it into a new summary.

/** Wraps summary text in `<tag>...</tag>` for the wire. */
export function wrapSummary(text: string, tag: string): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

/** The summary text if `text` is exactly one `<tag>...</tag>` block, else undefined. */
export function unwrapSummary(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const t = text.trim();
  if (!t.startsWith(open) || !t.endsWith(close)) return undefined;
  const inner = t.slice(open.length, t.length - close.length);
  if (inner.includes(open) || inner.includes(close)) return undefined;
  return inner.replace(/^\n/, "").replace(/\n$/, "");
}
