// Prompt-cache breakpoints on compacted output. A provider with explicit breakpoints (Anthropic)
// reads from its cache only the prefixes a request marks; a compaction changes the conversation
// from some message on, so the output marks the last message before the first one it changed:
// the prefix before it (already cached by the agent's earlier requests) is read at the cached
// price, and only what follows is written again. Never more than the provider's four breakpoints
// (the caller's own counted); a mark this module wrote earlier is moved, not added to, when the
// caller passes its messages back (known by identity: a copy of them counts as the caller's).
import { isJsonObject, type Json, type JsonObject } from "../model/json.ts";

/** The most breakpoints one Anthropic request may carry. */
export const PROVIDER_BREAKPOINTS = 4;

/** How one message format carries a breakpoint. */
export interface BreakpointStyle<M> {
  /** the breakpoints a message carries */
  count(m: M): number;
  /** a copy carrying one more where this module puts it, or undefined when it cannot carry one there */
  mark(m: M): M | undefined;
  /** a copy without the one this module put there */
  unmark(m: M): M;
}

/** Messages this module marked (their objects, as written). */
const ours = new WeakSet<object>();

/**
 * The compacted messages `after` of `before` (unchanged messages are the same objects), with a
 * breakpoint on the last message before the first one that changed, when the request (with
 * `outside` breakpoints elsewhere, e.g. on the system prompt) has one left; this module's earlier
 * mark is taken off first. Unchanged output is returned as it is.
 */
export function markBeforeFirstChange<M extends object>(
  before: readonly M[],
  after: readonly M[],
  style: BreakpointStyle<M>,
  outside = 0,
): M[] {
  let at = 0;
  while (at < before.length && at < after.length && before[at] === after[at]) at++;
  if (at === before.length && at === after.length) return [...after];
  const out = after.map((m) => (ours.has(m) ? style.unmark(m) : m));
  if (at === 0 || style.count(out[at - 1]) > 0) return out;
  const used = out.reduce((sum, m) => sum + style.count(m), outside);
  if (used >= PROVIDER_BREAKPOINTS) return out;
  const marked = style.mark(out[at - 1]);
  if (marked === undefined) return out;
  ours.add(marked);
  out[at - 1] = marked;
  return out;
}

const EPHEMERAL: JsonObject = { type: "ephemeral" };

/** Blocks (and tool results' inner blocks) carrying cache_control. */
function blockMarks(content: Json | undefined): number {
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) {
    if (!isJsonObject(b)) continue;
    if (b.cache_control !== undefined && b.cache_control !== null) n++;
    if (b.type === "tool_result") n += blockMarks(b.content);
  }
  return n;
}

/** Block types that cannot carry cache_control themselves. */
const UNMARKABLE = new Set(["thinking", "redacted_thinking"]);

/** Anthropic messages: cache_control on the message's last content block. */
export const anthropicBreakpoints: BreakpointStyle<JsonObject> = {
  count: (m) => blockMarks(m.content),
  mark(m) {
    const content = m.content;
    if (typeof content === "string")
      return content === ""
        ? undefined
        : { ...m, content: [{ type: "text", text: content, cache_control: EPHEMERAL }] };
    if (!Array.isArray(content) || content.length === 0) return undefined;
    const last = content[content.length - 1];
    if (!isJsonObject(last) || UNMARKABLE.has(String(last.type))) return undefined;
    return { ...m, content: [...content.slice(0, -1), { ...last, cache_control: EPHEMERAL }] };
  },
  unmark(m) {
    const content = m.content;
    if (!Array.isArray(content) || content.length === 0) return m;
    const last = content[content.length - 1];
    if (!isJsonObject(last)) return m;
    const { cache_control: _, ...rest } = last;
    return { ...m, content: [...content.slice(0, -1), rest] };
  },
};

/** The breakpoints an Anthropic top-level system (a string or text blocks) carries. */
export function systemBreakpoints(system: Json | undefined): number {
  return blockMarks(system);
}

/** What an AI SDK message (or part) carries provider options in (structurally; the SDK's ModelMessage). */
interface WithProviderOptions {
  readonly providerOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly content?: unknown;
}

/** Whether an AI SDK message or part asks Anthropic for a breakpoint. */
function asksCache(x: unknown): boolean {
  if (typeof x !== "object" || x === null || !("providerOptions" in x)) return false;
  const o = (x as WithProviderOptions).providerOptions?.anthropic;
  return o !== undefined && o.cacheControl !== undefined && o.cacheControl !== null;
}

/** AI SDK messages: providerOptions.anthropic.cacheControl on the message. */
export function modelMessageBreakpoints<M extends WithProviderOptions>(): BreakpointStyle<M> {
  return {
    count: (m) =>
      (asksCache(m) ? 1 : 0) + (Array.isArray(m.content) ? m.content.filter((p) => asksCache(p)).length : 0),
    mark: (m) => ({
      ...m,
      providerOptions: {
        ...m.providerOptions,
        anthropic: { ...m.providerOptions?.anthropic, cacheControl: EPHEMERAL },
      },
    }),
    unmark(m) {
      const { cacheControl: _, ...anthropic } = m.providerOptions?.anthropic ?? {};
      const { anthropic: __, ...others } = m.providerOptions ?? {};
      const providerOptions = Object.keys(anthropic).length === 0 ? others : { ...others, anthropic };
      const { providerOptions: ___, ...rest } = m;
      return (Object.keys(providerOptions).length === 0 ? rest : { ...rest, providerOptions }) as M;
    },
  };
}
