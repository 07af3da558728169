// The memory of stretches known not to shrink that a session's compaction run starts from (read
// from the session's unshrinkable records), which also keeps apart what the run itself found, so
// that the session records only that: both follow every splice as the engine's memory does.
import { UnshrinkableMemory } from "../engine/store/unshrinkable.ts";
import type { Message } from "../model/message.ts";

/** An UnshrinkableMemory that also keeps the stretches added since `track()`. */
export class FoundMemory extends UnshrinkableMemory {
  private found: UnshrinkableMemory | undefined;

  /** From now on, stretches added are kept apart too (those read from the session are not). */
  track(): void {
    this.found = new UnshrinkableMemory();
  }

  override add(start: number, end: number, stretch: readonly Message[]): void {
    super.add(start, end, stretch);
    this.found?.add(start, end, stretch);
  }

  override afterSplice(start: number, end: number): void {
    super.afterSplice(start, end);
    this.found?.afterSplice(start, end);
  }

  /** The stretches added since `track()` that still hold for `messages`. */
  foundIn(messages: readonly Message[]): { start: number; end: number }[] {
    const b = this.found?.bounds(messages) ?? { starts: [], ends: [] };
    return b.starts.map((start, k) => ({ start, end: b.ends[k] }));
  }
}
