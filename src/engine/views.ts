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
