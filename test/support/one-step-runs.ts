// The check of issue 31's cache-aware commits, shared by the store's and the session's background
// tests: the agent's context changed what it had sent before at most once per background run that
// changed anything, and some run had more than one step to adopt (its clearing, or several batches).
import { expect } from "vitest";
import type { CompactionReport } from "../../src/engine/run/report.ts";

/** Checks that `rewrites` (contexts that changed an item sent before) are at most one per run of `reports` that changed something, some of several steps. */
export function expectOneRewritePerRun(reports: readonly CompactionReport[], rewrites: number): void {
  const steps = (r: CompactionReport) => r.stretches.length + ((r.clearing?.results ?? 0) > 0 ? 1 : 0);
  const changing = reports.filter((r) => steps(r) > 0);
  expect(changing.length).toBeGreaterThan(0);
  expect(changing.some((r) => steps(r) > 1)).toBe(true);
  expect(rewrites).toBeLessThanOrEqual(changing.length);
}
