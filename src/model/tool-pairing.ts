// The tool-pairing rule every layer checks its input against, written once: a tool call id is
// used by one call only, and a tool result answers exactly one earlier call that has no result
// yet. ToolPairing is the incremental index (one message at a time: the store's load and
// appends, the session's appends, the kernel views; add and problem are its only entries for a
// message); pairsWell checks a list of messages with it; assertPairing checks a whole list of calls
// and results (the shape check, the adapters' items) with it; pairingProblemText is the one
// wording of each problem. Outside the kernel (whose Pairing is the law), no other file decides
// which call a result answers (test/structure/pairing-once.test.ts).

import { InputError } from "./errors.ts";
import type { Message } from "./message.ts";

/** What breaks the pairing rule at one call or result. */
export type PairingProblem =
  | { readonly kind: "duplicate"; readonly id: string; readonly first?: string }
  | { readonly kind: "orphan"; readonly id: string }
  | { readonly kind: "before"; readonly id: string; readonly call: string }
  | { readonly kind: "second"; readonly id: string; readonly first?: string };

/** The one wording of a pairing problem (`first` and `call` name where the other side is). */
export function pairingProblemText(p: PairingProblem): string {
  const id = JSON.stringify(p.id);
  switch (p.kind) {
    case "duplicate":
      return `duplicate tool call id ${id}${p.first === undefined ? "" : ` (already used at ${p.first})`}`;
    case "orphan":
      return `orphan tool result: no tool call has id ${id}`;
    case "before":
      return `tool result for ${id} comes before its call at ${p.call}`;
    default:
      return `second tool result for ${id}${p.first === undefined ? "" : ` (first at ${p.first})`}`;
  }
}

/**
 * The incremental pairing index: every call id seen, and for each call still waiting for its
 * result the position its owner gave it (the store gives message ordinals: they survive
 * splices). The calls of the latest message that made calls are kept as that message (results
 * usually answer them right after: no table is asked); a call of it still waiting when the next
 * message makes calls moves to the waiting table. Adding a message costs its calls, and a result
 * one lookup at most.
 */
export class ToolPairing {
  /** every tool call id seen */
  private readonly ids = new Set<string>();
  /** id -> position of its message, for each call waiting for its result that is not one of `recent` */
  private readonly waiting = new Map<string, number>();
  /** the calls of the latest message that made calls, its position, and which of them are answered (1) */
  private recent: readonly { readonly id: string }[] = [];
  private recentAt = -1;
  private recentDone = new Uint8Array(8);

  /** The first call id in `calls` that is used already (earlier, or twice among them), or undefined. */
  firstDuplicate(calls: readonly { readonly id: string }[]): string | undefined {
    for (let k = 0; k < calls.length; k++) {
      const id = calls[k].id;
      if (this.ids.has(id)) return id;
      for (let j = 0; j < k; j++) if (calls[j].id === id) return id;
    }
    return undefined;
  }

  /**
   * Adds the calls of the message at position `at`; false when one of their ids was used already
   * (then the index is to be dropped: the calls before it were added).
   */
  addCalls(calls: readonly { readonly id: string }[], at: number): boolean {
    if (calls.length === 0) return true;
    const recent = this.recent;
    const done = this.recentDone;
    for (let j = 0; j < recent.length; j++) if (done[j] === 0) this.waiting.set(recent[j].id, this.recentAt);
    this.recent = calls;
    this.recentAt = at;
    if (done.length < calls.length) this.recentDone = new Uint8Array(calls.length * 2);
    else done.fill(0, 0, calls.length);
    const ids = this.ids;
    for (let k = 0; k < calls.length; k++) {
      const size = ids.size;
      ids.add(calls[k].id);
      if (ids.size === size) return false;
    }
    return true;
  }

  // the index of id among the latest calls, or -1
  private recentIndex(id: string): number {
    const recent = this.recent;
    for (let j = 0; j < recent.length; j++) if (recent[j].id === id) return j;
    return -1;
  }

  /** What is wrong with a result for `id` now ("orphan": no call has it; "second": answered already), or null. */
  resultProblem(id: string): "orphan" | "second" | null {
    const j = this.recentIndex(id);
    if (j >= 0) return this.recentDone[j] === 0 ? null : "second";
    if (this.waiting.has(id)) return null;
    // a call not waiting, nor among the latest, was answered
    return this.ids.has(id) ? "second" : "orphan";
  }

  /**
   * What is wrong with adding message `m` now (a call id used already, a result no call waits for),
   * or null: the check of an append, asked before anything changes.
   */
  problem(m: Message): PairingProblem | null {
    if (m.role === "assistant") {
      const id = this.firstDuplicate(m.toolCalls);
      return id === undefined ? null : { kind: "duplicate", id };
    }
    if (m.role !== "tool") return null;
    const kind = this.resultProblem(m.toolCallId);
    return kind === null ? null : { kind, id: m.toolCallId };
  }

  /**
   * Adds message `m` at position `at`: an assistant's calls, or a tool result's answer. Returns the
   * position of the call's message a tool result answers, -1 for a message that answers none, or
   * undefined when `m` breaks the rule (a call id used already: then the index is to be dropped;
   * a result no call waits for: nothing changes).
   */
  add(m: Message, at: number): number | undefined {
    if (m.role === "assistant") return this.addCalls(m.toolCalls, at) ? -1 : undefined;
    if (m.role !== "tool") return -1;
    const a = this.answer(m.toolCallId);
    return a < 0 ? undefined : a;
  }

  /** Adds one call or result as a reader states it (a PairingEvent) at `at`; false when it breaks the rule. */
  addEvent(e: { readonly kind: "call" | "result"; readonly id: string }, at: number): boolean {
    return e.kind === "call" ? this.addCalls([e], at) : this.answer(e.id) >= 0;
  }

  /** Records a result for `id`: the position of the call's message, or -1 when no call waits for it (nothing changes). */
  answer(id: string): number {
    const j = this.recentIndex(id);
    if (j >= 0) {
      if (this.recentDone[j] !== 0) return -1;
      this.recentDone[j] = 1;
      return this.recentAt;
    }
    const at = this.waiting.get(id);
    if (at === undefined) return -1;
    this.waiting.delete(id);
    return at;
  }
}

/** One pass with the incremental index: does every call id occur once and every result answer one waiting call? */
export function pairsWell(messages: readonly Message[]): boolean {
  const index = new ToolPairing();
  for (let i = 0; i < messages.length; i++) if (index.add(messages[i], i) === undefined) return false;
  return true;
}

/** One tool call or tool result as an input states it, with the name of where it is (for errors). */
export interface PairingEvent {
  readonly kind: "call" | "result";
  readonly id: string;
  readonly path: string;
}

/**
 * Throws an InputError naming the place of the first problem: a duplicate call id anywhere
 * first, then, in order, an orphan result, a result before its call, or a second result.
 */
export function assertPairing(events: readonly PairingEvent[]): void {
  const calls = new Map<string, string>();
  for (const e of events) {
    if (e.kind !== "call") continue;
    const first = calls.get(e.id);
    if (first !== undefined) throw pairingError(e.path, { kind: "duplicate", id: e.id, first });
    calls.set(e.id, e.path);
  }
  const index = new ToolPairing();
  const answeredAt = new Map<string, string>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.kind === "call") {
      index.addCalls([e], i);
      continue;
    }
    const problem = index.resultProblem(e.id);
    const call = calls.get(e.id);
    if (problem === "orphan" && call === undefined) throw pairingError(e.path, { kind: "orphan", id: e.id });
    if (problem === "orphan") throw pairingError(e.path, { kind: "before", id: e.id, call: call as string });
    if (problem === "second")
      throw pairingError(e.path, { kind: "second", id: e.id, first: answeredAt.get(e.id) as string });
    index.answer(e.id);
    answeredAt.set(e.id, e.path);
  }
}

/** The InputError of a pairing problem at `path`. */
export function pairingError(path: string, p: PairingProblem): InputError {
  return new InputError(path, pairingProblemText(p));
}
