// Timing helpers shared by the bench scenarios (bench/*.ts) and the growth tests (test/bench/).
// Absolute times on a shared two-core machine are noisy; what is quoted are ratios within one
// run, so every figure is the median of several samples taken after warm-up, each sample does
// enough work to dwarf timer and scheduling noise, and the garbage collector runs between
// samples (not inside them).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A collector we can call between samples; exposing it at runtime keeps `npm run bench` a plain
// `tsx bench/run.ts` (no node flags to remember).
setFlagsFromString("--expose-gc");
/** Runs the garbage collector (a no-op where it cannot be exposed). */
export const collect: () => void = (() => {
  const g: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
  return typeof g === "function"
    ? () => {
        (g as () => void)();
      }
    : () => {};
})();

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** How many samples to take. */
export interface Repetitions {
  readonly warmup: number;
  readonly reps: number;
}

/**
 * Milliseconds of CPU time used by this process (user + system, all its threads). The machine
 * is shared (provers and test runs of other sessions load both cores), so wall time mostly
 * measures how often we were descheduled; CPU time counts only work done for us, including
 * the garbage collector's helper threads, which is part of the cost being measured.
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// Results flow into this sink so that the JIT cannot drop a computation whose value is unused.
let sink = 0;
/** Keeps a value alive (see sink). */
export function consume(x: number): void {
  sink = (sink + x) | 0;
}
/** The sink's value (printed once, so it is observable). */
export function sinkValue(): number {
  return sink;
}

/** Median and minimum of a list of sample times, plus the raw samples. */
export interface Estimate {
  readonly medianMs: number;
  readonly minMs: number;
  readonly samplesMs: readonly number[];
}

/**
 * Runs `sample` warmup + reps times, collecting garbage before each, and summarizes the timed
 * milliseconds of the measured ones; `sample` returns the CPU milliseconds it measured itself,
 * so untimed set-up (building a store) can live inside it.
 */
export function measure(sample: () => number, r: Repetitions): Estimate {
  const ms: number[] = [];
  for (let i = 0; i < r.warmup + r.reps; i++) {
    collect();
    const t = sample();
    if (i >= r.warmup) ms.push(t);
  }
  return { medianMs: median(ms), minMs: ms.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY), samplesMs: ms };
}

/** Ratios between successive entries: xs[i] / xs[i-1] (undefined for the first). */
export function successiveRatios(xs: readonly number[]): Array<number | undefined> {
  return xs.map((x, i) => (i === 0 ? undefined : x / xs[i - 1]));
}

/** The sizes given on a scenario's command line (`npx tsx bench/<scenario>.ts 10000 100000`), or `defaults` when none is. */
export function sizesFromArgs(defaults: readonly number[]): readonly number[] {
  const sizes = process.argv
    .slice(2)
    .filter((a) => /^\d+$/.test(a))
    .map(Number);
  return sizes.length > 0 ? sizes : defaults;
}
