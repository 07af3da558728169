// Mapping of messages to the kernel's views: plain arrays of roles and tool-pairing indices.
// This is bookkeeping, not decision: which stretch to cut is the kernel's call.
import type { Role } from "../kernel/roles.ts";
import type { Message } from "./message.ts";

/** The index arrays the kernel's stretch and cut-point functions read. */
export interface KernelViews {
  readonly roles: Role[];
  /** tool result j -> index of the assistant message holding its call; -1 for other messages */
  readonly callOf: number[];
  /** assistant with calls -> index of its last answer; -1 otherwise (or none answered yet) */
  readonly lastAnswer: number[];
  /** assistant with at least one call still waiting for its result */
  readonly ongoing: boolean[];
  /** number of user messages (user turns, for the turn threshold) */
  readonly userTurns: number;
}

/** Builds the kernel views of a well-formed conversation (see assertWellFormed). */
export function kernelViews(messages: readonly Message[]): KernelViews {
  const n = messages.length;
  const roles: Role[] = messages.map((m) => m.role);
  const callOf = new Array<number>(n).fill(-1);
  const lastAnswer = new Array<number>(n).fill(-1);
  const ongoing = new Array<boolean>(n).fill(false);
  const callAt = new Map<string, number>();
  const pending = new Array<number>(n).fill(0);
  let userTurns = 0;
  messages.forEach((m, i) => {
    if (m.role === "user") userTurns++;
    if (m.role === "assistant") {
      for (const c of m.toolCalls) callAt.set(c.id, i);
      pending[i] = m.toolCalls.length;
    }
    if (m.role === "tool") {
      const a = callAt.get(m.toolCallId);
      if (a !== undefined && a < i) {
        callOf[i] = a;
        lastAnswer[a] = i;
        pending[a]--;
      }
    }
  });
  for (let i = 0; i < n; i++) ongoing[i] = pending[i] > 0;
  return { roles, callOf, lastAnswer, ongoing, userTurns };
}

/**
 * Kernel views kept up to date by the store as messages are appended and stretches spliced,
 * so planning a step does not rebuild them from every Message (which made each step O(n)).
 */
export interface LiveViews extends KernelViews {
  userTurns: number;
  /** per assistant message, how many of its calls still wait for a result */
  readonly pending: number[];
  /** call id -> index of its assistant message, for calls still waiting for their result */
  readonly openCalls: Map<string, number>;
}

/** Empty live views, to be filled by appendToViews. */
export function emptyLiveViews(): LiveViews {
  return { roles: [], callOf: [], lastAnswer: [], ongoing: [], userTurns: 0, pending: [], openCalls: new Map() };
}

/** Live views of a conversation, built message by message (same arrays as kernelViews on a well-formed one). */
export function liveViews(messages: readonly Message[]): LiveViews {
  const v = emptyLiveViews();
  for (const m of messages) appendToViews(v, m);
  return v;
}

/** Adds message m at the end of the views in O(its tool calls); returns the index of the call it answers, or -1. */
export function appendToViews(v: LiveViews, m: Message): number {
  const i = v.roles.length;
  let a = -1;
  if (m.role === "assistant") for (const c of m.toolCalls) v.openCalls.set(c.id, i);
  if (m.role === "tool") {
    const at = v.openCalls.get(m.toolCallId);
    if (at !== undefined && at < i) {
      v.openCalls.delete(m.toolCallId);
      a = at;
    }
  }
  appendAnswering(v, m, a);
  return a;
}

/**
 * Adds message m at the end of the views as the answer to a call of message `a` (-1: it answers
 * none), in O(1). `openCalls` is the caller's to keep: the store's bulk load resolves calls with
 * its own id table and fills openCalls once at the end (see ConversationStore).
 */
export function appendAnswering(v: LiveViews, m: Message, a: number): void {
  v.roles.push(m.role);
  v.callOf.push(-1);
  v.lastAnswer.push(-1);
  v.ongoing.push(false);
  v.pending.push(0);
  setAnswering(v, v.roles.length - 1, m, a);
}

/**
 * Live views of n entries, all to be set by setAnswering in index order: the arrays are allocated
 * once at their size (n pushes into five growing arrays cost more than the rest of a bulk load),
 * and left unfilled, since setAnswering writes every entry (a fill was one more pass over each).
 */
export function sizedLiveViews(n: number): LiveViews {
  return {
    roles: new Array<Role>(n),
    callOf: new Array<number>(n),
    lastAnswer: new Array<number>(n),
    ongoing: new Array<boolean>(n),
    userTurns: 0,
    pending: new Array<number>(n),
    openCalls: new Map(),
  };
}

/** Sets entry i (the last one set so far, all earlier ones set) to message m, answering a call of message `a` (-1: none). */
export function setAnswering(v: LiveViews, i: number, m: Message, a: number): void {
  const calls = m.role === "assistant" ? m.toolCalls.length : 0;
  v.roles[i] = m.role;
  v.callOf[i] = a;
  v.lastAnswer[i] = -1;
  v.ongoing[i] = calls > 0;
  v.pending[i] = calls;
  if (m.role === "user") v.userTurns++;
  if (a >= 0) {
    v.lastAnswer[a] = i;
    v.pending[a]--;
    v.ongoing[a] = v.pending[a] > 0;
  }
}

/**
 * Replaces entries [start, end) by one summary entry and shifts every index past `end` down by
 * end - start - 1. Correct when no index outside [start, end) points into it (a coherent
 * stretch: kernel-gate's gateSpliceViews checks that first). Array splices are memory moves and
 * the shift is one pass over two number arrays: a small constant, no Message is read.
 */
export function spliceViews(v: LiveViews, start: number, end: number): void {
  const d = end - start - 1;
  const cut = end - start;
  for (let j = start; j < end; j++) if (v.roles[j] === "user") v.userTurns--;
  for (const [id, at] of v.openCalls) {
    // only waiting calls are here (few): those inside the stretch are gone, later ones move
    if (at >= end) v.openCalls.set(id, at - d);
    else if (at >= start) v.openCalls.delete(id);
  }
  v.roles.splice(start, cut, "summary");
  v.callOf.splice(start, cut, -1);
  v.lastAnswer.splice(start, cut, -1);
  v.ongoing.splice(start, cut, false);
  v.pending.splice(start, cut, 0);
  if (d === 0) return;
  const callOf = v.callOf;
  const lastAnswer = v.lastAnswer;
  for (let j = 0; j < callOf.length; j++) {
    if (callOf[j] >= end) callOf[j] -= d;
    if (lastAnswer[j] >= end) lastAnswer[j] -= d;
  }
}
