// Both wire formats lack a "summary" role, so a summary travels as an assistant message whose
// whole text is wrapped in the summary tag; reading it back restores the summary role so the
// next compaction can roll it into a new summary. What the engine learnt about the summary (its
// marker: how often it was aged, the size at which it could not shrink, the assistant messages
// after it when the last run ended) rides in the opening tag's attributes,
// `<summary aged="1" floor="412" after="3">`, so it travels with the conversation and a
// later call that keeps no memory reads it back. The readers and writers pass the tag their
// caller gave (or none); the summary_tag setting's default is taken here, in one place.
import type { SummaryMarker } from "../model/message.ts";
import { DEFAULT_SUMMARY_TAG } from "../model/settings-table.ts";

/** A summary as the wire carries it: its text and, when the engine knows something of it, its marker. */
export interface WireSummary {
  readonly content: string;
  readonly marker?: SummaryMarker;
}

/** The marker's attributes, in the order they are written. */
const ATTRIBUTES = ["aged", "floor", "after"] as const;

/** Wraps a summary's text in `<tag ...>...</tag>` for the wire, its marker as attributes (no tag: the summary_tag setting's default). */
export function wrapSummary(s: WireSummary, given: string | undefined): string {
  const tag = given ?? DEFAULT_SUMMARY_TAG;
  const m = s.marker;
  const attrs = m === undefined ? "" : ATTRIBUTES.map((a) => (m[a] === undefined ? "" : ` ${a}="${m[a]}"`)).join("");
  return `<${tag}${attrs}>\n${s.content}\n</${tag}>`;
}

/** The marker of an opening tag's attribute text (` aged="1" floor="412"`), or undefined when it is not one. */
function markerOf(attrs: string): SummaryMarker | undefined | null {
  if (attrs === "") return undefined;
  const out: { -readonly [K in (typeof ATTRIBUTES)[number]]?: number } = {};
  for (const part of attrs.slice(1).split(" ")) {
    const kv = /^([a-z]+)="(\d{1,15})"$/.exec(part);
    const name = ATTRIBUTES.find((a) => a === kv?.[1]);
    if (kv === null || name === undefined || out[name] !== undefined) return null;
    out[name] = Number(kv[2]);
  }
  return out;
}

/**
 * The summary (text and marker) if `text` is wrapped as one `<tag ...>...</tag>` block, else
 * undefined. The inner text may itself mention the tag (a fact copied from a tool error, a model
 * quoting it): the wrapper is recognised by its first and last line only, so a round trip through
 * wrapSummary never loses the summary role. An opening tag with attributes other than the marker's
 * is not a summary safecut wrote. No tag: the summary_tag setting's default.
 */
export function unwrapSummary(text: string, given: string | undefined): WireSummary | undefined {
  const tag = given ?? DEFAULT_SUMMARY_TAG;
  const close = `</${tag}>`;
  const t = text.trim();
  const start = `<${tag}`;
  if (!t.startsWith(start) || !t.endsWith(close)) return undefined;
  const openEnd = t.indexOf(">", start.length);
  if (openEnd < 0) return undefined;
  const marker = markerOf(t.slice(start.length, openEnd));
  if (marker === null) return undefined;
  const inner = t.slice(openEnd + 1, t.length - close.length);
  const content = inner.replace(/^\n/, "").replace(/\n$/, "");
  return marker === undefined ? { content } : { content, marker };
}
