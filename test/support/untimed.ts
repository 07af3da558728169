// A report with its summarizer calls' durations set to 0: what two runs that decide alike must
// agree on (wall-clock times differ from one run to the next).
import type { CompactionReport } from "../../src/engine/run/report.ts";

/** `r` with every call's durationMs, and the total's, set to 0. */
export function untimed(r: CompactionReport): CompactionReport {
  return {
    ...r,
    calls: r.calls.map((c) => ({ ...c, durationMs: 0 })),
    callTotals: { ...r.callTotals, durationMs: 0 },
  };
}
