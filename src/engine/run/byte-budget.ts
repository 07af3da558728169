// The byte budget's part of a run (max_request_bytes, L1's byte form): a run due by its bytes
// alone whose byte floor is over the budget by itself is refused before any call, and one that
// ends still over it with its floor over says so; the report's byte part. The decisions are the
// kernel's (byteVerdict, through plan.ts byteVerdictOf); the floor is plan.ts byteFloorOf.
import { byteFloorOf, byteFloorReason, byteVerdictOf } from "./plan.ts";
import type { RequestBytesReport } from "./report.ts";
import type { RunEnd, RunState } from "./run-state.ts";

/** The byte floor of the run's store as it stands, and the kernel's verdict on it. */
function floorNow(run: RunState): { floor: ReturnType<typeof byteFloorOf>; over: boolean } {
  const { c, store } = run;
  const snap = store.view();
  const floor = byteFloorOf(snap, c, run.positions.window(snap.length, c.retention_window));
  return { floor, over: byteVerdictOf(c, store.totalBytes, floor) === "floorOver" };
}

/**
 * A run due by its bytes alone whose byte floor (plan.ts byteFloorOf) is over max_request_bytes
 * by itself (the kernel's byteVerdict "floorOver"): no run can bring the request under, so none
 * is paid for; the reason says so once, with the figures and the setting to change. Any run that
 * starts over the budget records the floor for its report.
 */
export function refusedOverByteFloor(run: RunState): RunEnd | undefined {
  const { c, store } = run;
  if (c.max_request_bytes === null || store.totalBytes <= c.max_request_bytes) return undefined;
  run.byteFloor = floorNow(run);
  if (!run.byteFloor.over || !run.dueByBytes || run.o.dryRun === true) return undefined;
  return { reason: byteFloorReason(c, store.totalBytes, run.byteFloor.floor) };
}

/**
 * A run due by its bytes that ends still over max_request_bytes: its byte floor asked again on
 * the result (the summaries it wrote are counted now); when that floor alone is over the budget,
 * the run's reason says so plainly, as a run refused up front does: the next run is refused.
 */
export function overByteFloorAtEnd(run: RunState, end: RunEnd): RunEnd {
  const { c, store } = run;
  if (!run.dueByBytes || c.max_request_bytes === null || run.byteFloor?.over === true) return end;
  if (store.totalBytes <= c.max_request_bytes || end.stopped !== undefined || end.superseded !== undefined) return end;
  const now = floorNow(run);
  if (!now.over) return end;
  run.byteFloor = now;
  return { ...end, reason: `${byteFloorReason(c, store.totalBytes, now.floor)} (after this run)` };
}

/** The report's byte part (only with max_request_bytes set): before, after, the budget, whether bytes made the run due, the floor. */
export function bytesReport(run: RunState, bytesBefore: number | undefined): { bytes?: RequestBytesReport } {
  const max = run.c.max_request_bytes;
  // bytesBefore is counted exactly when max is set (budgetBytes)
  if (max === null || bytesBefore === undefined) return {};
  const f = run.byteFloor;
  return {
    bytes: {
      before: bytesBefore,
      after: run.store.totalBytes,
      maxRequestBytes: max,
      dueByBytes: run.dueByBytes,
      ...(f === undefined ? {} : { floor: f.floor }),
      floorOver: f?.over ?? false,
    },
  };
}
