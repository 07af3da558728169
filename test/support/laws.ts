// The laws' runtime counterparts as test assertions, computed independently of the engine's
// own law checks: user/system messages intact and in order, no orphan tool result, every kept
// call keeps its results, retention window identical, tokens reduced.
import { expect } from "vitest";
import { placeholderPattern } from "../../src/engine/run/clearing.ts";
import type { Message } from "../../src/model/message.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";

function strip(m: Message): unknown {
  // compare what a message says, not where it was read from
  const { source: _source, ...rest } = m;
  return rest;
}

/** Asserts every law's runtime counterpart between an input and its compacted output. */
export function expectLawsHold(
  before: readonly Message[],
  after: readonly Message[],
  window: number,
  tokens?: { before: number | null; after: number | null },
): void {
  const prot = (ms: readonly Message[]) => ms.filter((m) => m.role === "user" || m.role === "system").map(strip);
  expect(prot(after)).toEqual(prot(before));
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const m of after) {
    if (m.role === "assistant") for (const c of m.toolCalls) calls.add(c.id);
    if (m.role === "tool") {
      expect(calls.has(m.toolCallId), `orphan tool result ${m.toolCallId}`).toBe(true);
      answered.add(m.toolCallId);
    }
  }
  const answeredBefore = new Set(before.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  for (const id of calls) if (answeredBefore.has(id)) expect(answered.has(id), `call ${id} lost its result`).toBe(true);
  const w = Math.min(window, before.length);
  expect(after.slice(after.length - w).map(strip)).toEqual(before.slice(before.length - w).map(strip));
  if (tokens) expect(counted(tokens.after)).toBeLessThan(counted(tokens.before));
}

/** A report's token total, which a run that replaced something (or was due) always counted: fails on null. */
export function counted(tokens: number | null): number {
  expect(tokens).not.toBeNull();
  return tokens as number;
}

const defaultPlaceholder = placeholderPattern(SETTINGS.clear_placeholder.default);

/** How many tool results of `messages` hold the default clearing placeholder (L13). */
export function clearedResults(messages: readonly Message[]): number {
  return messages.filter((m) => m.role === "tool" && defaultPlaceholder.test(m.content)).length;
}
