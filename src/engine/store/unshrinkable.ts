// The memory of stretches that cannot shrink, kept with a conversation: a stretch whose every
// summary was rejected only for not being shorter than it (L8; the kernel's notShrinkable) is
// recorded by its bounds and a fingerprint of its messages, so no later run pays for it again.
// A splice moves or drops the records as the kernel's recordAfterSplice says; a record whose
// messages no longer match its fingerprint (its stretch changed some other way, or the caller
// handed a different conversation) is dropped when read, so a changed stretch is worth a call again.
import type { Message } from "../../model/message.ts";
import { gateRecordAfterSplice } from "../boundary/kernel-gate.ts";

/** One recorded stretch: [start, end) of the conversation, and what its messages were. */
interface UnshrinkableRecord {
  readonly start: number;
  readonly end: number;
  readonly fingerprint: string;
}

/** The recorded stretches that still hold, as the kernel's parallel arrays of bounds. */
export interface ShunBounds {
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

/** What the messages of [start, end) were: their JSON (recorded stretches are short: no summary was shorter). */
function fingerprintOf(messages: readonly Message[], start: number, end: number): string {
  return JSON.stringify(messages.slice(start, end));
}

/**
 * Stretches of one conversation known not to shrink. A caller that compacts the same conversation
 * again (compactMessages on its result plus appended messages) passes the same memory back.
 */
export class UnshrinkableMemory {
  private records: UnshrinkableRecord[] = [];

  /** Records `stretch`, at [start, end) of the conversation, as a stretch no summary could shorten. */
  add(start: number, end: number, stretch: readonly Message[]): void {
    const fingerprint = fingerprintOf(stretch, 0, stretch.length);
    if (this.records.some((r) => r.start === start && r.end === end && r.fingerprint === fingerprint)) return;
    this.records.push({ start, end, fingerprint });
  }

  /** After [start, end) was replaced by one summary (L6): each record is kept, moved or dropped by the kernel's rule. */
  afterSplice(start: number, end: number): void {
    const kept: UnshrinkableRecord[] = [];
    for (const r of this.records) {
      const moved = gateRecordAfterSplice(r.start, r.end, start, end);
      if (moved.start >= 0) kept.push({ start: moved.start, end: moved.end, fingerprint: r.fingerprint });
    }
    this.records = kept;
  }

  /** The records that still hold for `messages` (the others are dropped), as the kernel reads them. */
  bounds(messages: readonly Message[]): ShunBounds {
    this.records = this.records.filter(
      (r) => r.end <= messages.length && fingerprintOf(messages, r.start, r.end) === r.fingerprint,
    );
    return { starts: this.records.map((r) => r.start), ends: this.records.map((r) => r.end) };
  }

  /** A copy holding the same records (for a run on a copy of the conversation). */
  copy(): UnshrinkableMemory {
    const out = new UnshrinkableMemory();
    out.records = [...this.records];
    return out;
  }

  /** Takes the records of `other` (a copy's, after its run was adopted: their positions are this conversation's now). */
  replaceWith(other: UnshrinkableMemory): void {
    this.records = [...other.records];
  }

  /** How many stretches are recorded. */
  get size(): number {
    return this.records.length;
  }
}
