// What the `safecut/kernel` entry's plain-data copy and requires check cost: each function
// called through the entry (copy + guard + kernel) against the kernel function called directly
// on the same plain arrays, CPU medians within one run. `npx tsx bench/kernel-entry.ts [n]`.
import * as entry from "../src/entries/kernel.ts";
import { planBatch } from "../src/kernel/batch.ts";
import { rangeTokens, totalTokens } from "../src/kernel/progress.ts";
import type { Role } from "../src/kernel/roles.ts";
import { consume, cpuMs, measure, sinkValue } from "./measure.ts";

const n = Number(process.argv[2] ?? 100_000);
// user, then (assistant, user) pairs: one-message stretches, as many as the plan wants
const roles: Role[] = Array.from({ length: n }, (_, i): Role => (i % 2 === 0 ? "user" : "assistant"));
const none = new Array<number>(n).fill(-1);
const idle = new Array<boolean>(n).fill(false);
const tokens = Array.from({ length: n }, (_, i) => 50 + (i % 7));
const need = 25 * n; // about half of what is there: the plan scans half the conversation

type Case = readonly [string, () => number, () => number];
const cases: Case[] = [
  [
    "planBatch",
    () => planBatch(roles, none, none, idle, 6, tokens, 64, [], [], need, 40, 3).length,
    () => entry.planBatch(roles, none, none, idle, 6, tokens, 64, [], [], need, 40, 3).length,
  ],
  ["totalTokens", () => totalTokens(tokens), () => entry.totalTokens(tokens)],
  [
    "rangeTokens (1,000 of them)",
    () => rangeTokens(tokens, 0, Math.min(1000, n)),
    () => entry.rangeTokens(tokens, 0, Math.min(1000, n)),
  ],
];

const reps = { warmup: 3, reps: 11 };
const timed = (f: () => number) => () => {
  const t = cpuMs();
  consume(f());
  return cpuMs() - t;
};
console.log(`safecut/kernel entry vs the kernel called directly, ${n} messages (CPU medians of ${reps.reps})`);
for (const [name, direct, viaEntry] of cases) {
  const d = measure(timed(direct), reps).medianMs;
  const e = measure(timed(viaEntry), reps).medianMs;
  console.log(`${name.padEnd(28)} direct ${d.toFixed(3)} ms   entry ${e.toFixed(3)} ms   ${(e / d).toFixed(2)}x`);
}
console.log(`(sink ${sinkValue()})`);
