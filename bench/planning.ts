// Planning: what one planStep costs per message at each history size, and each of its parts
// (views, trigger, keep-recent stretch, stretch), plus findCutPoint (a library function the
// engine does not run), against the bare chars/4 pass over the same snapshots.

import {
  gateFindCutPoint,
  gateRetentionCutoff,
  gateSelectKeepRecent,
  gateSelectStretch,
} from "../src/engine/boundary/kernel-gate.ts";
import { dueBy, planStep } from "../src/engine/run/plan.ts";
import type { StoreSnapshot } from "../src/engine/store/store.ts";
import { type KernelViews, kernelViews } from "../src/engine/store/views.ts";
import type { Config } from "../src/model/config.ts";
import { benchConfig, charsPass, snapshotOf } from "./fixtures.ts";
import { consume, cpuMs, measure, type Repetitions, successiveRatios } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

// Views built once per snapshot, for timing the stretch and cut-point gates on their own.
const viewCache = new WeakMap<StoreSnapshot, KernelViews>();
function viewsOf(snap: StoreSnapshot): KernelViews {
  let v = viewCache.get(snap);
  if (v === undefined) {
    v = kernelViews(snap.messages);
    viewCache.set(snap, v);
  }
  return v;
}

/** The planning operations measured, each a function of a snapshot. */
export const PLANNING_PARTS = {
  /** Baseline, not planning: the bare chars / 4 pass (charsPass); planning / baseline isolates the algorithm's own growth from the memory system's. */
  baseline: (snap: StoreSnapshot) => charsPass(snap.messages),
  /** what the engine runs: planStep on a snapshot (views built from its messages, trigger, keep-recent stretch, its tokens) */
  planStep: (snap: StoreSnapshot, c: Config) => {
    const p = planStep(snap, c);
    return p.stretch === undefined ? 0 : p.stretch.end;
  },
  /** planStep's first part on a snapshot: kernelViews, the roles and tool-pairing arrays (a store keeps them incrementally instead) */
  views: (snap: StoreSnapshot) => kernelViews(snap.messages).userTurns,
  /** planStep's second part: the trigger (L1) */
  trigger: (snap: StoreSnapshot, c: Config) =>
    dueBy(c, snap.totalTokens, snap.messages.length, viewsOf(snap).userTurns) === "none" ? 0 : 1,
  /** planStep's third part with the bench's keep_recent_tokens: selectKeepRecent behind its gate, on prebuilt views */
  keepRecent: (snap: StoreSnapshot, c: Config) =>
    gateSelectKeepRecent(viewsOf(snap), snap.tokens, c.retention_window, 0, c.keep_recent_tokens ?? 0).end,
  /** planStep's third part without keep_recent_tokens: selectStretch behind its gate, on prebuilt views */
  stretch: (snap: StoreSnapshot, c: Config) => gateSelectStretch(viewsOf(snap), c.retention_window).end,
  /** a library function the engine does not call: findCutPoint behind its gate, over everything before the retention window */
  cutPoint: (snap: StoreSnapshot, c: Config) => {
    const n = snap.messages.length;
    return gateFindCutPoint(
      viewsOf(snap),
      snap.tokens,
      0,
      gateRetentionCutoff(n, c.retention_window),
      c.keep_recent_tokens ?? 0,
    ).firstKept;
  },
} as const;

/** Per-message and per-call time of one operation at one size. */
export interface SizeTiming {
  readonly n: number;
  /** median CPU milliseconds of one call */
  readonly callMs: number;
  /** median nanoseconds per message (callMs / n) */
  readonly perMessageNs: number;
  /** the fastest sample's nanoseconds per message (the least disturbed by other processes) */
  readonly minPerMessageNs: number;
  readonly samplesMs: readonly number[];
  /** conversations planned per sample */
  readonly iterations: number;
}

/** The name of a planning operation. */
export type PlanningPart = keyof typeof PLANNING_PARTS;

/**
 * Times each planning operation on generated conversations of each size. Every sample touches
 * about `workMessages` messages held in distinct conversations: ceil(workMessages / n) of them
 * at size n, each planned once. So the working set is the same at every size and a small size
 * is not flattered by staying in the CPU cache across repetitions (which would make growth look
 * worse than it is), while a quadratic operation still shows: its cost per message grows with n.
 * Sizes are measured one after the other and each size's conversations are dropped before the
 * next are built, so each figure carries the garbage-collection cost of its own heap only.
 */
export function timeBySize(
  sizes: readonly number[],
  parts: readonly PlanningPart[],
  workMessages: number,
  r: Repetitions,
): Map<PlanningPart, SizeTiming[]> {
  const ops = new Map<PlanningPart, PlanningOp>(parts.map((p) => [p, PLANNING_PARTS[p]]));
  return timeOpsBySize(sizes, ops, workMessages, r);
}

/** An operation on a snapshot that planning benchmarks time. */
export type PlanningOp = (snap: StoreSnapshot, c: Config) => number;

/** timeBySize for any operations (the tests time a deliberately quadratic one through it). */
export function timeOpsBySize<K>(
  sizes: readonly number[],
  ops: ReadonlyMap<K, PlanningOp>,
  workMessages: number,
  r: Repetitions,
): Map<K, SizeTiming[]> {
  const c = benchConfig();
  const out = new Map<K, SizeTiming[]>(Array.from(ops.keys(), (k) => [k, []]));
  for (const n of sizes) {
    const copies = Math.max(1, Math.ceil(workMessages / n));
    let snaps: StoreSnapshot[] = Array.from({ length: copies }, (_, k) => snapshotOf(n, k + 1));
    for (const [key, op] of ops) {
      const est = measure(() => {
        const t0 = cpuMs();
        for (const snap of snaps) consume(op(snap, c));
        return cpuMs() - t0;
      }, r);
      const callMs = est.medianMs / copies;
      out.get(key)?.push({
        n,
        callMs,
        perMessageNs: (callMs * 1e6) / n,
        minPerMessageNs: ((est.minMs / copies) * 1e6) / n,
        samplesMs: est.samplesMs,
        iterations: copies,
      });
    }
    snaps = [];
    consume(snaps.length);
  }
  return out;
}

/** Runs every planning operation many times on a small conversation, so the JIT is warm before anything is timed. */
export function warmUpPlanning(): void {
  const snap = snapshotOf(2_000, 99);
  const c = benchConfig();
  for (let i = 0; i < 200; i++) {
    for (const op of Object.values(PLANNING_PARTS)) consume(op(snap, c));
  }
}

function planningTable(t: Map<PlanningPart, SizeTiming[]>): string {
  const plan = t.get("planStep") ?? [];
  const base = t.get("baseline") ?? [];
  const perMsg = successiveRatios(plan.map((x) => x.perMessageNs));
  const total = successiveRatios(plan.map((x) => x.callMs));
  return table(
    [
      "messages",
      "one planStep (ms)",
      "per message (ns)",
      "per-message ratio vs previous size",
      "total-time ratio vs previous size",
      "baseline chars/4 pass (ns/msg)",
    ],
    plan.map((x, i) => [
      fmtN(x.n),
      fmt(x.callMs, 3),
      fmt(x.perMessageNs),
      fmtRatio(perMsg[i]),
      fmtRatio(total[i]),
      fmt(base[i]?.perMessageNs ?? NaN),
    ]),
  );
}

function partsTable(t: Map<PlanningPart, SizeTiming[]>): string {
  const parts: Array<[PlanningPart, string]> = [
    ["views", "kernelViews"],
    ["trigger", "trigger (dueBy)"],
    ["keepRecent", "gateSelectKeepRecent"],
    ["stretch", "gateSelectStretch"],
    ["planStep", "planStep (all)"],
    ["cutPoint", "gateFindCutPoint (library function, not run by the engine)"],
  ];
  const sizes = (t.get("planStep") ?? []).map((x) => x.n);
  const ratios = new Map(parts.map(([p]) => [p, successiveRatios((t.get(p) ?? []).map((x) => x.perMessageNs))]));
  return table(
    ["messages", ...parts.map(([, label]) => `${label} ns/msg (ratio)`)],
    sizes.map((n, i) => [
      fmtN(n),
      ...parts.map(([p]) => {
        const x = t.get(p)?.[i];
        return x === undefined ? "—" : `${fmt(x.perMessageNs)} (${fmtRatio(ratios.get(p)?.[i])})`;
      }),
    ]),
  );
}

/** The section of `npm run bench`'s results about planning (heading, method, both tables). */
export function planningSection(t: Map<PlanningPart, SizeTiming[]>, workMessages: number): string[] {
  return [
    "## Planning",
    "",
    "One planStep on a snapshot = what the engine runs to plan a step: the kernel views built from the snapshot's messages (a",
    "store keeps them incrementally instead), the trigger (L1) and the earliest stretch that keeps keep_recent_tokens (L4/L5/L7),",
    `each through its kernel gate. Each sample plans ⌈${fmtN(workMessages)} / n⌉ distinct conversations of n messages, so every size works`,
    "on the same amount of memory. Linear growth: per-message ratio near 1, total-time ratio near 10. The baseline is the bare",
    "chars/4 pass: the memory system's own share of any growth. Expect one step between 10k and 100k: from about 16k messages",
    "the views' number arrays (8 bytes a message) pass V8's 128 KB limit for young objects and are allocated in the large-object space.",
    "",
    planningTable(t),
    "",
    "Per part (ns per message, ratio vs previous size); the parts after planStep run on views built once, and findCutPoint is a",
    "library function (exported, proved) that planning does not call:",
    "",
    partsTable(t),
    "",
  ];
}
