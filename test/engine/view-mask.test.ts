import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gateIsEligible, gateRetentionCutoff, gateSelectStretch } from "../../src/engine/kernel-gate.ts";
import type { Message } from "../../src/engine/message.ts";
import { maskBefore } from "../../src/engine/view-mask.ts";
import { kernelViews } from "../../src/engine/views.ts";

// Random well-formed conversations where tool results may come late (after other messages),
// so some results answer calls made before `from`.
const step = fc.oneof(
  fc.constant<"user">("user"), fc.constant<"text">("text"), fc.constant<"summary">("summary"),
  fc.record({ calls: fc.integer({ min: 1, max: 3 }), delay: fc.integer({ min: 0, max: 3 }) }),
);

function build(steps: (string | { calls: number; delay: number })[]): Message[] {
  const out: Message[] = [];
  const pending: { id: string; due: number }[] = [];
  let id = 0;
  steps.forEach((s, k) => {
    if (s === "user") out.push({ role: "user", content: "u" });
    else if (s === "text") out.push({ role: "assistant", content: "a", toolCalls: [] });
    else if (s === "summary") out.push({ role: "summary", content: "s" });
    else if (typeof s === "object") {
      const ids = Array.from({ length: s.calls }, () => `c${id++}`);
      out.push({ role: "assistant", content: "", toolCalls: ids.map((i) => ({ id: i, name: "f", arguments: "{}" })) });
      for (const i of ids) pending.push({ id: i, due: k + s.delay });
    }
    for (const p of pending.filter((q) => q.due <= k)) out.push({ role: "tool", toolCallId: p.id, content: "r" });
    pending.splice(0, pending.length, ...pending.filter((q) => q.due > k));
  });
  return out;
}

describe("masking the views before `from`", () => {
  it("makes the kernel pick the earliest eligible stretch starting at or after `from`", () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 25 }), fc.nat(30), fc.integer({ min: 1, max: 4 }), (steps, fromRaw, window) => {
      const msgs = build(steps);
      const v = kernelViews(msgs);
      const from = Math.min(fromRaw, msgs.length);
      const got = gateSelectStretch(maskBefore(v, from), window);
      // brute force on the real views: earliest start >= from, then the longest eligible end
      const cutoff = gateRetentionCutoff(msgs.length, window);
      let want = { found: false, start: 0, end: 0 };
      for (let s = from; s < cutoff && !want.found; s++) {
        for (let e = cutoff; e > s; e--) {
          if (gateIsEligible(v, cutoff, s, e)) {
            want = { found: true, start: s, end: e };
            break;
          }
        }
      }
      expect(got).toEqual(want);
    }), { numRuns: 500 });
  });
});
