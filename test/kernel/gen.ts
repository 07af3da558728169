// Shared fast-check generators for the kernel's differential tests (test code, not reference code).
import fc from "fast-check";
import type { Role } from "../../src/kernel/roles.ts";
import { movable } from "../../src/kernel/stretch.ts";

/** Runs per property: the brief asks for at least 10,000 generated cases per function. */
export const RUNS = 10_000;

const TWO_40 = 2n ** 40n;

/** Naturals biased to the edges: 0, 1, small, and up to 2^40. */
export const nat: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1, 2, 2 ** 40, 2 ** 40 - 1),
  fc.integer({ min: 0, max: 20 }),
  fc.bigInt({ min: 0n, max: TWO_40 }).map(Number),
);

/** Integers of either sign, biased to the edges, up to 2^40 in magnitude. */
export const int: fc.Arbitrary<number> = fc.oneof(
  nat,
  nat.map((x) => -x),
  fc.integer({ min: -3, max: 3 }),
);

export const role: fc.Arbitrary<Role> = fc.constantFrom("system", "user", "assistant", "tool", "summary", "compaction");

/** The tool-pairing view of a conversation, as src/engine/store/views.ts builds it. */
export interface Conversation {
  roles: Role[];
  callOf: number[];
  lastAnswer: number[];
  ongoing: boolean[];
}

type Op = { kind: "system" | "user" | "assistant" | "tool" | "summary" | "compaction"; calls: number; pick: number };

/** Builds the views from a list of operations; a "tool" op with no pending call becomes a plain assistant message. */
export function buildConversation(ops: readonly Op[]): Conversation {
  const roles: Role[] = [];
  const callOf: number[] = [];
  const lastAnswer: number[] = [];
  const pendingCalls: number[] = []; // one entry per unanswered call: the assistant index
  const pending: number[] = [];
  for (const op of ops) {
    const i = roles.length;
    let r: Role = op.kind;
    if (r === "tool" && pendingCalls.length === 0) r = "assistant";
    roles.push(r);
    callOf.push(-1);
    lastAnswer.push(-1);
    pending.push(0);
    if (op.kind === "assistant") {
      for (let c = 0; c < op.calls; c++) pendingCalls.push(i);
      pending[i] = op.calls;
    } else if (r === "tool") {
      const [a] = pendingCalls.splice(op.pick % pendingCalls.length, 1);
      callOf[i] = a;
      lastAnswer[a] = i;
      pending[a]--;
    }
  }
  return { roles, callOf, lastAnswer, ongoing: pending.map((p) => p > 0) };
}

const weights: ReadonlyArray<Record<Op["kind"], number>> = [
  { system: 1, user: 3, assistant: 4, tool: 4, summary: 1, compaction: 0 }, // typical agent
  { system: 0, user: 0, assistant: 1, tool: 6, summary: 0, compaction: 0 }, // (almost) all tool results
  { system: 0, user: 1, assistant: 0, tool: 0, summary: 0, compaction: 0 }, // only user messages
  { system: 0, user: 1, assistant: 3, tool: 0, summary: 1, compaction: 0 }, // many unanswered calls
  { system: 1, user: 1, assistant: 1, tool: 1, summary: 3, compaction: 0 }, // many earlier summaries
  { system: 0, user: 1, assistant: 4, tool: 4, summary: 1, compaction: 2 }, // the provider's own compaction items among the work
];

function opArb(w: Record<Op["kind"], number>): fc.Arbitrary<Op> {
  const kinds = (Object.keys(w) as Array<Op["kind"]>).filter((k) => w[k] > 0);
  return fc.record({
    kind: fc.oneof(...kinds.map((k) => ({ arbitrary: fc.constant(k), weight: w[k] }))),
    calls: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 3 }),
    pick: fc.nat(10),
  });
}

/** Well-formed conversations (possibly empty) of up to maxLen messages, across several shapes. */
export function conversation(maxLen = 24): fc.Arbitrary<Conversation> {
  return fc.oneof(...weights.map((w) => fc.array(opArb(w), { maxLength: maxLen }))).map(buildConversation);
}

/** The conversation after replacing [s, e) by one summary, with the views rebuilt from scratch. */
export function afterSplice(c: Conversation, s: number, e: number): Conversation {
  const d = e - s - 1;
  const map = (i: number) => (i < 0 ? i : i < s ? i : i - d);
  const keep = (i: number) => i < s || i >= e;
  const idx = c.roles.map((_, i) => i).filter(keep);
  const roles = [...c.roles.slice(0, s), "summary" as const, ...c.roles.slice(e)];
  const callOf = [...idx.slice(0, s).map((i) => c.callOf[i]), -1, ...idx.slice(s).map((i) => map(c.callOf[i]))];
  const lastAnswer = [
    ...idx.slice(0, s).map((i) => map(c.lastAnswer[i])),
    -1,
    ...idx.slice(s).map((i) => map(c.lastAnswer[i])),
  ];
  const ongoing = [...c.ongoing.slice(0, s), false, ...c.ongoing.slice(e)];
  return { roles, callOf, lastAnswer, ongoing };
}

/** The companion's Eligible (proofs/dafny/stretch.dfy: Coherent and HasWork) as executable TypeScript. */
export function eligibleStretch(c: Conversation, cutoff: number, s: number, e: number): boolean {
  if (!(0 <= s && s < e && e <= cutoff && cutoff <= c.roles.length)) return false;
  for (let j = s; j < e; j++) {
    if (!movable(c.roles, c.callOf, c.ongoing, s, j)) return false;
    if (c.lastAnswer[j] >= e) return false;
  }
  return c.roles.slice(s, e).some((r) => r !== "summary");
}
