// Which messages the setting `pin` names (docs/pins.md): `file:<path>` pins the tool results of
// calls whose arguments name that file (a string argument equal to the path or ending in
// "/<path>"), `text:<text>` pins every message whose content contains the text. This is matching,
// not decision: what a pin means for the stretches and the clearing is the kernel's
// (pinnedOngoing, L15). Summaries are never pinned: they are compaction's own output.
import type { Message, ToolCall } from "../../model/message.ts";

/** One pin of the setting, parsed. */
export type Pin = { readonly kind: "file"; readonly path: string } | { readonly kind: "text"; readonly text: string };

/** The pins of the setting's values (each already checked by the schema: `file:` or `text:` and something after). */
export function parsePins(values: readonly string[]): Pin[] {
  return values.map((v) =>
    v.startsWith("file:")
      ? { kind: "file", path: v.slice("file:".length) }
      : { kind: "text", text: v.slice("text:".length) },
  );
}

/** The pin as the setting spells it. */
export function pinText(p: Pin): string {
  return p.kind === "file" ? `file:${p.path}` : `text:${p.text}`;
}

/** Every string value of a call's arguments (the raw JSON text; a text that is not JSON is one string). */
function argumentStrings(call: ToolCall): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    return [call.arguments];
  }
  const out: string[] = [];
  const walk = (x: unknown): void => {
    if (typeof x === "string") out.push(x);
    else if (Array.isArray(x)) for (const y of x) walk(y);
    else if (x !== null && typeof x === "object") for (const y of Object.values(x)) walk(y);
  };
  walk(parsed);
  return out;
}

/** Whether a call's arguments name the file: a string argument that is the path or ends in "/path" (or "\path"). */
function namesFile(call: ToolCall, path: string): boolean {
  return argumentStrings(call).some((s) => s === path || s.endsWith(`/${path}`) || s.endsWith(`\\${path}`));
}

/** The first pin that names message m (whose call is `call` for a tool result), or undefined. */
function pinOf(m: Message, call: ToolCall | undefined, pins: readonly Pin[]): Pin | undefined {
  if (m.role === "summary") return undefined;
  return pins.find((p) =>
    p.kind === "text" ? m.content.includes(p.text) : m.role === "tool" && call !== undefined && namesFile(call, p.path),
  );
}

/**
 * For each message, the pin that names it (undefined: not pinned), in one pass: a tool result's
 * call is found by its id among the calls made before it.
 */
export function pinsOfMessages(messages: readonly Message[], pins: readonly Pin[]): (Pin | undefined)[] {
  if (pins.length === 0) return messages.map(() => undefined);
  const calls = new Map<string, ToolCall>();
  const out: (Pin | undefined)[] = [];
  for (const m of messages) {
    if (m.role === "assistant") for (const c of m.toolCalls) calls.set(c.id, c);
    out.push(pinOf(m, m.role === "tool" ? calls.get(m.toolCallId) : undefined, pins));
  }
  return out;
}

/**
 * The pinned flags the kernel reads (pinnedOngoing), true where a pin names the message, remembered
 * per message object: a store asks at every step of a run, and its messages do not change (a splice
 * or a clearing puts new objects in), so only the messages not seen before are matched, and a tool
 * result's call is looked up only when such a result is among them.
 */
export class PinnedFlags {
  private readonly seen = new WeakMap<Message, boolean>();
  constructor(readonly pins: readonly Pin[]) {}

  /** The flags of `messages`, in order. */
  of(messages: readonly Message[]): boolean[] {
    let calls: Map<string, ToolCall> | undefined;
    const callOf = (id: string): ToolCall | undefined => {
      if (calls === undefined) {
        calls = new Map();
        for (const m of messages) if (m.role === "assistant") for (const c of m.toolCalls) calls.set(c.id, c);
      }
      return calls.get(id);
    };
    return messages.map((m) => {
      const known = this.seen.get(m);
      if (known !== undefined) return known;
      const pinned = pinOf(m, m.role === "tool" ? callOf(m.toolCallId) : undefined, this.pins) !== undefined;
      this.seen.set(m, pinned);
      return pinned;
    });
  }
}
